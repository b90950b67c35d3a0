/**
 * The list parsers on the fixtures of tests/fixtures/screening (each written after the format's
 * published documentation: see its README), and on malformed and partial copies of them.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readList } from '../../../src/main/services/screening/listFiles.ts';
import { ListFileError, type ListEntry } from '../../../src/shared/screening/listEntry.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/screening');
const fixture = (name: string): string => join(FIXTURES, name);
const CSV_SET = ['sdn.csv', 'add.csv', 'alt.csv'].map(fixture);
const temp = mkdtempSync(join(tmpdir(), 'ledgerdesk-lists-'));
afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

/** A copy of a fixture with its text changed, under the fixture's own name. */
function changed(name: string, change: (text: string) => string): string {
  const folder = mkdtempSync(join(temp, 'copy-'));
  const path = join(folder, name);
  writeFileSync(path, change(readFileSync(fixture(name), 'utf8')));
  return path;
}

async function failure(paths: string[]): Promise<ListFileError> {
  try {
    await readList(paths);
  } catch (error) {
    if (error instanceof ListFileError) return error;
    throw error;
  }
  throw new Error('the list was read');
}

/** What every OFAC form of the fixture list says, whatever its format. */
function expectTheFixtureList(entries: ListEntry[]): void {
  expect(entries.map((entry) => [entry.uid, entry.kind])).toEqual([
    ['10001', 'person'],
    ['10002', 'business'],
    ['10003', 'person'],
    ['10004', 'vessel'],
  ]);
  const [karimov, northernStar, hashimi] = entries;
  expect(karimov?.names).toEqual(
    expect.arrayContaining([
      { full: 'KARIMOV, Timur Rashidovich', type: 'primary', weak: false },
      { full: 'KARIMOV, Temur', type: 'aka', weak: false },
      { full: 'TIMA', type: 'aka', weak: true },
    ]),
  );
  expect(karimov?.names[0]?.type).toBe('primary');
  expect(karimov?.datesOfBirth).toEqual(['1971-03-14']);
  expect(karimov?.nationalities).toEqual(['Russia']);
  expect(karimov?.identifiers).toEqual([{ type: 'Passport', number: 'AB1234567', country: 'Russia' }]);
  expect(karimov?.programs).toEqual(['RUSSIA-EO14024']);
  expect(karimov?.addresses.map((address) => address.country)).toEqual(['Russia']);
  expect(northernStar?.names.find((name) => name.type === 'fka')?.full).toBe('POLAR STAR TRADING CO.');
  expect(northernStar?.programs).toEqual(['RUSSIA-EO14024', 'UKRAINE-EO13662']);
  expect(northernStar?.identifiers[0]?.number).toBe('1027700000017');
  expect(hashimi?.datesOfBirth).toEqual(['1965']);
  expect(hashimi?.names.find((name) => name.weak)?.full).toBe('ABU OMAR');
}

describe("OFAC's list files", () => {
  it('reads SDN.XML: entries, its publication date and the digest of its bytes', async () => {
    const list = await readList([fixture('SDN.XML')]);
    expect(list).toMatchObject({ source: 'ofac-sdn', format: 'ofac-xml', publishedAt: '2025-03-14', declaredCount: 4 });
    expect(list.digest).toBe(
      createHash('sha256')
        .update(readFileSync(fixture('SDN.XML')))
        .digest('hex'),
    );
    expectTheFixtureList(list.entries);
  });

  it('reads the advanced XML to the same entries, resolving every reference through its ReferenceValueSets', async () => {
    const list = await readList([fixture('sdn_advanced.xml')]);
    expect(list).toMatchObject({ format: 'ofac-advanced-xml', publishedAt: '2025-03-14' });
    expectTheFixtureList(list.entries);
    // The Arabic-script alias the classic XML does not carry.
    expect(list.entries[2]?.names.map((name) => name.full)).toContain('محمد عبد الله الهاشمي');
  });

  it('reads the CSV set (sdn, add, alt), in any order, with what Remarks says', async () => {
    const list = await readList([...CSV_SET].reverse());
    expect(list).toMatchObject({ source: 'ofac-sdn', format: 'ofac-csv', publishedAt: null });
    expectTheFixtureList(list.entries);
    const dated = await readList(CSV_SET, { publishedAt: '2025-03-14' });
    expect(dated.publishedAt).toBe('2025-03-14');
    expect(dated.digest).toBe(list.digest);
  });

  it('reads the Consolidated CSV set as the Consolidated list', async () => {
    const list = await readList(['cons_prim.csv', 'cons_add.csv', 'cons_alt.csv'].map(fixture));
    expect(list.source).toBe('ofac-consolidated');
    expect(list.entries.map((entry) => entry.names[0]?.full)).toEqual([
      'TECHNOEXPORT JSC',
      'PETROVA, Irina Sergeyevna',
    ]);
    expect(list.entries[1]?.nationalities).toEqual(['Russia']);
    expect(list.entries[0]?.identifiers.map((id) => id.type)).toEqual(['Tax ID No.', 'Registration Number']);
  });
});

describe('an OpenSanctions FollowTheMoney export', () => {
  it('reads the targets with their sanctions, documents and addresses joined, and the latest change as its date', async () => {
    const list = await readList([fixture('entities.ftm.json')]);
    expect(list).toMatchObject({ source: 'opensanctions', format: 'ftm-json', publishedAt: '2025-03-13' });
    // The relative (not a target) is not listed.
    expect(list.entries.map((entry) => entry.uid)).toEqual(['NK-aXk3x9TqV7wQ', 'NK-4kPq2ZcB8mR']);
    const [orlov, amber] = list.entries;
    expect(orlov?.names).toContainEqual({ full: 'Евгений Викторович Орлов', type: 'aka', weak: false });
    expect(orlov?.names).toContainEqual({ full: 'Zhenya', type: 'aka', weak: true });
    expect(orlov).toMatchObject({
      kind: 'person',
      datesOfBirth: ['1968-07-21'],
      nationalities: ['ru'],
      programs: ['RUSSIA-EO14024'],
    });
    expect(orlov?.identifiers).toEqual([{ type: 'Passport', number: '751234567', country: 'ru' }]);
    expect(orlov?.addresses[0]?.full).toBe('Ulitsa Lenina 5, Saint Petersburg, Russia');
    expect(amber?.kind).toBe('business');
    expect(amber?.names.find((name) => name.type === 'fka')?.full).toBe('Amber Freight LLC');
  });
});

describe('malformed and partial files: an error naming the place, nothing returned', () => {
  it('an XML tag broken on line 10', async () => {
    const path = changed('SDN.XML', (text) =>
      text.replace('<lastName>KARIMOV</lastName>', '<lastName>KARIMOV</lastNme>'),
    );
    const error = await failure([path]);
    expect(error.file).toBe('SDN.XML');
    expect(error.line).toBe(10);
    expect(error.message).toMatch(
      /^SDN\.XML, line 10, column \d+: <\/lastNme> where <\/lastName> was expected\. Nothing was imported\.$/,
    );
  });

  it('SDN.XML cut short (a partial download)', async () => {
    const path = changed('SDN.XML', (text) => text.slice(0, text.indexOf('<uid>10003</uid>')));
    const error = await failure([path]);
    expect(error.message).toContain('before <sdnEntry> is closed (a partial file?)');
    expect(error.line).not.toBeNull();
  });

  it('SDN.XML whose Record_Count disagrees with its entries', async () => {
    const path = changed('SDN.XML', (text) =>
      text.replace('<Record_Count>4</Record_Count>', '<Record_Count>5</Record_Count>'),
    );
    expect((await failure([path])).message).toContain('Record_Count says 5 entries but the file holds 4');
  });

  it('an sdnEntry with a date of birth OFAC does not write, naming the field', async () => {
    const path = changed('SDN.XML', (text) =>
      text.replace('<dateOfBirth>14 Mar 1971</dateOfBirth>', '<dateOfBirth>sometime</dateOfBirth>'),
    );
    const error = await failure([path]);
    expect(error.field).toBe('dateOfBirth');
    expect(error.line).toBe(55);
  });

  it('the advanced XML cut short, and one whose party names an undefined sub-type', async () => {
    const cut = changed('sdn_advanced.xml', (text) => text.slice(0, text.indexOf('<SanctionsEntries>')));
    expect((await failure([cut])).message).toContain('before <Sanctions> is closed');
    const bad = changed('sdn_advanced.xml', (text) =>
      text.replace('<Profile ID="10004" PartySubTypeID="1">', '<Profile ID="10004" PartySubTypeID="99">'),
    );
    const error = await failure([bad]);
    expect(error.message).toContain('DistinctParty 10004 has PartySubTypeID "99"');
    expect(error.line).toBeGreaterThan(1);
  });

  it('a CSV record with a field missing, on line 3', async () => {
    const folder = mkdtempSync(join(temp, 'csv-'));
    const lines = readFileSync(fixture('sdn.csv'), 'utf8').split('\r\n');
    lines[2] = (lines[2] ?? '').replace(',"-0- ","-0- ",', ',"-0- ",');
    writeFileSync(join(folder, 'sdn.csv'), lines.join('\r\n'));
    for (const name of ['add.csv', 'alt.csv']) writeFileSync(join(folder, name), readFileSync(fixture(name)));
    const error = await failure(['sdn.csv', 'add.csv', 'alt.csv'].map((name) => join(folder, name)));
    expect(error).toMatchObject({ file: 'sdn.csv', line: 3 });
    expect(error.message).toContain('11 fields where 12 are expected');
  });

  it('an alias of an entry the main file does not hold, and a CSV cut inside a quote', async () => {
    const folder = mkdtempSync(join(temp, 'csv-'));
    writeFileSync(join(folder, 'sdn.csv'), readFileSync(fixture('sdn.csv')));
    writeFileSync(join(folder, 'add.csv'), readFileSync(fixture('add.csv')));
    writeFileSync(
      join(folder, 'alt.csv'),
      '10001,7001,"aka","KARIMOV, Temur","-0- "\r\n99999,7009,"aka","NOBODY","-0- "\r\n',
    );
    const orphan = await failure(['sdn.csv', 'add.csv', 'alt.csv'].map((name) => join(folder, name)));
    expect(orphan).toMatchObject({ file: 'alt.csv', line: 2, field: 'ent_num' });
    writeFileSync(join(folder, 'alt.csv'), '10001,7001,"aka","KARIMOV, Tem');
    expect((await failure(['sdn.csv', 'add.csv', 'alt.csv'].map((name) => join(folder, name)))).message).toContain(
      'alt.csv, line 1: the file ends inside a quoted field',
    );
  });

  it('a FollowTheMoney line that is not JSON names its line and column; a cut last line says so', async () => {
    const broken = changed('entities.ftm.json', (text) => text.replace('"schema": "Company"', '"schema" "Company"'));
    const error = await failure([broken]);
    expect(error.line).toBe(5);
    expect(error.column).not.toBeNull();
    const cut = changed('entities.ftm.json', (text) => text.trimEnd().slice(0, -20));
    expect((await failure([cut])).message).toContain('the last line is cut short (a partial file?)');
  });

  it('a file of no list format, an empty file, bytes that are not UTF-8, a missing file, an incomplete CSV set', async () => {
    const folder = mkdtempSync(join(temp, 'other-'));
    writeFileSync(join(folder, 'notes.txt'), 'hello');
    writeFileSync(join(folder, 'empty.xml'), '');
    writeFileSync(join(folder, 'latin1.xml'), Buffer.from('<sdnList>\n<x>caf\xe9</x></sdnList>', 'latin1'));
    expect((await failure([join(folder, 'notes.txt')])).message).toContain('not a list Ledgerdesk reads');
    expect((await failure([join(folder, 'empty.xml')])).message).toContain('the file is empty');
    expect((await failure([join(folder, 'latin1.xml')])).message).toContain('not UTF-8 text');
    expect((await failure([join(folder, 'missing.xml')])).message).toContain('there is no such file');
    expect((await failure([fixture('sdn.csv'), fixture('add.csv')])).message).toContain('a CSV set is three files');
  });
});
