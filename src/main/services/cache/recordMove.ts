/**
 * The cut-over at the cache's open (issue 34): where the officer's record's tables are, and the
 * one move of a data folder that still keeps them in its cache file.
 *
 * Every start-up path keeps the record:
 * - the record already holds the copy (its mark in record_meta): the cache is migrated whole
 *   (migration 32 drops a cache's second copy, if any) and the record attached;
 * - a cache file that still holds the record's tables and a record open for writing: the cache
 *   is migrated to just before 32, its once-per-file upgrades of those rows made under its own
 *   key, the tables copied into the record and sealed again under the record's key, marked done
 *   in the record's transaction (recordCopy.ts), and only then is migration 32 run. A kill -9
 *   before the record's commit leaves the cache as it was; after it, the next open finishes;
 * - the copy fails (a table that does not match, a full disk): the cache keeps its tables and
 *   the app works on them as before, with a sentence saying so; the next start tries again;
 * - the record is locked or read-only, or the cache is read-only, before the move: the record's
 *   tables stay in the cache file and are used there (the record's own sentence says why);
 * - after the move, a record of a schema this build does not know is attached read-only; a
 *   locked one is attached for its audit log only (its sealed rows open with its key alone).
 */
import type { DatabaseSync } from 'node:sqlite';
import { applyMigrations, type Migration } from '../migrations/migrationRunner.ts';
import { attachRecord, type AttachedRecord } from '../record/recordAttach.ts';
import { copiedMarkOf, copyRecordFromCache, markNothingToCopy } from '../record/recordCopy.ts';
import type { RecordStore } from '../record/recordStore.ts';
import {
  CACHE_MIGRATIONS,
  CACHE_MIGRATIONS_TABLE,
  CACHE_MIGRATIONS_WITH_THE_RECORD,
  RECORD_MOVED_VERSION,
} from './cacheMigrations.ts';
import { RowMacs } from './rowMacs.ts';
import { RuleNames } from './ruleNames.ts';
import type { RecordSealer } from './sealing.ts';

export interface RecordMove {
  /** The record attached as schema `record`; null while its tables are still in the cache file. */
  attached: AttachedRecord | null;
  /** The cache id the audit log's chain key is named by: the one the log was born with. */
  auditCacheId: string;
  /** Sentences for the window's top banner and the CLI; empty when all went well. */
  messages: string[];
}

/** Whether the cache file has already dropped the record's tables (migration 32 is in its history). */
function movedInCache(database: DatabaseSync): boolean {
  const history = database
    .prepare("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?")
    .get(CACHE_MIGRATIONS_TABLE);
  if (history === undefined) return false;
  return (
    database.prepare(`SELECT 1 FROM main.${CACHE_MIGRATIONS_TABLE} WHERE version = ?`).get(RECORD_MOVED_VERSION) !==
    undefined
  );
}

/**
 * The reviews' "row cached" mark (row_listed) made true to a cache file that holds no pending
 * transaction: rows leave the cache without a delete the trigger sees when the file is new (one
 * was deleted or set aside) or was emptied before the record was attached (a data-key reset).
 * Only then: a mark that says cached wrongly beside a cache that has rows is evidence of an edit
 * (pendingColumns.ts reports it), never repaired at open. A row listed again is marked by the
 * next sync (reviewsTable.ts), as before.
 */
function relistReviews(database: DatabaseSync): void {
  if (database.prepare('SELECT 1 FROM main.pending_transactions LIMIT 1').get() !== undefined) return;
  database.exec(
    `UPDATE record.reviews SET row_listed = 0
     WHERE kind = 'pending-transaction' AND row_listed = 1 AND NOT EXISTS (
       SELECT 1 FROM main.pending_transaction_scopes AS s CROSS JOIN main.pending_transactions AS p
         ON p.scope = s.id AND p.posted_at = reviews.posted_at AND p.row_key = reviews.ref
       WHERE s.profile_id = reviews.profile_id AND s.account_id = reviews.account_id)`,
  );
}

/** The migrations to apply before the move: all of them once the record holds its tables. */
export function cacheMigrationsFor(record: RecordStore | null, database: DatabaseSync): readonly Migration[] {
  if (movedInCache(database) || (record !== null && copiedMarkOf(record) !== null)) return CACHE_MIGRATIONS;
  return CACHE_MIGRATIONS_WITH_THE_RECORD;
}

/** What the move needs of the open cache. */
export interface MoveContext {
  database: DatabaseSync;
  file: string;
  record: RecordStore | null;
  /** The cache's sealer: what the record's rows are sealed under while the cache holds them. */
  sealer: RecordSealer;
  cacheId: string;
  /** Why the cache is read-only, or null: a read-only cache is not migrated, so not moved either. */
  readOnly: string | null;
}

/** Moves the record out of the cache file where it is still there, and attaches it. */
export function moveRecordOut(context: MoveContext): RecordMove {
  const { database, record, cacheId } = context;
  const inCache: RecordMove = { attached: null, auditCacheId: cacheId, messages: [] };
  if (record === null) return inCache;
  if (context.readOnly === null && copiedMarkOf(record) === null && record.state === 'open') {
    if (movedInCache(database)) {
      // The cache has no record tables (a record file that went missing after the move).
      markNothingToCopy(record, cacheId);
    } else {
      try {
        // The rows take this build's shape under the cache's key first, as before the move.
        const macs = new RowMacs(() => context.sealer);
        macs.install(database, true);
        new RuleNames(database, () => context.sealer).install(database, macs, true);
        copyRecordFromCache(record, context.file, cacheId, context.sealer);
      } catch (error) {
        return {
          ...inCache,
          messages: [
            `The officer's record could not be moved out of the offline cache (${(error as Error).message}); it stays in the cache file and is used there as before, and the move is tried again at the next start.`,
          ],
        };
      }
      applyMigrations(database, CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE, { name: 'The offline cache' });
    }
  }
  const mark = copiedMarkOf(record);
  if (mark === null && !movedInCache(database)) return inCache;
  // A locked record is attached for writing: its sealed rows cannot be read or written without
  // its key, but the audit log (under its own chain key, append-only) keeps taking entries, so
  // nothing the app does goes unlogged while the key is being recovered.
  const attached: AttachedRecord = { file: record.file, readOnly: record.state === 'read-only' };
  attachRecord(database, attached);
  if (record.state === 'open') relistReviews(database);
  return { attached, auditCacheId: mark?.cacheId ?? cacheId, messages: [] };
}
