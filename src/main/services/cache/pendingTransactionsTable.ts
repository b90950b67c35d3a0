/**
 * Cached pending transactions, per profile and account. A pending transaction has no id, so
 * its row key is a keyed hash of the whole record: an unchanged transaction keeps its row
 * across syncs, and one that is posted (and so leaves the pending list) is swept at the end
 * of the next complete sync of its account.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type {
  PendingTransactionResponse,
  PendingTransactionType,
  PendingTransactionTypeSource,
} from '../../../shared/bank/index.ts';
import type { CacheRead } from './cacheRead.ts';
import { pageLimitOf } from './cacheRead.ts';
import { decodeCursor, encodeCursor, fingerprintOf, wholeNumberOf, type KeyValue } from './keysetCursor.ts';
import { reviewClause, type ReviewSelection } from './reviewFilterSql.ts';
import type { RecordSealer } from './sealing.ts';
import type { SearchTokens } from './searchTokens.ts';
import {
  openCheckedPending,
  pendingClearColumnsOf,
  pendingClearColumnsSql,
  pendingIdentityOf,
  postedAtOf,
  type PendingClearColumns,
} from './pendingColumns.ts';
import { PENDING_TALLIES } from './keptCounts.ts';
import { Statements } from './statements.ts';
import { applyBatches, type WriteBatch } from './writeBatch.ts';
import { asOfFor, type SyncCheckpoints } from './syncCheckpoints.ts';

export const PENDING_TRANSACTION_SORTS = ['newest', 'oldest', 'largest', 'smallest'] as const;
export type PendingTransactionSort = (typeof PENDING_TRANSACTION_SORTS)[number];

export interface PendingTransactionQuery {
  profileId: string;
  accountId: string;
  type?: PendingTransactionType;
  /** The rail the transaction came through. */
  typeSource?: PendingTransactionTypeSource;
  /** Whole words of desc or summary, all required. */
  search?: string;
  /** YYYY-MM-DD, inclusive. */
  fromDate?: string;
  /** YYYY-MM-DD, exclusive. */
  toDate?: string;
  /** The officer's review: unreviewed, a state, or any (`reviewed`, for counts). */
  review?: ReviewSelection;
  /** newest (default), oldest, largest or smallest amount. */
  sort?: PendingTransactionSort;
  limit?: number;
  cursor?: string | null;
  withTotal?: boolean;
}

/** A cached pending transaction: the bank's record, plus its stable key for the UI. */
export type PendingTransactionRow = PendingTransactionResponse & { row_key: string };

/** Each sort follows one index; ties are broken by the column that index ends with. */
const SORT_SQL: Record<
  PendingTransactionSort,
  { column: string; tieBreak: 'row_key' | 'id'; direction: 'ASC' | 'DESC' }
> = {
  newest: { column: 'posted_at', tieBreak: 'row_key', direction: 'DESC' },
  oldest: { column: 'posted_at', tieBreak: 'row_key', direction: 'ASC' },
  largest: { column: 'amount_cents', tieBreak: 'id', direction: 'DESC' },
  smallest: { column: 'amount_cents', tieBreak: 'id', direction: 'ASC' },
};

const TOUCH_SQL = `UPDATE pending_transactions SET seen_generation = ?
  WHERE scope = ? AND (posted_at, row_key) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`;
const INSERT_SQL = `INSERT INTO pending_transactions
  (scope, row_key, posted_at, date, amount_cents, type, type_source, seen_generation, body)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
/** The column of INSERT_SQL holding the body (sealed by the writer). */
const BODY_COLUMN = 8;
const ADD_SCOPE_SQL =
  'INSERT INTO pending_transaction_scopes (profile_id, account_id) VALUES (?, ?) ON CONFLICT DO NOTHING';
const INDEX_SQL = `INSERT INTO pending_transaction_search (rowid, tokens) VALUES (?, ?)`;
const SWEEP_SQL = `DELETE FROM pending_transactions
  WHERE scope = ? AND seen_generation < ?
    AND (? IS NULL OR date >= ?) AND (? IS NULL OR date < ?)`;

/** A page's write, planned: its row keys, how many rows are new, and the statements. */
export interface PagePlan {
  rowKeys: Map<string, true>;
  added: number;
  batches: WriteBatch[];
}

/**
 * Up to this many search hits, a read starts from the hits (a rowid lookup each, then a
 * sort); above it, from the sorted index (a search check per row walked, ~100 / density
 * rows). The two cost the same near √(450 × rows): about 20,000 hits for a million rows.
 */
const SPARSE_HITS = 20_000;

/** CROSS JOIN makes SQLite start from the hits rather than from an index of the whole account. */
const FROM_CLAUSE = {
  plain: 'pending_transactions AS p',
  hits: 'hits CROSS JOIN pending_transactions AS p ON p.id = hits.id',
} as const;

/** The text a transaction is found by: its description and summary, as far as the bank sent them. */
function wordsOf(transaction: PendingTransactionResponse): string {
  return [transaction.desc, transaction.summary].filter((text) => typeof text === 'string').join(' ');
}

export function identityOf(profileId: string, accountId: string, rowKey: string): string {
  return pendingIdentityOf(profileId, accountId, rowKey);
}

export class PendingTransactionsTable {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;
  readonly #search: () => SearchTokens;
  readonly #checkpoints: SyncCheckpoints;
  readonly #statements: Statements;
  readonly #known: StatementSync;
  readonly #findScope: StatementSync;
  readonly #addScope: StatementSync;
  /** Scope ids by profile and account; a scope's id never changes while it exists. */
  readonly #scopes = new Map<string, number>();

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
    this.#statements = new Statements(database);
    // One read per page, not per row, to find the rows already cached.
    this.#known = database.prepare(
      `SELECT row_key FROM pending_transactions
       WHERE scope = ? AND (posted_at, row_key) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
    );
    this.#findScope = database.prepare(
      'SELECT id FROM pending_transaction_scopes WHERE profile_id = ? AND account_id = ?',
    );
    this.#addScope = database.prepare(ADD_SCOPE_SQL);
  }

  /**
   * The scope of a profile's account: the small integer its rows are keyed by (migration 4).
   * With `create`, made on first use; otherwise null when nothing was ever cached for it.
   */
  scopeOf(profileId: string, accountId: string, create: true): number;
  scopeOf(profileId: string, accountId: string, create?: false): number | null;
  scopeOf(profileId: string, accountId: string, create = false): number | null {
    const name = JSON.stringify([profileId, accountId]);
    const cached = this.#scopes.get(name);
    if (cached !== undefined) return cached;
    // Read first: a sync has the writer make the scope, so planning never needs the write lock.
    let row = this.#findScope.get(profileId, accountId) as { id: number } | undefined;
    if (row === undefined && create) {
      this.#addScope.run(profileId, accountId);
      row = this.#findScope.get(profileId, accountId) as { id: number } | undefined;
    }
    if (row === undefined) return null;
    this.#scopes.set(name, row.id);
    return row.id;
  }

  /** The write that makes a profile's account's scope if it has none (for the cache writer). */
  scopeBatch(profileId: string, accountId: string): WriteBatch {
    return { sql: ADD_SCOPE_SQL, rows: [[profileId, accountId]] };
  }

  /** Removes a profile's transactions and their scopes (inside the caller's transaction). */
  dropProfile(profileId: string): void {
    this.#database
      .prepare(
        'DELETE FROM pending_transactions WHERE scope IN (SELECT id FROM pending_transaction_scopes WHERE profile_id = ?)',
      )
      .run(profileId);
    this.#database.prepare('DELETE FROM pending_transaction_scopes WHERE profile_id = ?').run(profileId);
    this.#scopes.clear();
  }

  /**
   * Plans the write of one page: hashes each record into its row key and computes the new
   * ones' search tokens (done by the caller's thread), and returns the statements that seal
   * and store them (done by the cache writer, on its thread: the sealing splits the CPU work
   * between the two threads).
   * @param inFlight row keys of pages planned but maybe not yet committed
   */
  planPage(
    profileId: string,
    accountId: string,
    transactions: readonly PendingTransactionResponse[],
    generation: number,
    inFlight: { has(rowKey: string): boolean } = new Set<string>(),
  ): PagePlan {
    const sealer = this.#sealer();
    const search = this.#search();
    const scope = this.scopeOf(profileId, accountId, true);
    const texts = transactions.map((transaction) => JSON.stringify(transaction));
    const rowKeys = texts.map((text) =>
      sealer.recordDigest(`pending transaction: ${profileId}: ${accountId}: ${text}`),
    );
    const identities = JSON.stringify(
      transactions.map((transaction, index) => [postedAtOf(transaction), rowKeys[index]]),
    );
    const known = new Set((this.#known.all(scope, identities) as { row_key: string }[]).map((row) => row.row_key));
    const inserts: SQLInputValue[][] = [];
    const identitiesOfInserts: string[] = [];
    const tokens: SQLInputValue[][] = [];
    let seen = 0;
    transactions.forEach((transaction, index) => {
      const rowKey = rowKeys[index] ?? '';
      if (known.has(rowKey) || inFlight.has(rowKey)) {
        seen += 1;
        return;
      }
      known.add(rowKey);
      // The clear columns are a function of the record: checked against it when read (pendingColumns.ts).
      const columns = pendingClearColumnsOf(transaction);
      inserts.push([
        scope,
        rowKey,
        columns.posted_at,
        columns.date,
        columns.amount_cents,
        columns.type,
        columns.type_source,
        generation,
        // Sealed by the cache writer, on its thread (WriteBatch.sealed).
        texts[index] ?? '',
      ]);
      identitiesOfInserts.push(identityOf(profileId, accountId, rowKey));
      // Only the words the bank sent: a field left out adds none (never the word "undefined").
      tokens.push([search.tokensOf(wordsOf(transaction))]);
    });
    return {
      rowKeys: new Map(rowKeys.map((rowKey) => [rowKey, true])),
      added: inserts.length,
      batches: [
        // An identical record is already sealed and indexed: only mark it as seen.
        { sql: TOUCH_SQL, rows: seen === 0 ? [] : [[generation, scope, identities]] },
        // Each new row, then its search entry under the rowid it was given.
        {
          sql: INSERT_SQL,
          rows: inserts,
          sealed: { key: sealer.sealingKey, column: BODY_COLUMN, identities: identitiesOfInserts },
          then: { sql: INDEX_SQL, rows: tokens },
          // The account's count, the days' sums and the amount bands, a page at a time.
          tallies: [...PENDING_TALLIES],
        },
      ],
    };
  }

  /** Writes one page now, inside the caller's transaction. Returns how many rows were new. */
  writePage(
    profileId: string,
    accountId: string,
    transactions: readonly PendingTransactionResponse[],
    generation: number,
  ): number {
    const plan = this.planPage(profileId, accountId, transactions, generation);
    applyBatches(this.#statements, plan.batches);
    return plan.added;
  }

  /** The statement that sweeps rows the bank no longer lists (see sweep). */
  sweepBatch(
    profileId: string,
    accountId: string,
    generation: number,
    range: { fromDate?: string; toDate?: string },
  ): WriteBatch {
    const scope = this.scopeOf(profileId, accountId);
    // No scope: nothing was ever cached for the account, so nothing to sweep.
    if (scope === null) return { sql: SWEEP_SQL, rows: [] };
    return {
      sql: SWEEP_SQL,
      rows: [
        [scope, generation, range.fromDate ?? null, range.fromDate ?? null, range.toDate ?? null, range.toDate ?? null],
      ],
    };
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
    const [removed] = applyBatches(this.#statements, [this.sweepBatch(profileId, accountId, generation, range)]);
    return removed ?? 0;
  }

  list(query: PendingTransactionQuery): CacheRead<PendingTransactionRow> {
    const limit = pageLimitOf(query.limit);
    const sort = SORT_SQL[query.sort ?? 'newest'];
    const fingerprint = fingerprintOf(['pending-transactions', this.#filterKey(query), query.sort ?? 'newest']);
    const after = query.cursor === undefined || query.cursor === null ? null : decodeCursor(query.cursor, fingerprint);
    // A review state, in time order: walk that state's reviews in the list's order.
    const walk = this.#reviewWalk(query, sort);
    const filters = this.#filters(walk === null ? query : { ...query, review: undefined });
    if (filters === null) {
      // Nothing was ever cached for the account.
      const empty: CacheRead<PendingTransactionRow> = {
        rows: [],
        nextCursor: null,
        asOf: this.asOf(query),
        source: 'cache',
      };
      if (query.withTotal === true) empty.total = 0;
      return empty;
    }
    const { from, where, parameters } = filters;
    const order = walk === null ? [`p.${sort.column}`, `p.${sort.tieBreak}`] : ['r.posted_at', 'r.ref'];
    if (walk !== null) {
      where.push(...walk.where);
      parameters.push(...walk.parameters);
    }
    if (after !== null) {
      const [value, tieBreaker] = after;
      where.push(`(${order[0] ?? ''}, ${order[1] ?? ''}) ${sort.direction === 'DESC' ? '<' : '>'} (?, ?)`);
      parameters.push(value, sort.tieBreak === 'id' ? wholeNumberOf(tieBreaker) : tieBreaker);
    }
    const source = walk === null ? FROM_CLAUSE[from === '' ? 'plain' : 'hits'] : walk.from;
    const rows = this.#statements
      .get(
        `${walk === null ? from : ''} SELECT p.id, p.row_key, p.${sort.column} AS sort_value, ${pendingClearColumnsSql('p')}, p.body FROM ${source}
         WHERE ${where.join(' AND ')}
         ORDER BY ${order[0] ?? ''} ${sort.direction}, ${order[1] ?? ''} ${sort.direction}
         LIMIT ?`,
      )
      .all(...parameters, limit + 1) as unknown as (PendingClearColumns & {
      id: number;
      row_key: string;
      sort_value: KeyValue;
      body: Uint8Array;
    })[];
    const page = rows.slice(0, limit);
    const sealer = this.#sealer();
    const last = page.at(-1);
    const read: CacheRead<PendingTransactionRow> = {
      rows: page.map((row) => ({
        // A row whose clear columns were changed in the file is refused, not shown (pendingColumns.ts).
        ...openCheckedPending(sealer, row, identityOf(query.profileId, query.accountId, row.row_key), query.accountId),
        row_key: row.row_key,
      })),
      nextCursor:
        rows.length > limit && last !== undefined
          ? encodeCursor(fingerprint, last.sort_value, sort.tieBreak === 'id' ? String(last.id) : last.row_key)
          : null,
      asOf: this.asOf(query),
      source: 'cache',
    };
    if (query.withTotal === true) read.total = this.count(query);
    return read;
  }

  count(query: PendingTransactionQuery): number {
    const listed = this.#listedReviewCount(query);
    if (listed !== null) return listed;
    // The unreviewed are all rows but the reviewed ones: two index counts, where checking
    // each row for a review would probe a million times.
    if (query.review === 'unreviewed') {
      const { review: _review, ...all } = query;
      return this.count(all) - this.count({ ...all, review: 'reviewed' });
    }
    // Reviewed rows are counted from their reviews (one probe of its row each), never by
    // checking every row of the account for a review.
    const walk = this.#reviewWalk(query, null);
    const filters = this.#filters(walk === null ? query : { ...query, review: undefined });
    if (filters === null) return 0;
    const { from, where, parameters } = filters;
    if (walk !== null) {
      where.push(...walk.where);
      parameters.push(...walk.parameters);
    }
    const source = walk === null ? FROM_CLAUSE[from === '' ? 'plain' : 'hits'] : walk.from;
    const row = this.#statements
      .get(`${walk === null ? from : ''} SELECT COUNT(*) AS total FROM ${source} WHERE ${where.join(' AND ')}`)
      .get(...parameters) as { total: number };
    return row.total;
  }

  /**
   * The count behind a review state (or any review) when nothing else filters the rows: the
   * reviews that still have their row (reviews_by_listed_state, one index range); the
   * unreviewed are counted from it, above. Null when another filter is on (then each review's
   * row is checked against it).
   */
  #listedReviewCount(query: PendingTransactionQuery): number | null {
    const { review } = query;
    if (review === undefined || review === 'unreviewed') return null;
    if ([query.type, query.typeSource, query.search, query.fromDate, query.toDate].some((value) => value !== undefined))
      return null;
    const state = review === 'reviewed' ? '' : ' AND state = ?';
    const row = this.#statements
      .get(
        `SELECT COUNT(*) AS total FROM reviews INDEXED BY reviews_by_listed_state
         WHERE profile_id = ? AND kind = 'pending-transaction' AND account_id = ? AND row_listed = 1${state}`,
      )
      .get(query.profileId, query.accountId, ...(review === 'reviewed' ? [] : [review])) as { total: number };
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
      .prepare(
        `SELECT account_id FROM pending_transaction_scopes AS s
         WHERE profile_id = ? AND EXISTS (SELECT 1 FROM pending_transactions WHERE scope = s.id) ORDER BY account_id`,
      )
      .all(profileId) as { account_id: string }[];
    return rows.map((row) => row.account_id);
  }

  #filterKey(query: PendingTransactionQuery): unknown[] {
    return [
      query.profileId,
      query.accountId,
      query.type ?? null,
      query.typeSource ?? null,
      query.search ?? null,
      query.fromDate ?? null,
      query.toDate ?? null,
      query.review ?? null,
    ];
  }

  /**
   * A page behind a review state, sorted by time: the state's reviews are walked in the
   * list's order (reviews_by_row_time: account, state, the row's time and key) and each joined
   * to its row, so a page reads about its own 100 reviews whether the state holds ten or a
   * hundred thousand (the hits below would gather and sort them all first). The other
   * filters stay on the row. A count (`sort` null) joins every review of the state, or of
   * any state (`reviewed`). Null when another read serves better: a search, or an amount
   * sort (no review index follows amounts).
   */
  #reviewWalk(
    query: PendingTransactionQuery,
    sort: (typeof SORT_SQL)[PendingTransactionSort] | null,
  ): { from: string; where: string[]; parameters: (string | number)[] } | null {
    const state = query.review;
    if (state === undefined || state === 'unreviewed') return null;
    if (query.search !== undefined || (sort !== null && (sort.column !== 'posted_at' || state === 'reviewed')))
      return null;
    const reviews = "r.profile_id = ? AND r.kind = 'pending-transaction' AND r.account_id = ?";
    return {
      from: `reviews AS r INDEXED BY reviews_by_row_time
        CROSS JOIN pending_transactions AS p ON p.posted_at = r.posted_at AND p.row_key = r.ref`,
      where: [state === 'reviewed' ? reviews : `${reviews} AND r.state = ?`],
      parameters: state === 'reviewed' ? [query.profileId, query.accountId] : [query.profileId, query.accountId, state],
    };
  }

  /**
   * A review filter selecting few rows (a state, or any review) starts from the reviews, like
   * a sparse search starts from its hits: each review names its row's account, time and key,
   * the time index's own key. Null when there are many (then each walked row is checked).
   */
  #reviewHits(
    query: PendingTransactionQuery,
    scope: number,
    selection: Exclude<ReviewSelection, 'unreviewed'>,
  ): { from: string; parameters: (string | number)[] } | null {
    const state = selection === 'reviewed' ? '' : ' AND r.state = ?';
    const stateParameters = selection === 'reviewed' ? [] : [selection];
    const reviews = `FROM reviews AS r WHERE r.profile_id = ? AND r.kind = 'pending-transaction' AND r.account_id = ?${state}`;
    const probe = this.#statements
      .get(`SELECT COUNT(*) AS hits FROM (SELECT 1 ${reviews} LIMIT ${String(SPARSE_HITS + 1)})`)
      .get(query.profileId, query.accountId, ...stateParameters) as { hits: number };
    if (probe.hits > SPARSE_HITS) return null;
    return {
      from: `WITH hits (id) AS MATERIALIZED (SELECT reviewed.id FROM reviews AS r
        CROSS JOIN pending_transactions AS reviewed ON reviewed.scope = ? AND reviewed.posted_at = r.posted_at AND reviewed.row_key = r.ref
        WHERE r.profile_id = ? AND r.kind = 'pending-transaction' AND r.account_id = ?${state})`,
      parameters: [scope, query.profileId, query.accountId, ...stateParameters],
    };
  }

  /**
   * The WHERE of a query, and for a search, how to join the search index. FTS5 finds the
   * rows holding every word; how to combine that with the sort depends on how many there are:
   *   - few (≤ SPARSE_HITS): start from the hits and sort them (a few thousand at most);
   *   - many: walk the sorted index and keep rows that are hits, checking each by rowid,
   *     which finds a page quickly precisely because hits are dense.
   * One bounded probe of the index tells which case this is.
   * Null when nothing was ever cached for the account.
   */
  #filters(
    query: PendingTransactionQuery,
  ): { from: string; where: string[]; parameters: (string | number | null)[] } | null {
    const scope = this.scopeOf(query.profileId, query.accountId);
    if (scope === null) return null;
    const where = ['p.scope = ?'];
    const parameters: (string | number | null)[] = [scope];
    let from = '';
    if (query.search !== undefined) {
      const match = this.#search().matchOf(query.search);
      if (match !== null) {
        const probe = this.#statements
          .get(
            `SELECT COUNT(*) AS hits FROM (SELECT rowid FROM pending_transaction_search
             WHERE pending_transaction_search MATCH ? LIMIT ${String(SPARSE_HITS + 1)})`,
          )
          .get(match) as { hits: number };
        if (probe.hits <= SPARSE_HITS) {
          from = `WITH hits (id) AS MATERIALIZED (SELECT rowid FROM pending_transaction_search WHERE pending_transaction_search MATCH ?)`;
          parameters.unshift(match);
        } else {
          where.push(
            'EXISTS (SELECT 1 FROM pending_transaction_search WHERE pending_transaction_search MATCH ? AND rowid = p.id)',
          );
          parameters.push(match);
        }
      }
    }
    if (query.review !== undefined) {
      const hits = query.review === 'unreviewed' || from !== '' ? null : this.#reviewHits(query, scope, query.review);
      if (hits === null) {
        const { clause, parameters: reviewParameters } = reviewClause(
          query.profileId,
          'pending-transaction',
          query.review,
          'p.row_key',
        );
        where.push(clause);
        parameters.push(...reviewParameters);
      } else {
        from = hits.from;
        parameters.unshift(...hits.parameters);
      }
    }
    if (query.type !== undefined) {
      where.push('p.type = ?');
      parameters.push(query.type);
    }
    if (query.typeSource !== undefined) {
      where.push('p.type_source = ?');
      parameters.push(query.typeSource);
    }
    if (query.fromDate !== undefined) {
      where.push('p.date >= ?');
      parameters.push(query.fromDate);
    }
    if (query.toDate !== undefined) {
      where.push('p.date < ?');
      parameters.push(query.toDate);
    }
    return { from, where, parameters };
  }
}
