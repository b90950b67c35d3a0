/**
 * The officer's record attached to every connection to the cache (the main one and the cache
 * writer's thread) as schema `record`, after the cut-over (issue 34). SQLite finds an unqualified
 * name in main first, then in the attached schemas in order: with the record's tables gone from
 * the cache file (cache migration 32), the queue's and report's queries that join reviews with
 * cached rows keep working as they were written.
 *
 * Imports only Node's builtins: the writer's thread loads it from its own unpacked chunk.
 */
import type { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';

/** Where the record is, for a connection to attach it; passed to the writer's thread as it is. */
export interface AttachedRecord {
  file: string;
  /**
   * The record has a schema this build does not know: attached read-only (SQLite refuses every
   * write), so no path through the cache writes to it.
   */
  readOnly: boolean;
}

/**
 * The one trigger across the stores: a pending transaction leaving the cache marks its review as
 * no longer listed. A trigger of main cannot name another schema's tables; a TEMP one can, and
 * lives as long as the connection, so it is made at each open.
 */
const REVIEW_UNLISTED_TRIGGER = `
  CREATE TEMP TRIGGER IF NOT EXISTS pending_transaction_review_unlisted AFTER DELETE ON main.pending_transactions BEGIN
    UPDATE record.reviews SET row_listed = 0
      WHERE profile_id = (SELECT profile_id FROM main.pending_transaction_scopes WHERE id = old.scope)
        AND kind = 'pending-transaction' AND ref = old.row_key AND row_listed = 1;
  END`;

export function attachRecord(database: DatabaseSync, record: AttachedRecord): void {
  if (record.readOnly) {
    database.prepare('ATTACH DATABASE ? AS record').run(`${pathToFileURL(record.file).href}?mode=ro`);
    // No trigger: it would make a sync's sweep fail on a record that may not be written.
    return;
  }
  database.prepare('ATTACH DATABASE ? AS record').run(record.file);
  // As record.sqlite's own connection (recordFile.ts): a review shown as saved survives a power loss.
  database.exec('PRAGMA record.synchronous = FULL');
  database.exec(REVIEW_UNLISTED_TRIGGER);
}
