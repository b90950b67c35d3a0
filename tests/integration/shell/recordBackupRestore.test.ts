/**
 * Issue 34, item 7, with real files and real processes (`ledger` as a process, `npm run listen`
 * holding the folder, killed with SIGKILL): a backup made after two reviews is verified, 0600 in
 * a 0700 folder and holds no note in clear; a truncated record.sqlite and one whose bytes were
 * overwritten each open as damaged with one sentence naming the newest backup that verifies (not
 * a damaged newer one) and the command to restore it; `ledger record restore` sets the damaged
 * file aside (never deletes it) and brings every review back; a garbage, a foreign, a damaged and
 * a missing backup are refused and change nothing; a restore while the listener holds the folder
 * is refused and changes nothing. No keychain: the keys are in the folder's key file.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
  closeSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import { noKeychainEnv, runLedgerProcess } from './support/serveProcess.ts';
import { reviewedRefs, reviewTwo } from './support/reviews.ts';
import { startListener, type ListenerHeldFolder } from './support/listenerHeldFolder.ts';

let temp: { folder: string; remove: () => void };
let data: string;
let env: NodeJS.ProcessEnv;
let passphrase: string;
let listener: ListenerHeldFolder | null = null;

beforeEach(() => {
  temp = makeTempFolder();
  data = join(temp.folder, 'data');
  const offline = join(temp.folder, 'offline');
  mkdirSync(offline);
  passphrase = join(temp.folder, 'passphrase');
  writeFileSync(passphrase, 'the backup test passphrase\n', { mode: 0o600 });
  env = noKeychainEnv(offline, { LEDGERDESK_PASSPHRASE_FILE: passphrase });
});

afterEach(() => {
  listener?.listener?.kill('SIGKILL');
  listener = null;
  temp.remove();
});

function ledger(...args: string[]) {
  return runLedgerProcess(['--data', data, ...args], env);
}

const record = () => join(data, 'record.sqlite');
const digestOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** The record files set aside (their -wal and -shm beside them not counted). */
const setAside = () =>
  readdirSync(data).filter((name) => /^record\.sqlite\.(damaged|replaced)-/.test(name) && !/-(wal|shm)$/.test(name));

/** Two reviews, then a backup made on demand: its name. */
async function reviewedAndBackedUp(): Promise<{ refs: string[]; backup: string }> {
  const refs = await reviewTwo(ledger);
  const made = await ledger('--json', 'record', 'backup');
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
  const file = (JSON.parse(made.stdout) as { file: string }).file;
  return { refs: [...refs].sort(), backup: basename(file) };
}

describe("backups of the officer's record", () => {
  it('restore a truncated record and an overwritten one, each named as damaged with its newest verified backup', async () => {
    const { refs, backup } = await reviewedAndBackedUp();
    const backupFile = join(data, 'backups', backup);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, 'backups')).mode & 0o777).toBe(0o700);
    // Sealed as the record is: the notes are not in the backup in clear.
    expect(readFileSync(backupFile).includes(Buffer.from('kept across restarts', 'utf8'))).toBe(false);
    expect(readFileSync(backupFile).includes(Buffer.from('SQLite format 3', 'utf8'))).toBe(true);
    const listed = await ledger('--json', 'record', 'backups');
    const rows = (JSON.parse(listed.stdout) as { rows: { name: string; verified: boolean }[] }).rows;
    expect(rows[0]).toMatchObject({ name: backup, verified: true });

    // A newer backup that is itself damaged is not the one offered.
    const damagedBackup = join(data, 'backups', 'record-2999-01-01T00-00-00-000Z.sqlite');
    copyFileSync(backupFile, damagedBackup);
    truncateSync(damagedBackup, 8192);

    // Truncated.
    truncateSync(record(), Math.floor(statSync(record()).size / 3));
    const truncatedSize = statSync(record()).size;
    const refused = await ledger('review', 'list', '--profile', 'Local sandbox');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The newest backup that verifies is ${backup}, made ${backup.slice(7, 17)} `);
    expect(refused.stderr).toContain(`restore it with \`ledger record restore ${backup}\``);
    const restored = await ledger('record', 'restore', backup);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      new RegExp(
        `^Restored the officer's record from the backup ${backup} made .* \\(the record that was there \\(damaged\\) is kept as .*record\\.sqlite\\.damaged-`,
      ),
    );
    const [aside] = setAside();
    expect(statSync(join(data, aside ?? '')).size).toBe(truncatedSize);
    expect(await reviewedRefs(ledger)).toEqual(refs);

    // Overwritten bytes: the first page's header and a run of the file after it.
    const descriptor = openSync(record(), 'r+');
    writeSync(descriptor, Buffer.alloc(4096 * 3, 0x5a), 0, 4096 * 3, 0);
    closeSync(descriptor);
    const again = await ledger('review', 'list', '--profile', 'Local sandbox');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/cannot be opened \(.*\)\. Nothing in it was changed or removed/);
    expect(again.stderr).toContain(`The newest backup that verifies is ${backup}`);
    const second = await ledger('record', 'restore', backup);
    expect(second.code, second.stderr).toBe(0);
    expect(setAside()).toHaveLength(2);
    expect(await reviewedRefs(ledger)).toEqual(refs);
    const verified = await ledger('audit', 'verify');
    expect(verified.stdout + verified.stderr).not.toMatch(/unexpected failure/);
  });

  it('refuses a garbage, a foreign, a damaged and a missing backup, and changes nothing', async () => {
    const { refs, backup } = await reviewedAndBackedUp();
    const before = digestOf(record());

    const garbage = join(temp.folder, 'garbage.sqlite');
    writeFileSync(garbage, 'this is not a database at all, only words\n'.repeat(200));
    const notRecord = join(temp.folder, 'other-database.sqlite');
    const other = new DatabaseSync(notRecord);
    other.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hello')");
    other.close();
    // Another data folder's record, with its own key file.
    const foreignData = join(temp.folder, 'foreign');
    const foreign = await runLedgerProcess(['--data', foreignData, 'record', 'backup'], env);
    expect(foreign.code, foreign.stderr).toBe(0);
    const foreignBackup = join(foreignData, 'backups', readdirSync(join(foreignData, 'backups'))[0] ?? '');
    const damaged = join(temp.folder, 'damaged-copy.sqlite');
    copyFileSync(join(data, 'backups', backup), damaged);
    truncateSync(damaged, 4096 * 2);

    const cases: [string, RegExp][] = [
      [garbage, /it cannot be (read|opened) \(/],
      [notRecord, /it is not a backup of an officer's record/],
      [foreignBackup, /another data folder's record/],
      [damaged, /it (is damaged|cannot be read)/],
      [join(temp.folder, 'missing.sqlite'), /there is no such file/],
      ['record-2001-01-01T00-00-00-000Z.sqlite', /there is no such file/],
    ];
    for (const [file, why] of cases) {
      const refused = await ledger('record', 'restore', file);
      expect(refused.code, file).toBe(1);
      expect(refused.stderr, file).toMatch(why);
      expect(refused.stderr, file).toMatch(
        /is not restored: .* Nothing was changed; the officer's record is as it was\.\n$/,
      );
      expect(digestOf(record()), file).toBe(before);
      expect(setAside(), file).toEqual([]);
    }
    const usage = await ledger('record', 'restore');
    expect(usage.code).toBe(2);
    expect(await reviewedRefs(ledger)).toEqual(refs);
  });

  it('refuses a restore while npm run listen holds the folder, and restores once it is killed', async () => {
    const { refs, backup } = await reviewedAndBackedUp();
    const before = digestOf(record());
    listener = { temp, data, passphrase, env, listener: null };
    const pid = await startListener(listener);
    const refused = await ledger('record', 'restore', backup);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `ledger: the webhook listener (npm run listen) (process ${String(pid)}) is working on this data folder and ` +
        '`ledger record restore` runs only on a folder no Ledgerdesk has open (the record file is replaced, and ' +
        'Ledgerdesk has it open (restore it from the window, Settings → Record)): stop it (Ctrl+C in its terminal) and run this again.\n',
    );
    expect(digestOf(record())).toBe(before);
    expect(setAside()).toEqual([]);

    listener.listener?.kill('SIGKILL');
    await new Promise((resolve) => listener?.listener?.once('exit', resolve));
    const restored = await ledger('record', 'restore', backup);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/kept as .*record\.sqlite\.replaced-/);
    expect(await reviewedRefs(ledger)).toEqual(refs);
  });
});
