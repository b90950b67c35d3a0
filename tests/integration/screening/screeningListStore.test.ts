/** The list store on a real SQLite file: atomic replacement of a version, and what changed. */
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readList } from '../../../src/main/services/screening/listFiles.ts';
import { openScreeningListFile, ScreeningListStore } from '../../../src/main/services/screening/screeningListStore.ts';
import type { ParsedList } from '../../../src/shared/screening/listEntry.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/screening');
let temp: ReturnType<typeof makeTempFolder>;
let database: DatabaseSync;

beforeEach(() => {
  temp = makeTempFolder('ledgerdesk-screening-store-');
  database = openScreeningListFile(temp.folder);
});
afterEach(() => {
  database.close();
  temp.remove();
});

/** The next publication: entry 10004 delisted, 10001 given a new alias, digest and date new. */
function nextVersion(list: ParsedList): ParsedList {
  return {
    ...list,
    publishedAt: '2025-04-01',
    digest: 'f'.repeat(64),
    entries: list.entries
      .filter((entry) => entry.uid !== '10004')
      .map((entry) =>
        entry.uid === '10001'
          ? { ...entry, names: [...entry.names, { full: 'KARIMOV, Timour', type: 'aka' as const, weak: false }] }
          : entry,
      ),
  };
}

describe('the screening list store', () => {
  it('keeps the first version of a list with its date and digest, every entry added', async () => {
    const list = await readList([join(FIXTURES, 'SDN.XML')]);
    const store = new ScreeningListStore(database);
    const replacement = store.replace(list, '2025-03-15T09:00:00.000Z');
    expect(replacement).toMatchObject({
      previous: null,
      unchanged: false,
      added: ['10001', '10002', '10003', '10004'],
      removed: [],
      changed: [],
    });
    expect(store.current()).toEqual([
      expect.objectContaining({
        source: 'ofac-sdn',
        format: 'ofac-xml',
        publishedAt: '2025-03-14',
        digest: list.digest,
        entryCount: 4,
        state: 'current',
      }),
    ]);
    expect(store.entries('ofac-sdn')).toEqual(list.entries);
    expect(store.entry('ofac-sdn', '10003')?.names[0]?.full).toBe('AL-HASHIMI, Mohammed Abdullah');
  });

  it('replaces a version with the next: a removed entry is named, a changed one listed, the old one kept as history', async () => {
    const list = await readList([join(FIXTURES, 'SDN.XML')]);
    const store = new ScreeningListStore(database);
    store.replace(list, '2025-03-15T09:00:00.000Z');
    const replacement = store.replace(nextVersion(list), '2025-04-02T09:00:00.000Z');
    expect(replacement).toMatchObject({
      unchanged: false,
      added: [],
      removed: [{ uid: '10004', primaryName: 'OCEAN PEARL' }],
      changed: ['10001'],
    });
    expect(replacement.previous?.digest).toBe(list.digest);
    expect(store.entry('ofac-sdn', '10004')).toBeNull();
    expect(store.entries('ofac-sdn').map((entry) => entry.uid)).toEqual(['10001', '10002', '10003']);
    expect(
      store.history('ofac-sdn').map((version) => [version.publishedAt, version.state, version.entryCount]),
    ).toEqual([
      ['2025-04-01', 'current', 3],
      ['2025-03-14', 'replaced', 4],
    ]);
    // Only the current version's entries are kept.
    expect((database.prepare('SELECT count(*) AS n FROM screening_list_entries').get() as { n: number }).n).toBe(3);
  });

  it('writes nothing for a file it already holds (same digest)', async () => {
    const list = await readList([join(FIXTURES, 'SDN.XML')]);
    const store = new ScreeningListStore(database);
    const first = store.replace(list, '2025-03-15T09:00:00.000Z');
    const again = store.replace(list, '2025-03-16T09:00:00.000Z');
    expect(again).toMatchObject({ unchanged: true, added: [], removed: [], changed: [] });
    expect(again.version.id).toBe(first.version.id);
    expect(store.history('ofac-sdn')).toHaveLength(1);
  });

  it('keeps the current version whole when writing the next one fails, and clears what was half-written', async () => {
    const list = await readList([join(FIXTURES, 'SDN.XML')]);
    const store = new ScreeningListStore(database);
    store.replace(list, '2025-03-15T09:00:00.000Z');
    // A write that fails part way (a full disk, a crash): here, on one entry of the new version.
    database.exec(`CREATE TRIGGER fail_midway BEFORE INSERT ON screening_list_entries WHEN new.uid = '10003' AND new.version_id > 1
      BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    expect(() => store.replace(nextVersion(list), '2025-04-02T09:00:00.000Z')).toThrow('disk full');
    expect(store.current()[0]?.digest).toBe(list.digest);
    expect(store.entries('ofac-sdn')).toEqual(list.entries);
    expect(
      (
        database.prepare("SELECT count(*) AS n FROM screening_list_versions WHERE state = 'writing'").get() as {
          n: number;
        }
      ).n,
    ).toBe(0);
    expect(
      (database.prepare('SELECT count(*) AS n FROM screening_list_entries WHERE version_id > 1').get() as { n: number })
        .n,
    ).toBe(0);
  });

  it('clears, when opened, a version a crash left half-written, and sees the list as it was', async () => {
    const list = await readList([join(FIXTURES, 'SDN.XML')]);
    new ScreeningListStore(database).replace(list, '2025-03-15T09:00:00.000Z');
    // What a process killed between the entries and the swap leaves.
    database.exec(`INSERT INTO screening_list_versions (source, format, published_at, digest, entry_count, imported_at, state)
      VALUES ('ofac-sdn', 'ofac-xml', '2025-04-01', 'abc', 1, '2025-04-02T09:00:00.000Z', 'writing');
      INSERT INTO screening_list_entries (version_id, uid, kind, primary_name, entry_digest, body)
      VALUES (2, '1', 'person', 'X', 'd', '{}');`);
    database.close();
    database = openScreeningListFile(temp.folder);
    const store = new ScreeningListStore(database);
    expect(store.current().map((version) => version.digest)).toEqual([list.digest]);
    expect(store.entries('ofac-sdn')).toHaveLength(4);
    expect((database.prepare('SELECT count(*) AS n FROM screening_list_versions').get() as { n: number }).n).toBe(1);
  });

  it('keeps each list apart', async () => {
    const store = new ScreeningListStore(database);
    store.replace(await readList([join(FIXTURES, 'SDN.XML')]), '2025-03-15T09:00:00.000Z');
    store.replace(
      await readList(['cons_prim.csv', 'cons_add.csv', 'cons_alt.csv'].map((name) => join(FIXTURES, name))),
      '2025-03-15T09:00:00.000Z',
    );
    store.replace(await readList([join(FIXTURES, 'entities.ftm.json')]), '2025-03-15T09:00:00.000Z');
    expect(store.current().map((version) => [version.source, version.entryCount])).toEqual([
      ['ofac-consolidated', 2],
      ['ofac-sdn', 4],
      ['opensanctions', 2],
    ]);
  });
});
