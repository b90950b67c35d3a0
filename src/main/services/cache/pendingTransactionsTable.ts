/**
 * Cached pending transactions, per profile and account. A pending transaction has no id, so
 * its row key is a keyed hash of the whole record: an unchanged transaction keeps its row
 * across syncs, and one that is posted (and so leaves the pending list) is swept at the end
 * of the next complete sync of its account.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { PendingTransaction, PendingTransactionType } from '../../../shared/bank/index.ts';
import type { CacheRead } from './cacheRead.ts';
import { pageLimitOf } from './cacheRead.ts';
import { decodeCursor, encodeCursor, fingerprintOf, type KeyValue } from './keysetCursor.ts';
import { centsOf } from './money.ts';
import type { RecordSealer } from './sealing.ts';
import type { SearchTokens } from './searchTokens.ts';
import { asOfFor, type SyncCheckpoints } from './syncCheckpoints.ts';

export const PENDING_TRANSACTION_SORTS = ['newest', 'oldest', 'largest', 'smallest'] as const;
export type PendingTransactionSort = (typeof PENDING_TRANSACTION_SORTS)[number];

export interface PendingTransactionQuery {
  profileId: string;
  accountId: string;
  type?: PendingTransactionType;
  /** Whole words of desc or summary, all required. */
  search?: string;
  /** YYYY-MM-DD, inclusive. */
  fromDate?: string;
  /** YYYY-MM-DD, exclusive. */
  toDate?: string;
  /** newest (default), oldest, largest or smallest amount. */
  sort?: PendingTransactionSort;
  limit?: number;
  cursor?: string | null;
  withTotal?: boolean;
}

/** A cached pending transaction: the bank's record, plus its stable key for the UI. */
export type PendingTransactionRow = PendingTransaction & { row_key: string };

const SORT_SQL: Record<PendingTransactionSort, { column: string; direction: 'ASC' | 'DESC' }> = {
  newest: { column: 'posted_at', direction: 'DESC' },
  oldest: { column: 'posted_at', direction: 'ASC' },
  largest: { column: 'amount_cents', direction: 'DESC' },
  smallest: { column: 'amount_cents', direction: 'ASC' },
};

function identityOf(profileId: string, accountId: string, rowKey: string): string {
  return `pending_transaction\u0000${profileId}\u0000${accountId}\u0000${rowKey}`;
}

export class PendingTransactionsTable {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;
  readonly #search: () => SearchTokens;
  readonly #checkpoints: SyncCheckpoints;
  readonly #touch: StatementSync;
  readonly #insert: StatementSync;
  readonly #index: StatementSync;

  constructor(
    database: DatabaseSync,
    sealer: () => RecordSealer,
    search: () => SearchTokens,
    checkpoints: SyncCheckpoints,
  ) {
    this.#database = database;
    this.#sealer = sealer;
    this.#search = search;
    this.#checkpoints = checkpoints;
    this.#touch = database.prepare(
      'UPDATE pending_transactions SET seen_generation = ? WHERE profile_id = ? AND account_id = ? AND row_key = ?',
    );
    this.#insert = database.prepare(
      `INSERT INTO pending_transactions
         (profile_id, account_id, row_key, posted_at, date, amount_cents, type, seen_generation, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    this.#index = database.prepare('INSERT INTO pending_transaction_search (rowid, tokens) VALUES (?, ?)');
  }

  /** Writes one page (call inside a transaction). Returns how many rows were new. */
  writePage(
    profileId: string,
    accountId: string,
    transactions: readonly PendingTransaction[],
    generation: number,
  ): number {
    const sealer = this.#sealer();
    const search = this.#search();
    let added = 0;
    for (const transaction of transactions) {
      const text = JSON.stringify(transaction);
      const rowKey = sealer.keyedHash(`pending transaction: ${accountId}: ${text}`);
      // An identical record is already sealed and indexed: only mark it as seen.
      if (Number(this.#touch.run(generation, profileId, accountId, rowKey).changes) > 0) continue;
      const inserted = this.#insert.get(
        profileId,
        accountId,
        rowKey,
        transaction.extended_timestamp_precise,
        transaction.date,
        centsOf(transaction.amount),
        transaction.type,
        generation,
        sealer.seal(text, identityOf(profileId, accountId, rowKey)),
      ) as { id: number };
      this.#index.run(inserted.id, search.tokensOf(`${transaction.desc} ${transaction.summary}`));
      added += 1;
    }
    return added;
  }

  /**
   * After a complete sync: removes the account's rows (within the synced date range) that the
   * bank no longer lists. Call inside the transaction that finishes the sync.
   */
  sweep(
    profileId: string,
    accountId: string,
    generation: number,
    range: { fromDate?: string; toDate?: string },
  ): number {
    const result = this.#database
      .prepare(
        `DELETE FROM pending_transactions
         WHERE profile_id = ? AND account_id = ? AND seen_generation < ?
           AND (? IS NULL OR date >= ?) AND (? IS NULL OR date < ?)`,
      )
      .run(
        profileId,
        accountId,
        generation,
        range.fromDate ?? null,
        range.fromDate ?? null,
        range.toDate ?? null,
        range.toDate ?? null,
      );
    return Number(result.changes);
  }

  list(query: PendingTransactionQuery): CacheRead<PendingTransactionRow> {
    const limit = pageLimitOf(query.limit);
    const sort = SORT_SQL[query.sort ?? 'newest'];
    const { where, parameters } = this.#filters(query);
    const fingerprint = fingerprintOf(['pending-transactions', this.#filterKey(query), query.sort ?? 'newest']);
    const keyset: string[] = [];
    const keysetParameters: (string | number | null)[] = [];
    if (query.cursor !== undefined && query.cursor !== null) {
      const [value, tieBreaker] = decodeCursor(query.cursor, fingerprint);
      keyset.push(`(${sort.column}, row_key) ${sort.direction === 'DESC' ? '<' : '>'} (?, ?)`);
      keysetParameters.push(value, tieBreaker);
    }
    const rows = this.#database
      .prepare(
        `SELECT row_key, ${sort.column} AS sort_value, body FROM pending_transactions
         WHERE ${[...where, ...keyset].join(' AND ')}
         ORDER BY ${sort.column} ${sort.direction}, row_key ${sort.direction}
         LIMIT ?`,
      )
      .all(...parameters, ...keysetParameters, limit + 1) as {
      row_key: string;
      sort_value: KeyValue;
      body: Uint8Array;
    }[];
    const page = rows.slice(0, limit);
    const sealer = this.#sealer();
    const last = page.at(-1);
    const read: CacheRead<PendingTransactionRow> = {
      rows: page.map((row) => ({
        ...(sealer.openJson(row.body, identityOf(query.profileId, query.accountId, row.row_key)) as PendingTransaction),
        row_key: row.row_key,
      })),
      nextCursor:
        rows.length > limit && last !== undefined ? encodeCursor(fingerprint, last.sort_value, last.row_key) : null,
      asOf: this.asOf(query),
      source: 'cache',
    };
    if (query.withTotal === true) read.total = this.count(query);
    return read;
  }

  count(query: PendingTransactionQuery): number {
    const { where, parameters } = this.#filters(query);
    const row = this.#database
      .prepare(`SELECT COUNT(*) AS total FROM pending_transactions WHERE ${where.join(' AND ')}`)
      .get(...parameters) as { total: number };
    return row.total;
  }

  asOf(query: Pick<PendingTransactionQuery, 'profileId' | 'accountId' | 'fromDate' | 'toDate'>): string | null {
    return asOfFor(this.#checkpoints.completed(query.profileId, 'pending-transactions'), {
      accountId: query.accountId,
      fromDate: query.fromDate,
      toDate: query.toDate,
    });
  }

  /** Accounts with cached transactions, for pickers. */
  accounts(profileId: string): string[] {
    const rows = this.#database
      .prepare('SELECT DISTINCT account_id FROM pending_transactions WHERE profile_id = ? ORDER BY account_id')
      .all(profileId) as { account_id: string }[];
    return rows.map((row) => row.account_id);
  }

  #filterKey(query: PendingTransactionQuery): unknown[] {
    return [
      query.profileId,
      query.accountId,
      query.type ?? null,
      query.search ?? null,
      query.fromDate ?? null,
      query.toDate ?? null,
    ];
  }

  #filters(query: PendingTransactionQuery): { where: string[]; parameters: (string | number | null)[] } {
    const where = ['profile_id = ?', 'account_id = ?'];
    const parameters: (string | number | null)[] = [query.profileId, query.accountId];
    if (query.type !== undefined) {
      where.push('type = ?');
      parameters.push(query.type);
    }
    if (query.fromDate !== undefined) {
      where.push('date >= ?');
      parameters.push(query.fromDate);
    }
    if (query.toDate !== undefined) {
      where.push('date < ?');
      parameters.push(query.toDate);
    }
    if (query.search !== undefined) {
      const match = this.#search().matchOf(query.search);
      if (match !== null) {
        where.push('id IN (SELECT rowid FROM pending_transaction_search WHERE pending_transaction_search MATCH ?)');
        parameters.push(match);
      }
    }
    return { where, parameters };
  }
}
