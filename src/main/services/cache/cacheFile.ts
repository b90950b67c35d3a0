/**
 * Opening the cache's SQLite file: WAL, a quick_check, and a corrupt file set aside (renamed,
 * never deleted, so nothing is destroyed) and replaced by an empty one. The cache only holds
 * copies of the bank's data, so a rebuilt cache is refilled by the next sync.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { CacheError, SQLITE_CORRUPT, SQLITE_NOTADB, sqliteCodeOf } from './cacheError.ts';

export interface OpenedFile {
  database: DatabaseSync;
  /** Where a corrupt file was moved, when one was. */
  setAsideAs: string | null;
  /** Why it was set aside, for the message. */
  corruption: string | null;
}

/** The page size of a cache file made by this build. */
export const PAGE_BYTES = 16_384;

/** The pragmas of every connection to the cache (the main one and the writer's). */
export function configure(database: DatabaseSync, sizeLimitBytes?: number): void {
  // 16 KB pages for a new file (SQLite ignores this for one that has content, whose pages
  // stay as they were made): a sealed transaction is ~700 bytes, and with a quarter of the
  // pages to link, checksum and copy to the WAL the writer's CPU per synced record fell from
  // ~18 to ~16.5 µs (six syncs of 100,000 sandbox records each way; reads of a page of 100
  // unchanged). Set before WAL mode, which fixes the page size of the file.
  database.exec(`PRAGMA page_size = ${String(PAGE_BYTES)}`);
  const { page_size: pageBytes } = database.prepare('PRAGMA page_size').get() as { page_size: number };
  if (sizeLimitBytes !== undefined) {
    database.exec(`PRAGMA max_page_count = ${String(Math.max(1, Math.floor(sizeLimitBytes / pageBytes)))}`);
  }
  database.exec('PRAGMA busy_timeout = 5000');
  database.exec('PRAGMA journal_mode = WAL');
  // With WAL, NORMAL loses at most the last commits on power loss, never consistency.
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA foreign_keys = ON');
  database.exec('PRAGMA temp_store = MEMORY');
  database.exec('PRAGMA cache_size = -65536');
  // Checkpoint the WAL every ~40 MB instead of 4 MB: a bulk sync rewrites the same index pages
  // many times, and each checkpoint copies (and syncs) them to the database file once. Counted
  // in pages of this file (4 KB in files made before 16 KB pages).
  database.exec(`PRAGMA wal_autocheckpoint = ${String(Math.round(40_960_000 / pageBytes))}`);
}

/** The problems quick_check reports, or an empty list; throws if the file is not a database. */
function quickCheck(database: DatabaseSync): string[] {
  const rows = database.prepare('PRAGMA quick_check(5)').all() as { quick_check: string }[];
  const problems = rows.map((row) => row.quick_check).filter((text) => text !== 'ok');
  return problems;
}

function isCorruption(error: unknown): boolean {
  const code = sqliteCodeOf(error);
  return code === SQLITE_CORRUPT || code === SQLITE_NOTADB;
}

function setAside(file: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const target = `${file}.corrupt-${stamp}`;
  renameSync(file, target);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(file + suffix)) {
      if (suffix === '-wal') renameSync(file + suffix, target + suffix);
      else rmSync(file + suffix, { force: true });
    }
  }
  return target;
}

export function openCacheFile(file: string, now: () => Date = () => new Date(), sizeLimitBytes?: number): OpenedFile {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Readable by its owner only (review N9), whatever the umask; -wal and -shm follow its mode.
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  let corruption: string;
  let database: DatabaseSync | null = null;
  try {
    database = new DatabaseSync(file);
    configure(database, sizeLimitBytes);
    const problems = quickCheck(database);
    if (problems.length === 0) return { database, setAsideAs: null, corruption: null };
    corruption = problems.join('; ');
  } catch (error) {
    if (!isCorruption(error)) {
      database?.close();
      throw new CacheError('unreadable', `The offline cache ${file} cannot be opened: ${(error as Error).message}`, {
        cause: error,
      });
    }
    corruption = (error as Error).message;
  }
  try {
    database?.close();
  } catch {
    // A corrupt file may refuse to close cleanly; it is being set aside anyway.
  }
  const setAsideAs = setAside(file, now());
  closeSync(openSync(file, 'a', 0o600));
  const fresh = new DatabaseSync(file);
  configure(fresh, sizeLimitBytes);
  return { database: fresh, setAsideAs, corruption };
}
