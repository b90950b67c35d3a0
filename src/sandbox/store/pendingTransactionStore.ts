/**
 * Pending transactions of every account. Each row keeps the JSON it is served as, so a page
 * is a concatenation, and a position that grows with time within its account: the list's
 * order (newest first) and what the opaque cursor encodes.
 */
import type { Database } from './database.ts';

interface PendingTransactionPageQuery {
  accountId: string;
  /** Position of the last row already seen; the page starts below it. */
  beforePosition?: number | undefined;
  pageSize: number;
  /** Inclusive lower bound on created time, microseconds since the epoch. */
  fromMicros?: number | undefined;
  /** Exclusive upper bound on created time, microseconds since the epoch. */
  toMicros?: number | undefined;
}

interface PendingTransactionPage {
  bodies: string[];
  /** Position of the page's last row when more rows follow, else null. */
  nextPosition: number | null;
}

/** A page of the rows that move the balance (posted transactions), with their positions. */
interface PostedPage {
  rows: { position: number; body: string }[];
  /** Whether more rows follow the page's last one. */
  more: boolean;
}

export interface PendingTransactionStore {
  /** Appends a row; returns its position. `micros` must not be older than the account's newest row. */
  append(accountId: string, micros: number, body: string): number;
  /** Seeding: the caller numbers positions itself (1, 2, 3 ... oldest first). */
  insertAt(accountId: string, position: number, micros: number, body: string): void;
  /** The newest row's time, to keep new rows in order. */
  newestMicros(accountId: string): number | undefined;
  page(query: PendingTransactionPageQuery): PendingTransactionPage;
  /** Like page, without holds and hold releases (they never move the balance). */
  postedPage(query: PendingTransactionPageQuery): PostedPage;
  count(accountId: string): number;
}

const NO_LIMIT = Number.MAX_SAFE_INTEGER;

export function createPendingTransactionStore(database: Database): PendingTransactionStore {
  const insert = database.prepare(
    'INSERT INTO pending_transaction (account_id, position, created_us, body) VALUES (?, ?, ?, ?)',
  );
  const newest = database.prepare(
    'SELECT position, created_us FROM pending_transaction WHERE account_id = ? ORDER BY position DESC LIMIT 1',
  );
  // Position is monotonic in time, so a date bound becomes a position bound on the primary key:
  // the first entry of the time index at or after the bound (which holds the position, the
  // table's key). MIN(position) over the same rows walked every row after the bound, which made
  // each page of an old date window cost a scan of the account (a windowed sync asks for many).
  const firstAtOrAfter = database.prepare(
    'SELECT position FROM pending_transaction WHERE account_id = ? AND created_us >= ? ORDER BY created_us, position LIMIT 1',
  );
  const page = database.prepare(
    'SELECT position, body FROM pending_transaction WHERE account_id = ? AND position >= ? AND position < ? ORDER BY position DESC LIMIT ?',
  );
  const postedPage = database.prepare(
    `SELECT position, body FROM pending_transaction WHERE account_id = ? AND position >= ? AND position < ?
       AND IFNULL(json_extract(body, '$.type'), '') NOT IN ('hold', 'hold_release')
     ORDER BY position DESC LIMIT ?`,
  );
  const count = database.prepare('SELECT COUNT(*) AS total FROM pending_transaction WHERE account_id = ?');
  // The hot query of the sandbox: rows as arrays, not objects, are measurably cheaper to build.
  page.setReturnArrays(true);

  function positionAtOrAfter(accountId: string, micros: number): number {
    const row = firstAtOrAfter.get(accountId, micros);
    return row?.position === null || row?.position === undefined ? NO_LIMIT : Number(row.position);
  }

  function boundsOf(query: PendingTransactionPageQuery): { low: number; high: number } {
    const low = query.fromMicros === undefined ? 0 : positionAtOrAfter(query.accountId, query.fromMicros);
    let high = query.toMicros === undefined ? NO_LIMIT : positionAtOrAfter(query.accountId, query.toMicros);
    if (query.beforePosition !== undefined) high = Math.min(high, query.beforePosition);
    return { low, high };
  }

  return {
    append(accountId, micros, body) {
      const last = newest.get(accountId);
      const position = last === undefined ? 1 : Number(last.position) + 1;
      if (last !== undefined && micros < Number(last.created_us)) {
        throw new Error(`Pending transactions of ${accountId} must be appended in time order.`);
      }
      insert.run(accountId, position, micros, body);
      return position;
    },
    insertAt(accountId, position, micros, body) {
      insert.run(accountId, position, micros, body);
    },
    newestMicros(accountId) {
      const last = newest.get(accountId);
      return last === undefined ? undefined : Number(last.created_us);
    },
    page(query) {
      const { low, high } = boundsOf(query);
      const rows = page.all(query.accountId, low, high, query.pageSize + 1) as unknown as [number, string][];
      const shown = rows.slice(0, query.pageSize);
      const last = shown.at(-1);
      return {
        bodies: shown.map((row) => row[1]),
        nextPosition: rows.length > query.pageSize && last !== undefined ? last[0] : null,
      };
    },
    postedPage(query) {
      const { low, high } = boundsOf(query);
      const rows = postedPage.all(query.accountId, low, high, query.pageSize + 1);
      return {
        rows: rows.slice(0, query.pageSize).map((row) => ({ position: Number(row.position), body: String(row.body) })),
        more: rows.length > query.pageSize,
      };
    },
    count(accountId) {
      return Number(count.get(accountId)?.total ?? 0);
    },
  };
}
