/**
 * A write as data: statements and their rows, run in order in one IMMEDIATE transaction.
 * The sync plans a page on the main thread (row keys, search tokens) and hands the plan to
 * the cache writer, which seals and runs it on its own connection (a worker thread) or
 * inline; either way the rows and the checkpoint of a page commit together or not at all.
 */
import type { KeyObject } from 'node:crypto';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { sealWith } from './sealing.ts';
import type { Statements } from './statements.ts';

export interface WriteBatch {
  sql: string;
  rows: SQLInputValue[][];
  /**
   * Run after each row of `sql`, with the rowid that row was given first, then its own values
   * (e.g. a search-index entry for each inserted record). One entry per row of `rows`.
   */
  then?: { sql: string; rows: SQLInputValue[][] };
  /**
   * Sealed by the thread that runs the batch, just before its row is stored: the value at
   * `column` of each row is the record's plaintext (JSON), replaced by its seal under `key`
   * with a fresh IV and the row's identity (one entry per row) as associated data. This moves
   * the AES-GCM work of a bulk sync to the writer's thread, beside the planning thread's hashing.
   */
  sealed?: { key: KeyObject; column: number; identities: string[] };
  /**
   * Run once after the batch's rows when it inserted any, with the rowid of the first row it
   * inserted as ?1 and of the last as ?2 (rowids of one table's inserts in one transaction are
   * consecutive: each new row takes the largest rowid plus one). Figures kept beside the rows
   * (an account's count, a day's sums, an amount band's count) are brought up to date this way
   * by one statement a page, where a trigger a row cost a sync ~60 µs a record (issue 36).
   */
  tallies?: string[];
}

/** Runs the batches inside the caller's transaction; returns the rows changed by each batch. */
export function applyBatches(statements: Statements, batches: readonly WriteBatch[]): number[] {
  return batches.map((batch) => {
    const statement = statements.get(batch.sql);
    const then = batch.then === undefined ? null : statements.get(batch.then.sql);
    const sealed = batch.sealed;
    let changed = 0;
    /** The rowids the batch's inserts took, first and last (for its tallies). */
    let first: number | bigint | null = null;
    let last: number | bigint | null = null;
    for (const [index, row] of batch.rows.entries()) {
      // A copy: a plan run again (after a rollback) must find its plaintext, not a seal.
      const values = sealed === undefined ? row : row.slice();
      if (sealed !== undefined) {
        values[sealed.column] = sealWith(sealed.key, row[sealed.column] as string, sealed.identities[index] ?? '');
      }
      const result = statement.run(...values);
      changed += Number(result.changes);
      if (result.changes > 0) {
        first ??= result.lastInsertRowid;
        last = result.lastInsertRowid;
      }
      if (then !== null) then.run(result.lastInsertRowid, ...(batch.then?.rows[index] ?? []));
    }
    if (first !== null && last !== null) {
      for (const sql of batch.tallies ?? []) statements.get(sql).run(first, last);
    }
    return changed;
  });
}

/** Runs the batches in one transaction; returns the rows changed by each batch. */
export function executeBatches(
  database: DatabaseSync,
  statements: Statements,
  batches: readonly WriteBatch[],
): number[] {
  database.exec('BEGIN IMMEDIATE');
  try {
    const changes = applyBatches(statements, batches);
    database.exec('COMMIT');
    return changes;
  } catch (error) {
    if (database.isTransaction) database.exec('ROLLBACK');
    throw error;
  }
}

/** What a group of pages came to: the changes of each page kept, in order, and why the rest was not. */
export interface GroupOutcome {
  /** Per page kept, the rows changed by each of its batches. */
  kept: number[][];
  /** Set when a page could not be written: it and every page after it were not kept. */
  error?: Error;
}

/**
 * Runs a group of pages (each a list of batches) in one transaction. If that fails (a full
 * disk), runs them again one transaction a page, in order, keeping every page that fits and
 * stopping at the first that does not: a later page is never kept without the ones before
 * it, whose checkpoint it would move past.
 */
export function executeGroup(
  database: DatabaseSync,
  statements: Statements,
  pages: readonly (readonly WriteBatch[])[],
): GroupOutcome {
  try {
    const changes = executeBatches(database, statements, pages.flat());
    let offset = 0;
    return {
      kept: pages.map((batches) => {
        offset += batches.length;
        return changes.slice(offset - batches.length, offset);
      }),
    };
  } catch (error) {
    if (pages.length === 1) return { kept: [], error: asError(error) };
  }
  const kept: number[][] = [];
  for (const batches of pages) {
    try {
      kept.push(executeBatches(database, statements, batches));
    } catch (error) {
      return { kept, error: asError(error) };
    }
  }
  return { kept };
}

function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
