/**
 * Unreviewed pending transactions across every account of a profile, newest first: one list
 * over rows kept per account. Each account's rows are walked in its own time index
 * (pending_transactions_by_time: scope, posted_at, row_key) and the walks are merged, so a
 * page reads about its own rows from each account, never the profile's million; only the rows
 * of the page are opened. The order is (posted_at, account_id, row_key), newest first.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { AmountBands } from '../cache/amountBands.ts';
import { pageLimitOf, type CacheRead } from '../cache/cacheRead.ts';
import { decodeCursor, encodeCursor, fingerprintOf, notOurCursor } from '../cache/keysetCursor.ts';
import { identityOf as pendingIdentity } from '../cache/pendingTransactionsTable.ts';
import { openCheckedPending, pendingClearColumnsSql, type PendingClearColumns } from '../cache/pendingColumns.ts';
import type { RecordSealer } from '../cache/sealing.ts';
import { Statements } from '../cache/statements.ts';
import { amountClauses, type QueueNarrowing } from './queueFilterSql.ts';

export interface UnreviewedPendingQuery extends QueueNarrowing {
  profileId: string;
  limit?: number;
  cursor?: string | null;
}

export interface UnreviewedPendingRow {
  accountId: string;
  ref: string;
  postedAt: string;
  record: unknown;
}

interface Walked {
  id: number;
  posted_at: string;
  row_key: string;
}

interface Scope {
  id: number;
  account_id: string;
}

/** Where a cursor left the merged list: the last row's time, account and key. */
type Position = [postedAt: string, accountId: string, rowKey: string];

export class UnreviewedPending {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;
  readonly #statements: Statements;
  /** One statement per walk running at once (a merge steps one per account side by side). */
  readonly #walkers = new Map<string, StatementSync[]>();
  readonly #bands: AmountBands;

  constructor(database: DatabaseSync, sealer: () => RecordSealer) {
    this.#database = database;
    this.#sealer = sealer;
    this.#statements = new Statements(database);
    this.#bands = new AmountBands(database);
  }

  /** The profile's accounts with cached rows (all, or the one asked for). */
  scopes(profileId: string, accountId?: string): Scope[] {
    return this.#statements
      .get(
        `SELECT id, account_id FROM pending_transaction_scopes
         WHERE profile_id = ? AND (? IS NULL OR account_id = ?) ORDER BY account_id`,
      )
      .all(profileId, accountId ?? null, accountId ?? null) as unknown as Scope[];
  }

  list(query: UnreviewedPendingQuery): CacheRead<UnreviewedPendingRow> {
    const limit = pageLimitOf(query.limit);
    const fingerprint = fingerprintOf([
      'unreviewed-pending',
      query.profileId,
      query.accountId ?? null,
      query.itemFrom ?? null,
      query.itemTo ?? null,
      query.minAmountCents ?? null,
      query.maxAmountCents ?? null,
    ]);
    const after = query.cursor === undefined || query.cursor === null ? null : positionOf(query.cursor, fingerprint);
    const walks = this.scopes(query.profileId, query.accountId).map((scope, slot) => ({
      scope,
      rows: this.#walk(query, scope, after, slot),
      head: undefined as Walked | undefined,
    }));
    const picked: { scope: Scope; row: Walked }[] = [];
    try {
      for (const walk of walks) walk.head = next(walk.rows);
      while (picked.length <= limit) {
        let best: (typeof walks)[number] | undefined;
        for (const walk of walks) {
          if (walk.head === undefined) continue;
          if (best?.head === undefined || later(walk.head, walk.scope, best.head, best.scope)) best = walk;
        }
        if (best?.head === undefined) break;
        picked.push({ scope: best.scope, row: best.head });
        best.head = next(best.rows);
      }
    } finally {
      for (const walk of walks) walk.rows.return?.();
    }
    const page = picked.slice(0, limit);
    const last = page.at(-1);
    return {
      rows: this.#open(query.profileId, page),
      nextCursor:
        picked.length > limit && last !== undefined
          ? encodeCursor(fingerprint, last.row.posted_at, JSON.stringify([last.scope.account_id, last.row.row_key]))
          : null,
      asOf: null,
      source: 'cache',
    };
  }

  /**
   * How many rows each account holds under the filters, and how many of them have a review:
   * the unreviewed are the difference (two index counts, never a probe per row).
   */
  countByAccount(query: QueueNarrowing & { profileId: string }): Map<string, number> {
    const { where, parameters } = this.#rowFilters(query);
    // One count per account, each a range of that account's own index (a grouped join over
    // every account's rows would walk them all without it).
    const total = this.#statements.get(
      `SELECT COUNT(*) AS total FROM pending_transactions AS p
       WHERE p.scope = ?${where.map((clause) => ` AND ${clause}`).join('')}`,
    );
    // Under an amount filter only: the rows per amount band kept with the writes (migration 26)
    // and two short walks at the range's ends, instead of every matching index entry.
    const byBands = query.itemFrom === undefined && query.itemTo === undefined && where.length > 0;
    const rows = this.scopes(query.profileId, query.accountId).map((scope) => ({
      account_id: scope.account_id,
      total: byBands
        ? this.#bands.count(scope.id, query.minAmountCents ?? 0, query.maxAmountCents ?? null)
        : (total.get(scope.id, ...parameters) as { total: number }).total,
    }));
    const filtered = where.length > 0;
    const reviewed = this.#statements
      .get(
        filtered
          ? `SELECT r.account_id, COUNT(*) AS total FROM reviews AS r
             CROSS JOIN pending_transaction_scopes AS s ON s.profile_id = r.profile_id AND s.account_id = r.account_id
             CROSS JOIN pending_transactions AS p INDEXED BY pending_transactions_by_time
               ON p.scope = s.id AND p.posted_at = r.posted_at AND p.row_key = r.ref
             WHERE r.profile_id = ? AND r.kind = 'pending-transaction' AND r.row_listed = 1
               AND (? IS NULL OR r.account_id = ?)${where.map((clause) => ` AND ${clause}`).join('')}
             GROUP BY r.account_id`
          : `SELECT account_id, COUNT(*) AS total FROM reviews INDEXED BY reviews_by_listed_state
             WHERE profile_id = ? AND kind = 'pending-transaction' AND row_listed = 1
               AND (? IS NULL OR account_id = ?)
             GROUP BY account_id`,
      )
      .all(query.profileId, query.accountId ?? null, query.accountId ?? null, ...(filtered ? parameters : [])) as {
      account_id: string;
      total: number;
    }[];
    const counts = new Map(rows.map((row) => [row.account_id, row.total]));
    for (const row of reviewed) counts.set(row.account_id, (counts.get(row.account_id) ?? 0) - row.total);
    return counts;
  }

  /** The filters on a row `p` beside the review: its time and amount. */
  #rowFilters(query: QueueNarrowing): { where: string[]; parameters: SQLInputValue[] } {
    const where: string[] = [];
    const parameters: SQLInputValue[] = [];
    if (query.itemFrom !== undefined) {
      where.push('p.posted_at >= ?');
      parameters.push(query.itemFrom);
    }
    if (query.itemTo !== undefined) {
      where.push('p.posted_at < ?');
      parameters.push(query.itemTo);
    }
    const amount = amountClauses(query);
    return { where: [...where, ...amount.where], parameters: [...parameters, ...amount.parameters] };
  }

  /** One account's unreviewed rows after the cursor, newest first, as a lazy walk (keys only). */
  #walk(query: UnreviewedPendingQuery, scope: Scope, after: Position | null, slot: number): Iterator<Walked> {
    const { where, parameters } = this.#rowFilters(query);
    // Rows after the cursor in (posted_at, account_id, row_key) order, for this account.
    if (after !== null) {
      const [postedAt, accountId, rowKey] = after;
      if (scope.account_id < accountId) {
        where.push('p.posted_at <= ?');
        parameters.push(postedAt);
      } else if (scope.account_id > accountId) {
        where.push('p.posted_at < ?');
        parameters.push(postedAt);
      } else {
        where.push('(p.posted_at, p.row_key) < (?, ?)');
        parameters.push(postedAt, rowKey);
      }
    }
    const sql = `SELECT p.id, p.posted_at, p.row_key FROM pending_transactions AS p INDEXED BY pending_transactions_by_time
      WHERE p.scope = ?${where.map((clause) => ` AND ${clause}`).join('')}
        AND NOT EXISTS (SELECT 1 FROM reviews AS r
          WHERE r.profile_id = ? AND r.kind = 'pending-transaction' AND r.ref = p.row_key)
      ORDER BY p.posted_at DESC, p.row_key DESC`;
    const statement = this.#walker(sql, slot);
    return statement.iterate(scope.id, ...parameters, query.profileId) as Iterator<Walked>;
  }

  #walker(sql: string, slot: number): StatementSync {
    let pool = this.#walkers.get(sql);
    if (pool === undefined) {
      if (this.#walkers.size >= 64) this.#walkers.clear();
      pool = [];
      this.#walkers.set(sql, pool);
    }
    let statement = pool[slot];
    if (statement === undefined) {
      statement = this.#database.prepare(sql);
      pool[slot] = statement;
    }
    return statement;
  }

  /** Opens the page's rows (and only those). */
  #open(profileId: string, page: readonly { scope: Scope; row: Walked }[]): UnreviewedPendingRow[] {
    if (page.length === 0) return [];
    const bodies = this.#statements
      .get(
        `SELECT p.id, p.row_key, ${pendingClearColumnsSql('p')}, p.body FROM pending_transactions AS p
         WHERE p.id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(page.map((item) => item.row.id))) as unknown as (PendingClearColumns & {
      id: number;
      row_key: string;
      body: Uint8Array;
    })[];
    const byId = new Map(bodies.map((row) => [row.id, row]));
    const sealer = this.#sealer();
    return page.flatMap(({ scope, row }) => {
      const body = byId.get(row.id);
      if (body === undefined) return [];
      return [
        {
          accountId: scope.account_id,
          ref: row.row_key,
          postedAt: row.posted_at,
          // Its clear columns chose it for the queue: checked against the record (pendingColumns.ts).
          record: openCheckedPending(
            sealer,
            body,
            pendingIdentity(profileId, scope.account_id, row.row_key),
            scope.account_id,
          ),
        },
      ];
    });
  }
}

function next(rows: Iterator<Walked>): Walked | undefined {
  const step = rows.next();
  return step.done === true ? undefined : step.value;
}

/** True when row `a` (of account `scopeA`) comes before `b` in the newest-first order. */
function later(a: Walked, scopeA: Scope, b: Walked, scopeB: Scope): boolean {
  if (a.posted_at !== b.posted_at) return a.posted_at > b.posted_at;
  if (scopeA.account_id !== scopeB.account_id) return scopeA.account_id > scopeB.account_id;
  return a.row_key > b.row_key;
}

function positionOf(cursor: string, fingerprint: string): Position {
  const [postedAt, rest] = decodeCursor(cursor, fingerprint);
  let parts: unknown;
  try {
    parts = JSON.parse(rest);
  } catch {
    throw notOurCursor();
  }
  if (
    typeof postedAt !== 'string' ||
    !Array.isArray(parts) ||
    parts.length !== 2 ||
    typeof parts[0] !== 'string' ||
    typeof parts[1] !== 'string'
  ) {
    throw notOurCursor();
  }
  return [postedAt, parts[0], parts[1]];
}
