/** Opens the sandbox's SQLite database (a file, or ':memory:') and creates its tables. */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema.ts';

export type Database = DatabaseSync;

export function openDatabase(dataFile: string): Database {
  if (dataFile !== ':memory:') {
    // It holds registrations' Basic secrets and the sandbox's key: its owner's only (review I7).
    mkdirSync(dirname(dataFile), { recursive: true, mode: 0o700 });
    closeSync(openSync(dataFile, 'a', 0o600));
    chmodSync(dataFile, 0o600);
  }
  const database = new DatabaseSync(dataFile);
  if (dataFile !== ':memory:') {
    // WAL keeps reads fast while the dispatcher writes; NORMAL is durable enough for a sandbox.
    database.exec('PRAGMA journal_mode = WAL');
    database.exec('PRAGMA synchronous = NORMAL');
    // Pages of a large file are read through the OS's mapping instead of a read call each.
    database.exec('PRAGMA mmap_size = 268435456');
  }
  database.exec('PRAGMA busy_timeout = 5000');
  database.exec(SCHEMA_SQL);
  const version = database.prepare('SELECT value FROM meta WHERE name = ?').get('schema_version');
  if (version === undefined) {
    database.prepare('INSERT INTO meta (name, value) VALUES (?, ?)').run('schema_version', String(SCHEMA_VERSION));
  } else if (version.value !== String(SCHEMA_VERSION)) {
    database.close();
    throw new Error(
      `The sandbox data file ${dataFile} has schema version ${String(version.value)}; this sandbox needs ${String(SCHEMA_VERSION)}. Use another --data file.`,
    );
  }
  return database;
}

/**
 * Runs `work` in one transaction: all of it is written, or none of it. Nested calls join the
 * transaction already open, so a write and the events it emits commit together.
 */
export function inTransaction<Result>(database: Database, work: () => Result): Result {
  if (database.isTransaction) return work();
  database.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    database.exec('COMMIT');
    return result;
  } catch (error) {
    database.exec('ROLLBACK');
    throw error;
  }
}

export function readMeta(database: Database, name: string): string | undefined {
  const row = database.prepare('SELECT value FROM meta WHERE name = ?').get(name);
  return row === undefined ? undefined : String(row.value);
}

export function writeMeta(database: Database, name: string, value: string): void {
  database
    .prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value')
    .run(name, value);
}

/** Drops what a seed cut short left behind; only seeded tables can hold rows before the first start completes. */
export function forgetUnfinishedSeed(database: Database): void {
  inTransaction(database, () => {
    database.exec('DELETE FROM pending_transaction; DELETE FROM record; DELETE FROM file_content;');
  });
}
