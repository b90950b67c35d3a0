/**
 * Where the officer's record is on a connection to the cache, in a person's words, for the
 * sentences that say which file was changed outside Ledgerdesk and which to restore: record.sqlite
 * once it is attached (the cut-over, issue 34), the cache file while a folder from before it still
 * keeps the record's tables there (a move that has not run or failed). Asked when a sentence is
 * made, so no caller has to carry it.
 */
import type { DatabaseSync } from 'node:sqlite';

export const CACHE_FILE_WORDS = 'the cache file';
const RECORD_FILE_WORDS = "the officer's record (record.sqlite)";

export function recordFileWords(database: DatabaseSync): string {
  const attached = database.prepare("SELECT 1 FROM pragma_database_list WHERE name = 'record'").get();
  return attached === undefined ? CACHE_FILE_WORDS : RECORD_FILE_WORDS;
}
