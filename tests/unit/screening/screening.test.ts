/** Blocking, scoring and the screener, on the fixture lists (read by the real parsers). */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readList } from '../../../src/main/services/screening/listFiles.ts';
import { BlockingIndex } from '../../../src/shared/screening/blocking.ts';
import type { ListEntry } from '../../../src/shared/screening/listEntry.ts';
import {
  compareNames,
  prepareEntry,
  prepareName,
  prepareSubject,
  scoreEntry,
} from '../../../src/shared/screening/scoring.ts';
import { DEFAULT_THRESHOLD, Screener } from '../../../src/shared/screening/screener.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/screening');
let entries: ListEntry[] = [];

beforeAll(async () => {
  const ofac = await readList([join(FIXTURES, 'sdn_advanced.xml')]);
  const opensanctions = await readList([join(FIXTURES, 'entities.ftm.json')]);
  entries = [...ofac.entries, ...opensanctions.entries];
});

describe('the blocking index', () => {
  it('finds a listed name from another spelling, another script or a typo, and not from an unrelated name', () => {
    const index = new BlockingIndex(entries.map(prepareEntry).filter((entry) => entry.kind === 'person'));
    const found = (name: string): string[] => [
      ...new Set(index.candidates([prepareName(name, 'person')]).map((candidate) => candidate.entry.uid)),
    ];
    expect(found('Muhammad al-Hashimi')).toContain('10003');
    expect(found('محمد الهاشمي')).toContain('10003');
    expect(found('Евгений Орлов')).toContain('NK-aXk3x9TqV7wQ');
    expect(found('Timur Karimvo')).toContain('10001');
    expect(found('Grace Hopper')).toEqual([]);
  });

  it('hands the scorer at most the limit asked, best first', () => {
    const index = new BlockingIndex(entries.map(prepareEntry));
    const candidates = index.candidates([prepareName('Karimov Timur Temur', 'person')], 1);
    expect(candidates).toHaveLength(1);
    expect(candidates[0]?.entry.uid).toBe('10001');
  });
});

describe('name scores', () => {
  it('are token by token, free of order, a dropped middle name costing little', () => {
    const comparison = compareNames(
      prepareName('Timur Karimov', 'person'),
      prepareName('KARIMOV, Timur Rashidovich', 'person'),
    );
    expect(comparison.pairs.map((pair) => [pair.query, pair.listed, pair.similarity])).toEqual([
      ['karimov', 'karimov', 1],
      ['timur', 'timur', 1],
    ]);
    expect(comparison.unpaired).toEqual([{ token: 'rashidovich', side: 'listed' }]);
    expect(comparison.score).toBeCloseTo(0.96, 6);
  });

  it('weigh tokens by length and take a contradicting token for what it is', () => {
    const long = compareNames(prepareName('Aleksandrovich Li', 'person'), prepareName('ALEKSANDROVICH, Wu', 'person'));
    const short = compareNames(prepareName('Aleksandrovich Li', 'person'), prepareName('PETROVSKIY, Li', 'person'));
    // The long token agreeing counts for more than the short one agreeing.
    expect(long.score).toBeGreaterThan(short.score);
    // Two people who share a patronymic and a given name but not a surname are not one.
    const sameGiven = compareNames(
      prepareName('Sergey Vladimirovich Ivanov', 'person'),
      prepareName('PETROV, Sergey Vladimirovich', 'person'),
    );
    expect(sameGiven.pairs.find((pair) => pair.query === 'ivanov')?.similarity).toBeLessThan(0.75);
    expect(sameGiven.score).toBeLessThan(DEFAULT_THRESHOLD);
  });

  it('say when a consonant skeleton, not the spelling, paired two tokens', () => {
    const comparison = compareNames(prepareName('محمد', 'person'), prepareName('Mohammed', 'person'));
    expect(comparison.pairs[0]).toMatchObject({ query: 'mhmd', listed: 'mohammed', by: 'skeleton', similarity: 0.9 });
  });

  it('compare names written without spaces when the word counts differ', () => {
    const comparison = compareNames(
      prepareName('Abdulrahman Saleh', 'person'),
      prepareName('SALEH, Abdul Rahman', 'person'),
    );
    expect(comparison.joinedSimilarity).not.toBeNull();
    expect(comparison.score).toBeGreaterThan(DEFAULT_THRESHOLD);
  });
});

describe('scores with their parts', () => {
  const person = (names: string[], extra: object = {}) => ({ kind: 'person' as const, names, ...extra });

  it('are raised by an agreeing date of birth and nationality, lowered by disagreeing ones', () => {
    const karimov = prepareEntry(entries.find((entry) => entry.uid === '10001') as ListEntry);
    const score = (subject: ReturnType<typeof person>) => scoreEntry(prepareSubject(subject), subject, karimov);
    const plain = score(person(['Timur Karimov']));
    const agreeing = score(person(['Timur Karimov'], { dateOfBirth: '1971-03-14', nationalities: ['RU'] }));
    const disagreeing = score(person(['Timur Karimov'], { dateOfBirth: '1990-06-01', nationalities: ['US'] }));
    expect(plain.adjustments).toEqual([]);
    expect(agreeing.adjustments.map((adjustment) => [adjustment.factor, adjustment.change])).toEqual([
      ['date-of-birth', 0.05],
      ['nationality', 0.02],
    ]);
    expect(agreeing.adjustments[0]?.reason).toBe('born 1971-03-14, the list says 1971-03-14');
    expect(agreeing.score).toBeCloseTo(Math.min(1, plain.score + 0.07), 6);
    expect(disagreeing.adjustments.map((adjustment) => adjustment.change)).toEqual([-0.15, -0.08]);
    expect(disagreeing.score).toBeLessThan(DEFAULT_THRESHOLD);
  });

  it('take a weak alias for less, and add for an identifier the list holds', () => {
    const screener = new Screener(entries, { threshold: 0 });
    const weak = screener.scored(person(['Tima'])).find((score) => score.entryUid === '10001');
    expect(weak?.name.weak).toBe(true);
    expect(weak?.adjustments[0]).toMatchObject({ factor: 'weak-alias', change: -0.05 });
    const business = { kind: 'business' as const, names: ['Northern Star Shipping'], identifiers: ['1027700000017'] };
    const hit = screener.scored(business).find((score) => score.entryUid === '10002');
    expect(hit?.adjustments).toContainEqual({
      factor: 'identifier',
      change: 0.2,
      reason: 'an identifier number the list holds for it',
    });
  });
});

describe('the screener', () => {
  it('finds applicants by their names in other spellings and scripts, each hit explained', () => {
    const screener = new Screener(entries);
    const uidsOf = (subject: Parameters<Screener['hits']>[0]) => screener.hits(subject).map((hit) => hit.entryUid);
    expect(uidsOf({ kind: 'person', names: ['Muhammad Abdullah Al-Hashemi'], dateOfBirth: '1965-05-01' })).toEqual([
      '10003',
    ]);
    expect(uidsOf({ kind: 'person', names: ['Евгений Викторович Орлов'] })).toEqual(['NK-aXk3x9TqV7wQ']);
    expect(uidsOf({ kind: 'person', names: ['Temur Karimov'] })).toEqual(['10001']);
    expect(uidsOf({ kind: 'business', names: ['Polar Star Trading Company'] })).toEqual(['10002']);
    expect(uidsOf({ kind: 'business', names: ['Baltic Amber Logistics Ltd'] })).toEqual(['NK-4kPq2ZcB8mR']);
    // A person is not screened against businesses, nor a business against people.
    expect(uidsOf({ kind: 'business', names: ['Timur Karimov'] })).toEqual([]);
    expect(uidsOf({ kind: 'person', names: ['Ada Lovelace'], dateOfBirth: '1815-12-10' })).toEqual([]);
    const [hit] = screener.hits({ kind: 'person', names: ['Temur Karimov'] });
    expect(hit?.name).toMatchObject({ listedName: 'KARIMOV, Temur', listedType: 'aka', weak: false });
  });

  it('takes the threshold as a parameter', () => {
    const subject = { kind: 'person' as const, names: ['Timur Karimow'] };
    const score = new Screener(entries, { threshold: 0 }).scored(subject)[0]?.score ?? 0;
    expect(new Screener(entries, { threshold: score }).hits(subject)).toHaveLength(1);
    expect(new Screener(entries, { threshold: score + 0.001 }).hits(subject)).toHaveLength(0);
  });
});
