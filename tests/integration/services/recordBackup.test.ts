/**
 * Backups of the officer's record (issue 34, item 7) on real files, with the record's key in the
 * data folder's real key file: each backup is verified before it counts and the newest seven are
 * kept; the daily one is made when the newest is a day old (at the services' close when they end
 * before its timer) and not again the same day; a record with a migration to run is backed up
 * before it runs, as it was; a backup under another key, of another record, or cut short does not
 * verify; a restore the window asked for is put in place at the next start, the record that was
 * there kept aside.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, truncateSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { PassphraseSecretStore } from '../../../src/main/services/credentials/passphraseSecretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { listBackups, verifyBackup } from '../../../src/main/services/record/recordBackup.ts';
import { requestRestoreAtStart, restoreRequested } from '../../../src/main/services/record/recordBackupRestore.ts';
import { RECORD_MIGRATIONS } from '../../../src/main/services/record/recordMigrations.ts';
import { RecordStore } from '../../../src/main/services/record/recordStore.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const PASSPHRASE = 'the record backup test passphrase';
let temp: { folder: string; remove: () => void };
let data: string;
let store: PassphraseSecretStore;

beforeEach(() => {
  temp = makeTempFolder('ledgerdesk-backup-');
  data = join(temp.folder, 'data');
  mkdirSync(data, { mode: 0o700 });
  store = PassphraseSecretStore.create(data, PASSPHRASE);
});

afterEach(() => {
  temp.remove();
});

function day(n: number): Date {
  return new Date(Date.UTC(2026, 11, 1 + n, 6, 30));
}

async function services(now: Date): Promise<LedgerServices> {
  return LedgerServices.open({
    dataFolder: data,
    secretStore: store,
    profileStorage: new FileProfileStorage(data),
    cacheWriter: 'inline',
    now: () => now,
  });
}

describe("backups of the officer's record", () => {
  it('are verified, and only the newest seven are kept', async () => {
    const record = await RecordStore.open({ folder: data, credentials: new Credentials(store) });
    try {
      for (let n = 0; n < 9; n += 1) {
        const made = await record.backup(day(n));
        expect(made.pruned).toEqual(
          n < 7
            ? []
            : [
                `record-${day(n - 7)
                  .toISOString()
                  .replace(/[:.]/g, '-')}.sqlite`,
              ],
        );
      }
    } finally {
      record.close();
    }
    const kept = listBackups(data);
    expect(kept.map((backup) => backup.madeAt)).toEqual([8, 7, 6, 5, 4, 3, 2].map(day));
    for (const backup of kept) {
      expect(await verifyBackup(backup.file, new Credentials(store), record.recordId)).toEqual({
        ok: true,
        recordId: record.recordId,
        migrations: RECORD_MIGRATIONS.length,
      });
      expect(statSync(backup.file).mode & 0o777).toBe(0o600);
    }
    // A damaged backup newer than all of them does not push a good one out.
    const damaged = join(data, 'backups', 'record-2026-12-31T00-00-00-000Z.sqlite');
    copyFileSync(kept[0]?.file ?? '', damaged);
    truncateSync(damaged, 4096);
    const again = await RecordStore.open({ folder: data, credentials: new Credentials(store) });
    const made = await again.backup(day(9));
    again.close();
    expect(made.pruned).toEqual([`record-${day(2).toISOString().replace(/[:.]/g, '-')}.sqlite`]);
    expect(listBackups(data).map((backup) => backup.name)).toContain(basename(damaged));
    // No partial file is left behind.
    expect(readdirSync(join(data, 'backups')).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('are made daily: at the close of services that end before the timer, and not twice in a day', async () => {
    const first = await services(day(0));
    expect(listBackups(data)).toEqual([]);
    await first.close();
    expect(listBackups(data).map((backup) => backup.madeAt)).toEqual([day(0)]);
    // Later the same day: none due.
    const sameDay = await services(new Date(day(0).getTime() + 60 * 60 * 1000));
    await sameDay.close();
    expect(listBackups(data)).toHaveLength(1);
    // One stamped ahead of the clock (made while it was wrong) does not hold the daily one off.
    copyFileSync(listBackups(data)[0]?.file ?? '', join(data, 'backups', 'record-2999-01-01T00-00-00-000Z.sqlite'));
    // A day later: one more, made by the timer while the services run.
    const nextDay = await LedgerServices.open({
      dataFolder: data,
      secretStore: store,
      profileStorage: new FileProfileStorage(data),
      cacheWriter: 'inline',
      now: () => day(1),
      dailyBackup: { afterMs: 0 },
    });
    for (let waited = 0; listBackups(data).length < 3 && waited < 1000; waited += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(listBackups(data).map((backup) => backup.madeAt)).toEqual([
      new Date('2999-01-01T00:00:00.000Z'),
      day(1),
      day(0),
    ]);
    await nextDay.close();
    expect(listBackups(data)).toHaveLength(3);
    expect(nextDay.storeProblems()).toEqual([]);
  });

  it('keeps the record as it was before a migration runs on it', async () => {
    const record = await RecordStore.open({ folder: data, credentials: new Credentials(store) });
    const recordId = record.recordId;
    record.close();
    // The record as an earlier build left it: migrations 2 and 3 not applied yet (3's rebuild of
    // reviews runs again on the table as it stands, so only the tables it adds are dropped).
    const earlier = new DatabaseSync(join(data, 'record.sqlite'));
    earlier.exec(
      `DELETE FROM record_migrations WHERE version >= 2; DROP TABLE record_retention; DROP TABLE record_hold;
       DROP TABLE screening_hits; DROP TABLE screening_no_match; DROP TABLE screening_screened`,
    );
    earlier.close();
    const migrated = await RecordStore.open({ folder: data, credentials: new Credentials(store), now: () => day(3) });
    migrated.close();
    const [before] = listBackups(data);
    expect(before?.madeAt).toEqual(day(3));
    expect(await verifyBackup(before?.file ?? '', new Credentials(store), recordId)).toEqual({
      ok: true,
      recordId,
      migrations: 1,
    });
    const backup = new DatabaseSync(before?.file ?? '', { readOnly: true });
    expect(backup.prepare("SELECT name FROM sqlite_schema WHERE name = 'record_retention'").get()).toBeUndefined();
    backup.close();
    // Opened again, nothing is left to migrate: no second backup.
    (await RecordStore.open({ folder: data, credentials: new Credentials(store) })).close();
    expect(listBackups(data)).toHaveLength(1);
  });

  it('does not verify under another key, of another record, or cut short', async () => {
    const record = await RecordStore.open({ folder: data, credentials: new Credentials(store) });
    const made = await record.backup(day(0));
    record.close();
    const otherFolder = join(temp.folder, 'other');
    mkdirSync(otherFolder, { mode: 0o700 });
    const otherStore = PassphraseSecretStore.create(otherFolder, PASSPHRASE);
    expect(await verifyBackup(made.file, new Credentials(otherStore), null)).toEqual({
      ok: false,
      why: "its record's key is not in this keychain (it is another folder's record)",
    });
    expect(await verifyBackup(made.file, new Credentials(store), 'another-record-id')).toEqual({
      ok: false,
      why: "it is a backup of another data folder's record, not this one's",
    });
    truncateSync(made.file, 4096);
    expect((await verifyBackup(made.file, new Credentials(store), null)).ok).toBe(false);
  });

  it('puts the backup the window asked for in place at the next start, the record that was there kept aside', async () => {
    const first = await services(day(0));
    await first.close();
    const [backup] = listBackups(data);
    await requestRestoreAtStart(data, backup?.name ?? '', new Credentials(store));
    expect(restoreRequested(data)).toBe(backup?.name);
    const next = await services(day(0));
    const said = next.storeProblems();
    await next.close();
    expect(said.map((problem) => problem.severity)).toEqual(['warning']);
    expect(said[0]?.sentence).toMatch(/^Restored the officer's record from the backup record-2026-12-01T06-30-00-000Z/);
    expect(restoreRequested(data)).toBeNull();
    expect(readdirSync(data).some((name) => /^record\.sqlite\.replaced-[^]*Z$/.test(name))).toBe(true);
    // A damaged record: the restore asked for is put in place before the record is opened.
    truncateSync(join(data, 'record.sqlite'), 4096);
    await expect(services(day(0))).rejects.toThrow(
      /The newest backup that verifies is record-2026-12-01T06-30-00-000Z/,
    );
    await requestRestoreAtStart(data, backup?.name ?? '', new Credentials(store));
    const repaired = await services(day(0));
    expect(repaired.record.state).toBe('open');
    await repaired.close();
    expect(readdirSync(data).filter((name) => /^record\.sqlite\.damaged-[^]*Z$/.test(name))).toHaveLength(1);
    // A name that is not a backup of the folder: refused, nothing asked for.
    await expect(
      requestRestoreAtStart(data, 'record-2001-01-01T00-00-00-000Z.sqlite', new Credentials(store)),
    ).rejects.toThrow(/There is no backup named record-2001-01-01T00-00-00-000Z\.sqlite/);
    expect(existsSync(join(data, 'backups', 'restore-at-next-start'))).toBe(false);
  });
});
