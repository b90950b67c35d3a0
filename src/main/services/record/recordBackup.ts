/**
 * Backups of the officer's record (issue 34, item 7): `VACUUM INTO` copies of record.sqlite in
 * `<data folder>/backups/record-<UTC stamp>.sqlite`, each verified before it counts, the newest
 * seven kept. A backup is what record.sqlite is, no more: its rows are sealed under the record's
 * key (RecordSealer), and VACUUM INTO copies only the live pages, so it holds nothing in clear
 * that the record does not (docs/decisions/34-record-backups.md).
 *
 * Written to a hidden partial name (0600, in a 0700 folder), switched out of WAL so the file is
 * whole by itself, verified, and only then renamed into place; older backups are pruned only
 * after the new one verified, beyond the seventh that verifies.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Credentials } from '../credentials/credentials.ts';
import { RecordSealer, SealBroken } from '../cache/sealing.ts';
import { checksumOf } from '../migrations/migrationRunner.ts';
import { RecordError } from './recordError.ts';
import { RECORD_MIGRATIONS, RECORD_MIGRATIONS_TABLE } from './recordMigrations.ts';

const BACKUPS_FOLDER = 'backups';
/** How many backups are kept (the newest). */
const BACKUPS_KEPT = 7;
/** A backup older than this is due for a new one. */
const BACKUP_EVERY_MS = 24 * 60 * 60 * 1000;

const KEY_CHECK_IDENTITY = 'record_meta\u0000key_check';
const BACKUP_NAME = /^record-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.sqlite$/;

export interface RecordBackup {
  file: string;
  name: string;
  /** When it was made (from its name, UTC). */
  madeAt: Date;
  bytes: number;
}

export type BackupVerdict = { ok: true; recordId: string; migrations: number } | { ok: false; why: string };

export function backupsFolderOf(dataFolder: string): string {
  return join(dataFolder, BACKUPS_FOLDER);
}

/** The file-name stamp of a time: `2026-12-02T18-34-04-123Z`, sortable as text. */
export function stampOf(time: Date): string {
  return time.toISOString().replace(/[:.]/g, '-');
}

function timeOfName(name: string): Date | null {
  const match = BACKUP_NAME.exec(name);
  if (match === null) return null;
  const [, day, hours, minutes, seconds, millis] = match;
  const time = new Date(`${day ?? ''}T${hours ?? ''}:${minutes ?? ''}:${seconds ?? ''}.${millis ?? ''}Z`);
  return Number.isNaN(time.getTime()) ? null : time;
}

/** The folder's backups, newest first (files named like one; whether they verify is asked apart). */
export function listBackups(dataFolder: string): RecordBackup[] {
  const folder = backupsFolderOf(dataFolder);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const backups: RecordBackup[] = [];
  for (const name of names) {
    const madeAt = timeOfName(name);
    if (madeAt === null) continue;
    const file = join(folder, name);
    try {
      const stat = statSync(file);
      if (stat.isFile()) backups.push({ file, name, madeAt, bytes: stat.size });
    } catch {
      // Gone between the listing and the look: not a backup any more.
    }
  }
  return backups.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Whether `file` is a whole backup of this folder's record: it opens, passes integrity_check,
 * names a record (the same one as `expectedRecordId` when given), its key check opens with that
 * record's key from the keychain, and its migrations are this build's (or fewer of them).
 * Read-only: nothing is written to the file.
 */
export async function verifyBackup(
  file: string,
  credentials: Credentials,
  expectedRecordId: string | null,
): Promise<BackupVerdict> {
  let database: DatabaseSync;
  try {
    if (!existsSync(file)) return { ok: false, why: 'there is no such file' };
    if (!statSync(file).isFile()) return { ok: false, why: 'it is not a file' };
    database = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    return { ok: false, why: `it cannot be opened (${messageOf(error)})` };
  }
  try {
    const problems = (database.prepare('PRAGMA integrity_check(5)').all() as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .filter((text) => text !== 'ok');
    if (problems.length > 0) return { ok: false, why: `it is damaged (${problems.join('; ')})` };
    const tables = new Set(
      (database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    if (!tables.has('record_meta') || !tables.has(RECORD_MIGRATIONS_TABLE)) {
      return { ok: false, why: "it is not a backup of an officer's record" };
    }
    const meta = (key: string): string | null => {
      const row = database.prepare('SELECT value FROM record_meta WHERE key = ?').get(key) as
        { value: string } | undefined;
      return row?.value ?? null;
    };
    const recordId = meta('record_id');
    if (recordId === null) return { ok: false, why: "it is not a backup of an officer's record (it names no record)" };
    if (expectedRecordId !== null && recordId !== expectedRecordId) {
      return { ok: false, why: "it is a backup of another data folder's record, not this one's" };
    }
    let key: Buffer | null;
    try {
      key = await credentials.readRecordKey(recordId);
    } catch (error) {
      return { ok: false, why: `its key cannot be read (${messageOf(error)})` };
    }
    if (key === null)
      return { ok: false, why: "its record's key is not in this keychain (it is another folder's record)" };
    const check = meta('key_check');
    try {
      if (check === null) throw new SealBroken(KEY_CHECK_IDENTITY);
      new RecordSealer(key, recordId).open(Buffer.from(check, 'base64'), KEY_CHECK_IDENTITY);
    } catch (error) {
      if (!(error instanceof SealBroken)) throw error;
      return { ok: false, why: "the record's key in the keychain does not open it" };
    }
    const applied = database
      .prepare(`SELECT version, checksum FROM ${RECORD_MIGRATIONS_TABLE} ORDER BY version`)
      .all() as { version: number; checksum: string }[];
    if (applied.length === 0) return { ok: false, why: 'it has no migrations recorded' };
    for (const [index, row] of applied.entries()) {
      const known = RECORD_MIGRATIONS[index];
      if (known === undefined || row.version !== known.version) {
        return { ok: false, why: `it was made by a newer build (record migration ${String(row.version)})` };
      }
      if (row.checksum !== checksumOf(known)) {
        return { ok: false, why: `its record migration ${String(row.version)} is not this build's` };
      }
    }
    return { ok: true, recordId, migrations: applied.length };
  } catch (error) {
    return { ok: false, why: `it cannot be read (${messageOf(error)})` };
  } finally {
    try {
      database.close();
    } catch {
      // A damaged file may refuse to close cleanly; it was only read.
    }
  }
}

function fsyncPath(path: string): void {
  const descriptor = openSync(path, 'r');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

export interface MadeBackup extends RecordBackup {
  /** Older backups removed to keep the newest seven. */
  pruned: string[];
}

/**
 * Makes a backup of the open record (its own connection, `database`) and verifies it; prunes
 * the older ones beyond seven once it did. A backup that does not verify is removed and the
 * reason thrown: the existing backups are left as they were.
 */
export async function makeBackup(
  database: DatabaseSync,
  dataFolder: string,
  credentials: Credentials,
  recordId: string,
  now: Date = new Date(),
): Promise<MadeBackup> {
  const folder = backupsFolderOf(dataFolder);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  const name = `record-${stampOf(now)}.sqlite`;
  const file = join(folder, name);
  const partial = join(folder, `.${name}.partial`);
  // Made empty and 0600 first: VACUUM INTO fills an empty file and keeps its mode.
  closeSync(openSync(partial, 'wx', 0o600));
  try {
    database.prepare('VACUUM INTO ?').run(partial);
    // Out of WAL: the backup is whole in its one file, and opens read-only anywhere.
    const copy = new DatabaseSync(partial);
    try {
      copy.exec('PRAGMA journal_mode = DELETE');
    } finally {
      copy.close();
    }
    chmodSync(partial, 0o600);
    fsyncPath(partial);
    const verdict = await verifyBackup(partial, credentials, recordId);
    if (!verdict.ok) {
      throw new RecordError(
        'unreadable',
        `The backup of the officer's record just made does not verify: ${verdict.why}.`,
      );
    }
    try {
      statSync(file);
      throw new RecordError('invalid', `A backup named ${name} is already there; it was left as it is.`);
    } catch (error) {
      if (error instanceof RecordError) throw error;
    }
    renameSync(partial, file);
    fsyncPath(folder);
  } catch (error) {
    try {
      unlinkSync(partial);
    } catch {
      // Already renamed or never made.
    }
    throw error;
  }
  // The newest seven that verify are kept: a damaged file (or one stamped ahead of the clock)
  // never pushes a good backup out; what is older than the seventh good one goes.
  const pruned: string[] = [];
  let good = 0;
  for (const backup of listBackups(dataFolder)) {
    if (good >= BACKUPS_KEPT) {
      unlinkSync(backup.file);
      pruned.push(backup.name);
    } else if ((await verifyBackup(backup.file, credentials, recordId)).ok) {
      good += 1;
    }
  }
  return { file, name, madeAt: now, bytes: statSync(file).size, pruned };
}

/**
 * Whether the newest backup is older than a day (or there is none). One stamped after `now` (made
 * while the clock was ahead) is not counted: it would hold the daily backup off for ever.
 */
export function backupDue(dataFolder: string, now: Date = new Date()): boolean {
  const newest = listBackups(dataFolder).find((backup) => backup.madeAt.getTime() <= now.getTime());
  return newest === undefined || now.getTime() - newest.madeAt.getTime() >= BACKUP_EVERY_MS;
}

/** The newest backup that verifies, with its record id; null when none does. */
export async function newestVerifiedBackup(
  dataFolder: string,
  credentials: Credentials,
  expectedRecordId: string | null,
): Promise<RecordBackup | null> {
  for (const backup of listBackups(dataFolder)) {
    if ((await verifyBackup(backup.file, credentials, expectedRecordId)).ok) return backup;
  }
  return null;
}

/** A backup's time in the words the window and the CLI use: `2026-12-02 18:34 UTC`. */
export function backupTimeText(time: Date): string {
  return `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The command that restores `backup`, by its name (run in the data folder's terms). */
export function restoreCommandOf(backup: RecordBackup): string {
  return `ledger record restore ${basename(backup.file)}`;
}
