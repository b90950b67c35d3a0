/**
 * Putting a backup of the officer's record back in place (issue 34, item 7), for
 * `ledger record restore BACKUP` and for the window (which asks for it at the next start: the
 * running services have record.sqlite open and attached to the cache's connections, so it is
 * never swapped under them). Run only on a folder no Ledgerdesk has open (the folder's lock).
 *
 * The backup is verified first; a wrong, foreign or damaged one changes nothing. The current
 * record.sqlite (with its -wal and -shm, so the set-aside copy still opens as it was) is renamed
 * aside, never deleted: `record.sqlite.damaged-<stamp>` when it does not open, else
 * `record.sqlite.replaced-<stamp>`. The backup is copied in under a partial name and renamed.
 */
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Credentials } from '../credentials/credentials.ts';
import { RecordError } from './recordError.ts';
import { RECORD_FILE_NAME } from './recordFile.ts';
import {
  backupsFolderOf,
  backupTimeText,
  listBackups,
  stampOf,
  verifyBackup,
  type RecordBackup,
} from './recordBackup.ts';

/** The request the window leaves for the next start (the backup's name in the backups folder). */
const RESTORE_REQUEST = 'restore-at-next-start';

/** What the current record.sqlite is: whether it opens whole, and the record it names. */
export function currentRecordOf(dataFolder: string): { exists: boolean; opens: boolean; recordId: string | null } {
  const file = join(dataFolder, RECORD_FILE_NAME);
  if (!existsSync(file)) return { exists: false, opens: false, recordId: null };
  let database: DatabaseSync | null = null;
  try {
    // Read-only: a damaged record is never written to, not even by a recovery of its journal.
    database = new DatabaseSync(file, { readOnly: true });
    const problems = (database.prepare('PRAGMA quick_check(5)').all() as { quick_check: string }[]).filter(
      (row) => row.quick_check !== 'ok',
    );
    const row = database.prepare("SELECT value FROM record_meta WHERE key = 'record_id'").get() as
      { value: string } | undefined;
    return { exists: true, opens: problems.length === 0, recordId: row?.value ?? null };
  } catch {
    return { exists: true, opens: false, recordId: null };
  } finally {
    try {
      database?.close();
    } catch {
      // Only read.
    }
  }
}

/** BACKUP as given: a name in the folder's backups folder, or a path. */
function backupFileOf(dataFolder: string, given: string): string {
  if (!isAbsolute(given) && basename(given) === given) {
    const inFolder = join(backupsFolderOf(dataFolder), given);
    if (existsSync(inFolder)) return inFolder;
  }
  return resolve(given);
}

/**
 * The record the folder's backups must be of: the current file's when it still names one, else
 * that of the newest of the folder's own backups that verifies (a damaged file names none).
 */
async function expectedRecordId(dataFolder: string, credentials: Credentials): Promise<string | null> {
  const current = currentRecordOf(dataFolder);
  if (current.recordId !== null) return current.recordId;
  for (const backup of listBackups(dataFolder)) {
    const verdict = await verifyBackup(backup.file, credentials, null);
    if (verdict.ok) return verdict.recordId;
  }
  return null;
}

export interface Restored {
  backup: string;
  madeAt: Date | null;
  /** Where the record that was there is kept; null when there was none. */
  setAside: string | null;
  /** Whether the record set aside did not open (damaged). */
  wasDamaged: boolean;
  /** The sentence to print. */
  sentence: string;
}

function fsyncPath(path: string): void {
  const descriptor = openSync(path, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** Verifies the backup and puts it in place of record.sqlite, setting the current one aside. */
export async function restoreBackup(
  dataFolder: string,
  given: string,
  credentials: Credentials,
  now: Date = new Date(),
): Promise<Restored> {
  const backup = backupFileOf(dataFolder, given);
  const verdict = await verifyBackup(backup, credentials, await expectedRecordId(dataFolder, credentials));
  if (!verdict.ok) {
    throw new RecordError(
      'invalid',
      `${backup} is not restored: ${verdict.why}. Nothing was changed; the officer's record is as it was.`,
    );
  }
  const record = join(dataFolder, RECORD_FILE_NAME);
  const current = currentRecordOf(dataFolder);
  let setAside: string | null = null;
  if (current.exists) {
    setAside = `${record}.${current.opens ? 'replaced' : 'damaged'}-${stampOf(now)}`;
    // The main file last: until it moves, the record is where it was, with its journal.
    for (const suffix of ['-shm', '-wal']) {
      if (existsSync(record + suffix)) renameSync(record + suffix, setAside + suffix);
    }
    renameSync(record, setAside);
  } else {
    for (const suffix of ['-shm', '-wal']) {
      if (existsSync(record + suffix)) renameSync(record + suffix, `${record}.orphan-${stampOf(now)}${suffix}`);
    }
  }
  const partial = `${record}.restoring`;
  rmSync(partial, { force: true });
  copyFileSync(backup, partial);
  chmodSync(partial, 0o600);
  fsyncPath(partial);
  renameSync(partial, record);
  fsyncPath(dirname(record));
  const madeAt = listBackups(dataFolder).find((each) => each.file === backup)?.madeAt ?? null;
  const when = madeAt === null ? '' : ` made ${backupTimeText(madeAt)}`;
  const kept =
    setAside === null
      ? 'there was no record file before'
      : `the record that was there${current.opens ? '' : ' (damaged)'} is kept as ${setAside}`;
  return {
    backup,
    madeAt,
    setAside,
    wasDamaged: current.exists && !current.opens,
    sentence:
      `Restored the officer's record from the backup ${basename(backup)}${when} (${kept}); what was done after that backup is not in it, ` +
      "and where the audit log had entries after it, `ledger audit verify` says the log's tail is not the one the keychain recorded.",
  };
}

/** The window's request: verified now (so a bad backup is refused at once), put in place at the next start. */
export async function requestRestoreAtStart(
  dataFolder: string,
  name: string,
  credentials: Credentials,
): Promise<RecordBackup> {
  const backup = listBackups(dataFolder).find((each) => each.name === name);
  if (backup === undefined) {
    throw new RecordError('invalid', `There is no backup named ${name} in ${backupsFolderOf(dataFolder)}.`);
  }
  const verdict = await verifyBackup(backup.file, credentials, await expectedRecordId(dataFolder, credentials));
  if (!verdict.ok)
    throw new RecordError('invalid', `The backup of ${backupTimeText(backup.madeAt)} is not restored: ${verdict.why}.`);
  const request = join(backupsFolderOf(dataFolder), RESTORE_REQUEST);
  writeFileSync(`${request}.partial`, name, { mode: 0o600 });
  renameSync(`${request}.partial`, request);
  return backup;
}

/** The backup the window asked to restore at this start, if any. */
export function restoreRequested(dataFolder: string): string | null {
  try {
    return readFileSync(join(backupsFolderOf(dataFolder), RESTORE_REQUEST), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Forgets the window's request (a restore is asked once; a failed one is said, not retried). */
function cancelRestoreRequest(dataFolder: string): void {
  rmSync(join(backupsFolderOf(dataFolder), RESTORE_REQUEST), { force: true });
}

/**
 * At the start of the services, before the record opens: the restore the window asked for. The
 * request goes first, so a restore that fails is said once and not tried at every start.
 */
export async function restoreAtStart(dataFolder: string, credentials: Credentials): Promise<string | null> {
  const name = restoreRequested(dataFolder);
  if (name === null) return null;
  cancelRestoreRequest(dataFolder);
  try {
    return (await restoreBackup(dataFolder, join(backupsFolderOf(dataFolder), basename(name)), credentials)).sentence;
  } catch (error) {
    return `The restore asked for in the window was not done: ${error instanceof Error ? error.message : String(error)}`;
  }
}
