/**
 * The one move of a data folder made before issue 34: the officer's record, which such a folder
 * keeps inside its cache file, is copied into record.sqlite in one transaction, checked row for
 * row (every copied table's rows hash the same on both sides, so the audit chain, copied byte
 * for byte, verifies in the record exactly as it did in the cache), and marked done in the same
 * transaction. A crash (even kill -9) before the commit leaves the record as it was and the copy
 * runs again at the next open; after it, the mark says it is done. The cache's rows are only
 * read here: they leave the cache only by a later cache migration, once the record holds them.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { RecordError } from './recordError.ts';
import { RECORD_TABLES } from './recordMigrations.ts';
import type { RecordStore } from './recordStore.ts';
import type { RecordSealer } from '../cache/sealing.ts';
import { resealRecord, type Resealed } from './recordReseal.ts';

/** Where record_meta says the copy was made, and from which cache. */
const COPIED_MARK = 'copied_from_cache';

/** Tables the record's triggers fill while reviews are copied: replaced by the cache's own rows. */
const DERIVED = new Set<string>(['review_counts', 'review_days']);

export interface RecordCopy {
  /** False when there was nothing to do: already copied, or the record is not open for writing. */
  copied: boolean;
  /** Rows copied per table. */
  rows: Record<string, number>;
  /** What was sealed again under the record's key (null when the copy was made byte for byte). */
  resealed: Resealed | null;
}

/** The mark the copy leaves in record_meta: which cache it came from, and what it copied. */
export interface CopiedMark {
  /** The cache the record came from: the audit log's chain key is named by it. */
  cacheId: string | null;
  rows: Record<string, number>;
}

function columnsOf(database: DatabaseSync, schema: string, table: string): string[] {
  return (database.prepare(`SELECT name FROM pragma_table_info(?, ?)`).all(table, schema) as { name: string }[]).map(
    (column) => column.name,
  );
}

/** A digest of every row of the table (the given columns), in a fixed order. */
function digestOf(database: DatabaseSync, schema: string, table: string, columns: readonly string[]): string {
  const hash = createHash('sha256');
  const order = columns.map((_, index) => String(index + 1)).join(', ');
  const list = columns.map((column) => `"${column}"`).join(', ');
  for (const row of database.prepare(`SELECT ${list} FROM ${schema}.${table} ORDER BY ${order}`).iterate()) {
    for (const column of columns) {
      const value = (row as Record<string, unknown>)[column];
      hash.update(value instanceof Uint8Array ? `b${Buffer.from(value).toString('hex')}` : `v${JSON.stringify(value)}`);
      hash.update('\u0000');
    }
    hash.update('\n');
  }
  return hash.digest('hex');
}

function count(database: DatabaseSync, schema: string, table: string): number {
  return (database.prepare(`SELECT count(*) AS n FROM ${schema}.${table}`).get() as { n: number }).n;
}

/** Whether this record already holds the copy of a cache's record. */
export function recordCopiedFrom(record: RecordStore): string | null {
  return record.meta(COPIED_MARK);
}

/** The copy's mark, read (even from a locked record); null before the copy. */
export function copiedMarkOf(record: RecordStore): CopiedMark | null {
  const text = record.meta(COPIED_MARK);
  return text === null ? null : (JSON.parse(text) as CopiedMark);
}

/**
 * Marks the record as holding its tables when the cache file no longer has them (its record
 * tables were dropped after a copy into a record file that is gone): there is nothing to copy,
 * and copying nothing must not wait for a cache that will never hold them again.
 */
export function markNothingToCopy(record: RecordStore, cacheId: string): void {
  if (record.state !== 'open' || recordCopiedFrom(record) !== null) return;
  record.transaction(() => {
    record.database
      .prepare('INSERT INTO record_meta (key, value) VALUES (?, ?)')
      .run(COPIED_MARK, JSON.stringify({ cacheId, rows: {}, note: 'the cache held no record tables' }));
  });
}

/**
 * Copies the record tables of `cacheFile` (a cache of this build, already migrated) into the
 * record, once. `cacheId` names the cache the copy came from, in the mark. With `from` (the
 * cache's sealer), what the cache sealed is sealed again under the record's key in the same
 * transaction (recordReseal.ts), after each table was checked against the cache's rows.
 */
export function copyRecordFromCache(
  record: RecordStore,
  cacheFile: string,
  cacheId: string,
  from: RecordSealer | null = null,
): RecordCopy {
  if (record.state !== 'open' || recordCopiedFrom(record) !== null) return { copied: false, rows: {}, resealed: null };
  let resealed: Resealed | null = null;
  const database = record.database;
  const rows: Record<string, number> = {};
  const present = existsSync(cacheFile);
  if (present) database.prepare('ATTACH DATABASE ? AS cache_file').run(cacheFile);
  try {
    record.transaction(() => {
      for (const table of present ? RECORD_TABLES : []) {
        const source = columnsOf(database, 'cache_file', table);
        if (source.length === 0) continue;
        const target = new Set(columnsOf(database, 'main', table));
        const columns = source.filter((column) => target.has(column));
        const list = columns.map((column) => `"${column}"`).join(', ');
        if (DERIVED.has(table)) database.exec(`DELETE FROM main.${table}`);
        database.exec(`INSERT INTO main.${table} (${list}) SELECT ${list} FROM cache_file.${table}`);
        const copied = count(database, 'main', table);
        if (
          copied !== count(database, 'cache_file', table) ||
          digestOf(database, 'main', table, columns) !== digestOf(database, 'cache_file', table, columns)
        ) {
          throw new RecordError(
            'copy-mismatch',
            `The officer's record could not be moved out of the cache: the copy of ${table} does not match the cache's rows. Nothing was changed; the cache still holds the record.`,
          );
        }
        rows[table] = copied;
      }
      if (from !== null) resealed = resealRecord(database, from, record.sealer);
      database
        .prepare('INSERT INTO record_meta (key, value) VALUES (?, ?)')
        .run(COPIED_MARK, JSON.stringify({ cacheId: present ? cacheId : null, rows }));
    });
  } finally {
    if (present) database.exec('DETACH DATABASE cache_file');
  }
  return { copied: true, rows, resealed };
}
