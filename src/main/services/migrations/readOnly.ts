/**
 * A store whose schema this build does not know stays readable: its connection is switched to
 * query-only, so SQLite itself refuses every write (SQLITE_READONLY) while reads and exports
 * go on. The sentence saying why travels with the store to the window's banner and the CLI.
 */
import type { DatabaseSync } from 'node:sqlite';

export function enterReadOnly(database: DatabaseSync): void {
  database.exec('PRAGMA query_only = ON');
}

/** SQLite's result code for a write refused on a read-only or query-only connection. */
const SQLITE_READONLY = 8;

export function isReadOnlyRefusal(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'errcode' in error &&
    typeof error.errcode === 'number' &&
    (error.errcode & 0xff) === SQLITE_READONLY
  );
}
