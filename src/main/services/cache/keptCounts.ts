/**
 * The counts the cache keeps beside its rows (cache migration 20): how many pending
 * transactions each account holds, and how many reviews each (kind, account, state, flagged by
 * a rule, row still listed) holds. Triggers write them in the transaction of the write they
 * count, so reading them is a few dozen rows however large the cache, and they never lag.
 * Only counts without a time, amount or rule filter can be read here: a filtered count still
 * walks an index (reviewQueue.ts, unreviewedPending.ts).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { ReviewKind, ReviewState } from '../../../shared/review/reviewTerms.ts';
import { Statements } from './statements.ts';

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
