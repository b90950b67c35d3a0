/**
 * Screening on the screening threads: the same hits as on the calling thread, in the order
 * given, for cached applicants read from a real cache; and a changed applicant screened again.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Statements } from '../../../src/main/services/cache/statements.ts';
import { executeBatches } from '../../../src/main/services/cache/writeBatch.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { applicantSubjects, subjectOf } from '../../../src/main/services/screening/applicantSubjects.ts';
import { readList } from '../../../src/main/services/screening/listFiles.ts';
import { ScreeningPool } from '../../../src/main/services/screening/screeningPool.ts';
import type { ListEntry } from '../../../src/shared/screening/listEntry.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';

const PROFILE = 'profile-screening';
const FIXTURES = join(import.meta.dirname, '../../fixtures/screening');
let temp: ReturnType<typeof makeTempFolder>;
let cache: OfflineCache;
let entries: ListEntry[];

function person(id: string, first: string, last: string, born = '1971-03-14'): Record<string, unknown> {
  return {
    id,
    first_name: first,
    middle_name: null,
    last_name: last,
    date_of_birth: born,
    email_address: `${id}@example.com`,
    phone_number: '2025550100',
    citizenship: 'RU',
    physical_address: { street_line_1: '1 Main St', city: 'Washington', state: 'DC', postal_code: '20500' },
    mailing_address: null,
    document_ids: null,
    userdata: null,
    bankdata: null,
    created_at: '2025-06-01T00:00:00Z',
    updated_at: '2025-06-01T00:00:00Z',
  };
}

function store(kind: 'person' | 'business', records: Record<string, unknown>[]): void {
  executeBatches(
    cache.database,
    new Statements(cache.database),
    cache.applicants.planReceived(
      PROFILE,
      kind,
      records.map((value) => ({ id: String(value['id']), ok: true as const, value })),
      new Date().toISOString(),
    ).batches,
  );
}

beforeEach(async () => {
  temp = makeTempFolder('ledgerdesk-screening-pool-');
  cache = await OfflineCache.open({
    folder: temp.folder,
    credentials: new Credentials(new InMemorySecretStore()),
    writer: 'inline',
  });
  entries = [
    ...(await readList([join(FIXTURES, 'sdn_advanced.xml')])).entries,
    ...(await readList([join(FIXTURES, 'entities.ftm.json')])).entries,
  ];
  store('person', [
    person('apsn_1', 'Temur', 'Karimov'),
    person('apsn_2', 'Ada', 'Lovelace', '1815-12-10'),
    person('apsn_3', 'Евгений', 'Орлов', '1968-07-21'),
    ...Array.from({ length: 40 }, (_, n) => person(`apsn_x${String(n)}`, 'Grace', `Hopper${String(n)}`, '1906-12-09')),
  ]);
  store('business', [
    {
      id: 'abus_1',
      name: 'Northern Star Shipping',
      dba: null,
      tin: null,
      identification_number: '1027700000017',
      created_at: '2025-06-01T00:00:00Z',
      updated_at: '2025-06-01T00:00:00Z',
    },
  ]);
});
afterEach(async () => {
  await cache.close();
  temp.remove();
});

describe('screening cached applicants', () => {
  it('gives the same hits on the screening threads as on this one, in the order given', async () => {
    const subjects = applicantSubjects(cache, PROFILE);
    expect(subjects).toHaveLength(44);
    const threads = await ScreeningPool.start(entries, { threads: 2 });
    const inline = await ScreeningPool.start(entries, { mode: 'inline' });
    try {
      expect(threads.threads).toBe(2);
      expect(inline.threads).toBe(0);
      const fromThreads = await threads.screen(subjects);
      expect(fromThreads).toEqual(await inline.screen(subjects));
      const hit = (id: string) =>
        fromThreads.find((result) => result.applicantId === id)?.hits.map((one) => one.entryUid);
      expect(hit('apsn_1')).toEqual(['10001']);
      expect(hit('apsn_2')).toEqual([]);
      expect(hit('apsn_3')).toEqual(['NK-aXk3x9TqV7wQ']);
      expect(hit('abus_1')).toEqual(['10002']);
      expect(fromThreads.map((result) => result.applicantId)).toEqual(subjects.map((subject) => subject.applicantId));
    } finally {
      await threads.close();
      await inline.close();
    }
  });

  it('screens a changed applicant again from what the cache now holds', async () => {
    const pool = await ScreeningPool.start(entries, { mode: 'inline' });
    try {
      const before = await pool.screen(
        applicantSubjects(cache, PROFILE).filter((subject) => subject.applicantId === 'apsn_2'),
      );
      expect(before[0]?.hits).toEqual([]);
      store('person', [person('apsn_2', 'Timur', 'Karimov')]);
      const after = await pool.screen(
        applicantSubjects(cache, PROFILE).filter((subject) => subject.applicantId === 'apsn_2'),
      );
      expect(after[0]?.hits.map((hit) => hit.entryUid)).toEqual(['10001']);
      expect(after[0]?.hits[0]?.adjustments.map((adjustment) => adjustment.factor)).toEqual([
        'date-of-birth',
        'nationality',
      ]);
    } finally {
      await pool.close();
    }
  });

  it('makes no subject of a record without a name', () => {
    expect(subjectOf('person', { first_name: '', last_name: ' ' })).toBeNull();
    expect(subjectOf('business', { name: null, dba: 'Trading As' })).toEqual({
      kind: 'business',
      names: ['Trading As'],
      identifiers: [],
    });
  });
});
