/**
 * The officer's record in its own file (issue 34): record.sqlite beside the cache, its own key
 * in a real Secret Service, its own migrations. A lost key never drops the record: it opens
 * locked, the window's banner and the CLI's exit code say so and name `ledger record recover`;
 * a schema from another build opens read-only. Run under scripts/with-keyring.sh.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Credentials, recordKeyAccount } from '../../../src/main/services/credentials/credentials.ts';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { RecordError } from '../../../src/main/services/record/recordError.ts';
import { RECORD_FILE_NAME } from '../../../src/main/services/record/recordFile.ts';
import { RECORD_MIGRATIONS } from '../../../src/main/services/record/recordMigrations.ts';
import { RecordStore } from '../../../src/main/services/record/recordStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { ledger } from './support/ledgerRun.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere) {
  process.stderr.write(
    'record store tests skipped: no throwaway Secret Service. Run them with: npm run test:integration -- tests/integration/services/recordStore.test.ts\n',
  );
}

describe.skipIf(!secretServiceHere)("the officer's record on a real file and keychain", () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-record-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  const opened: RecordStore[] = [];

  beforeEach(() => {
    temp = makeTempFolder('ledgerdesk-record-');
  });

  afterEach(async () => {
    for (const record of opened.splice(0)) {
      record.close();
      if (record.recordId !== null) await store.delete(recordKeyAccount(record.recordId));
    }
    temp.remove();
  });

  async function openRecord(): Promise<RecordStore> {
    const record = await RecordStore.open({ folder: temp.folder, credentials: new Credentials(store) });
    opened.push(record);
    return record;
  }

  /** A review row as the record keeps it (the review service writes the real ones). */
  function addReview(record: RecordStore, ref: string): void {
    record.transaction(() => {
      record.database
        .prepare(
          `INSERT INTO reviews (profile_id, kind, ref, state, version, updated_at, body)
           VALUES ('prof_a', 'pending-transaction', ?, 'cleared', 1, '2026-12-01T10:00:00.000Z', ?)`,
        )
        .run(ref, record.sealer.seal(`note on ${ref}`, `review\u0000${ref}`));
    });
  }

  it('is a file of its own, readable by its owner only, with its own key in the keychain', async () => {
    const record = await openRecord();
    expect(record.state).toBe('open');
    expect(record.problem).toBeNull();
    const file = join(temp.folder, RECORD_FILE_NAME);
    expect(record.file).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await store.get(recordKeyAccount(record.recordId ?? ''))).not.toBeNull();
    addReview(record, 'pt_1');
    const applied = record.database.prepare('SELECT version FROM record_migrations').all();
    expect(applied).toEqual(RECORD_MIGRATIONS.map((migration) => ({ version: migration.version })));
    // The note is sealed under the record's key: its words are not in the file.
    record.close();
    expect(readFileSync(file).includes(Buffer.from('note on pt_1'))).toBe(false);
  });

  it('opens locked when its key is gone from the keychain, and keeps every row', async () => {
    const first = await openRecord();
    addReview(first, 'pt_1');
    addReview(first, 'pt_2');
    const recordId = first.recordId ?? '';
    first.close();
    await store.delete(recordKeyAccount(recordId));

    const locked = await openRecord();
    expect(locked.state).toBe('locked');
    expect(locked.recordId).toBe(recordId);
    expect(locked.problem).toMatch(
      /is locked: its key is not in the keychain, and no recovery key of this data folder holds it\. Nothing in it was dropped or changed/,
    );
    // No recovery key holds it (no escrow here): the sentence does not offer a recovery that cannot work.
    expect(locked.problem).not.toContain('ledger record recover');
    expect(() => locked.database).toThrow(RecordError);
    expect(() => locked.sealer).toThrow(/locked/);
    locked.close();
    // No new key was made for it, and its rows are all there.
    expect(await store.get(recordKeyAccount(recordId))).toBeNull();
    const raw = new DatabaseSync(join(temp.folder, RECORD_FILE_NAME), { readOnly: true });
    expect(raw.prepare('SELECT count(*) AS n FROM reviews').get()).toEqual({ n: 2 });
    raw.close();
  });

  it('opens locked, not emptied, when the keychain holds another key for it', async () => {
    const first = await openRecord();
    addReview(first, 'pt_1');
    const recordId = first.recordId ?? '';
    first.close();
    await store.set(recordKeyAccount(recordId), Buffer.alloc(32, 7).toString('base64'));
    const locked = await openRecord();
    expect(locked.state).toBe('locked');
    expect(locked.problem).toMatch(/the key in the keychain is not the one that sealed it/);
    locked.close();
    const raw = new DatabaseSync(join(temp.folder, RECORD_FILE_NAME), { readOnly: true });
    expect(raw.prepare('SELECT count(*) AS n FROM reviews').get()).toEqual({ n: 1 });
    raw.close();
  });

  it('opens read-only when another build changed its schema, and can still be read', async () => {
    const first = await openRecord();
    addReview(first, 'pt_1');
    first.close();
    const raw = new DatabaseSync(join(temp.folder, RECORD_FILE_NAME));
    raw.exec(
      `INSERT INTO record_migrations VALUES (${String(RECORD_MIGRATIONS.length + 1)}, 'from the future', 'x', '2030-01-01')`,
    );
    raw.close();
    const record = await openRecord();
    expect(record.state).toBe('read-only');
    expect(record.problem).toMatch(
      /^The officer's record was made by a newer Ledgerdesk .* open read-only: it can be read and exported/,
    );
    expect(record.database.prepare('SELECT ref FROM reviews').all()).toEqual([{ ref: 'pt_1' }]);
    expect(() => {
      addReview(record, 'pt_2');
    }).toThrow(expect.objectContaining({ kind: 'read-only' }) as Error);
  });

  it('a lost record key is an error at the top of the window and exits the CLI with 1, naming the way back', async () => {
    const folder = temp.folder;
    const first = await ledger(['--data', folder, 'audit'], store);
    expect(first.code).toBe(0);
    const record = await openRecord();
    const recordId = record.recordId ?? '';
    record.close();
    opened.splice(0);
    await store.delete(recordKeyAccount(recordId));
    const run = await ledger(['--data', folder, 'audit'], store);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /The officer's record .* is locked: its key is not in the keychain, and no recovery key/,
    );
    expect(run.stderr).toContain("bring the keychain's entry back");
    // A command that reads the record refuses in one line after that sentence, never as an
    // "unexpected failure", and writes no report.
    const report = join(folder, 'report.html');
    const refused = await ledger(
      ['--data', folder, 'review', 'report', '--profile', 'Local sandbox', '--html', report],
      store,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toContain('unexpected failure');
    expect(refused.stderr.trim().split('\n').at(-1)).toBe(
      "ledger: Nothing was done: the officer's record is locked (above).",
    );
    expect(existsSync(report)).toBe(false);
    // The window's top banner reads the same problems (app.storeProblems).
    const services = await LedgerServices.open({
      dataFolder: folder,
      secretStore: store,
      profileStorage: new FileProfileStorage(folder),
    });
    try {
      expect(services.storeProblems()).toEqual([
        { store: "The officer's record", severity: 'error', sentence: expect.stringMatching(/is locked/) as string },
      ]);
    } finally {
      await services.close();
    }
  });
});
