/**
 * Clear facets of sealed pending transactions, so reads can filter on them in SQL: today
 * `type_source`. The sync's insert path does not write them (it stays as fast as it is);
 * instead, before a read that filters on a facet, the rows written since the last time are
 * opened and their facets recorded, in rowid order, a batch per transaction.
 *
 * Invariant: every pending transaction whose rowid is at most the largest facet rowid has a
 * facet row. It holds because rowids of new rows are always above every rowid in the table
 * (INTEGER PRIMARY KEY without reuse below the maximum), deleting a row deletes its facet
 * (trigger of migration 2), and facets are recorded in rowid order. So "what is missing" is
 * one range scan on the primary key, never a scan of the whole table.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { PendingTransaction } from '../../../shared/bank/index.ts';
import type { RecordSealer } from './sealing.ts';

const BATCH_ROWS = 2_000;

interface UnindexedRow {
  id: number;
  profile_id: string;
  account_id: string;
  row_key: string;
  body: Uint8Array;
}

export class PendingTransactionFacets {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;
  readonly #identityOf: (profileId: string, accountId: string, rowKey: string) => string;
  readonly #unindexed: StatementSync;
  readonly #record: StatementSync;

  constructor(
    database: DatabaseSync,
    sealer: () => RecordSealer,
    identityOf: (profileId: string, accountId: string, rowKey: string) => string,
  ) {
    this.#database = database;
    this.#sealer = sealer;
    this.#identityOf = identityOf;
    this.#unindexed = database.prepare(
      // CROSS JOIN: walk the new rows by rowid, looking each one's scope up (never the reverse).
      `SELECT p.id, s.profile_id, s.account_id, p.row_key, p.body
       FROM pending_transactions AS p CROSS JOIN pending_transaction_scopes AS s ON s.id = p.scope
       WHERE p.id > COALESCE((SELECT MAX(id) FROM pending_transaction_facets), 0) ORDER BY p.id LIMIT ?`,
    );
    this.#record = database.prepare(
      'INSERT OR REPLACE INTO pending_transaction_facets (id, type_source) VALUES (?, ?)',
    );
  }

  /** Records the facets of every row written since the last call; returns how many. */
  catchUp(): number {
    let recorded = 0;
    for (;;) {
      const done = this.#inTransaction(() => {
        const rows = this.#unindexed.all(BATCH_ROWS) as unknown as UnindexedRow[];
        const sealer = this.#sealer();
        for (const row of rows) {
          const transaction = sealer.openJson(
            row.body,
            this.#identityOf(row.profile_id, row.account_id, row.row_key),
          ) as PendingTransaction;
          this.#record.run(row.id, transaction.type_source ?? null);
        }
        return rows.length;
      });
      recorded += done;
      if (done < BATCH_ROWS) return recorded;
    }
  }

  #inTransaction(work: () => number): number {
    // Inside a caller's transaction, its commit keeps the facets; otherwise one of our own.
    if (this.#open()) return work();
    this.#database.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#database.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#open()) this.#database.exec('ROLLBACK');
      throw error;
    }
  }

  /** Whether a transaction is open on the connection (a method, so each call reads it afresh). */
  #open(): boolean {
    return this.#database.isTransaction;
  }
}
