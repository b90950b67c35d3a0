/**
 * The counts the cache keeps beside its rows (cache migration 20): how many pending
 * transactions each account holds, and how many reviews each (kind, account, state, flagged by
 * a rule, row still listed) holds. They are written in the transaction of the write they
 * count, so reading them is a few dozen rows however large the cache, and they never lag:
 * a sync's page brings them up to date with one statement each (PENDING_TALLIES, cache
 * the migration "kept figures of new pending transactions added a page at a time"), every other write by triggers. Only counts without a time, amount or rule
 * filter can be read here: a filtered count still walks an index (reviewQueue.ts,
 * unreviewedPending.ts).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { ReviewKind, ReviewState } from '../../../shared/review/reviewTerms.ts';
import { amountBandSql } from './amountBands.ts';
import { Statements } from './statements.ts';

/**
 * What a page of new pending transactions adds to the figures kept beside them: each
 * account's count, each day's count and sum per flow (credits, debits, holds: migration 20),
 * each amount band's count (migration 26). Run by the cache writer after the page's inserts
 * (WriteBatch.tallies) over the rowids they took, ?1 to ?2: a few rows a page where the
 * triggers they replace (dropped by the migration "kept figures of new pending transactions added a page at a time") wrote three a record. Deletes and updates,
 * rare and small, keep their triggers.
 */
export const PENDING_TALLIES: readonly string[] = [
  `INSERT INTO pending_transaction_counts (scope, total)
     SELECT scope, count(*) FROM pending_transactions WHERE id BETWEEN ?1 AND ?2 GROUP BY scope
   ON CONFLICT (scope) DO UPDATE SET total = total + excluded.total`,
  `INSERT INTO pending_transaction_days (scope, date, flow, n, cents)
     SELECT scope, date,
       CASE WHEN type IN ('hold', 'hold_release') THEN 'holds' WHEN amount_cents >= 0 THEN 'credits' ELSE 'debits' END,
       count(*), sum(amount_cents)
     FROM pending_transactions WHERE id BETWEEN ?1 AND ?2 GROUP BY 1, 2, 3
   ON CONFLICT DO UPDATE SET n = n + excluded.n, cents = cents + excluded.cents`,
  `INSERT INTO pending_transaction_amounts (scope, band, n)
     SELECT scope, ${amountBandSql('amount_cents')}, count(*)
     FROM pending_transactions WHERE id BETWEEN ?1 AND ?2 GROUP BY 1, 2
   ON CONFLICT DO UPDATE SET n = n + excluded.n`,
];

/** One kept count of reviews. accountId is a pending transaction's account, null for other kinds. */
export interface KeptReviewCount {
  kind: ReviewKind;
  accountId: string | null;
  state: ReviewState;
  byRule: boolean;
  rowListed: boolean;
  total: number;
}

export class KeptCounts {
  readonly #statements: Statements;

  constructor(database: DatabaseSync) {
    this.#statements = new Statements(database);
  }

  /** Cached pending transactions per account of a profile (all accounts, or the one asked for). */
  pendingRowsByAccount(profileId: string, accountId?: string): Map<string, number> {
    const rows = this.#statements
      .get(
        `SELECT s.account_id, coalesce(c.total, 0) AS total FROM pending_transaction_scopes AS s
         LEFT JOIN pending_transaction_counts AS c ON c.scope = s.id
         WHERE s.profile_id = ? AND (? IS NULL OR s.account_id = ?) ORDER BY s.account_id`,
      )
      .all(profileId, accountId ?? null, accountId ?? null) as { account_id: string; total: number }[];
    return new Map(rows.map((row) => [row.account_id, row.total]));
  }

  /** Every kept count of a profile's reviews that is not zero (optionally one account's). */
  reviews(profileId: string, accountId?: string): KeptReviewCount[] {
    const rows = this.#statements
      .get(
        `SELECT kind, account_key, state, by_rule, row_listed, total FROM review_counts
         WHERE profile_id = ? AND (? IS NULL OR account_key = ?) AND total <> 0`,
      )
      .all(profileId, accountId ?? null, accountId ?? null) as {
      kind: ReviewKind;
      account_key: string;
      state: ReviewState;
      by_rule: number;
      row_listed: number;
      total: number;
    }[];
    return rows.map((row) => ({
      kind: row.kind,
      accountId: row.kind === 'pending-transaction' ? row.account_key : null,
      state: row.state,
      byRule: row.by_rule === 1,
      rowListed: row.row_listed === 1,
      total: row.total,
    }));
  }
}
