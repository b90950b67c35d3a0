/**
 * Opening record.sqlite, the officer's record's own file beside the cache (issue 34). Unlike the
 * cache's file, a record file is never set aside, rebuilt or emptied by Ledgerdesk: one that
 * cannot be opened is an error naming the file, and it is left exactly as it was.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { RecordError } from './recordError.ts';

export const RECORD_FILE_NAME = 'record.sqlite';

export function openRecordFile(file: string): DatabaseSync {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Readable by its owner only, like the cache; -wal and -shm follow its mode.
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  let database: DatabaseSync | null = null;
  try {
    database = new DatabaseSync(file);
    database.exec('PRAGMA busy_timeout = 5000');
    database.exec('PRAGMA journal_mode = WAL');
    // FULL, not the cache's NORMAL: a review the window showed as saved survives a power loss.
    database.exec('PRAGMA synchronous = FULL');
    database.exec('PRAGMA foreign_keys = ON');
    const problems = (database.prepare('PRAGMA quick_check(5)').all() as { quick_check: string }[])
      .map((row) => row.quick_check)
      .filter((text) => text !== 'ok');
    if (problems.length > 0) {
      throw new Error(problems.join('; '));
    }
    return database;
  } catch (error) {
    try {
      database?.close();
    } catch {
      // A damaged file may refuse to close cleanly; it is left as it is either way.
    }
    throw new RecordError(
      'unreadable',
      `The officer's record ${file} cannot be opened (${(error as Error).message}). Nothing in it was changed or removed; keep the file, and restore the record from a backup or an archive.`,
      { cause: error },
    );
  }
}
