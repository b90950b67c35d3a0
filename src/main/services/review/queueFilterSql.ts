/**
 * The queue's filters on the reviews table, in SQL (clear columns only, no sealed body is
 * opened): a pending transaction's account, its time and amount, and who flagged it (a person
 * or a watch rule, and which). Shared by the page read (ReviewsTable.list) and the counts
 * (reviewQueue.ts), so a count is always the size of the list it stands for. Clauses name the
 * table `reviews` unaliased.
 */
import { RULE_REF_FUNCTION } from '../cache/ruleNames.ts';

export interface QueueNarrowing {
  /** A pending transaction's account. */
  accountId?: string | undefined;
  /** Flags raised by a watch rule (true) or given by a person (false). */
  byRule?: boolean | undefined;
  /** The watch rule that flagged the item (compared by its keyed reference: cache/ruleNames.ts). */
  ruleName?: string | undefined;
  /** The profile, needed with ruleName (a rule's reference is per profile). */
  profileId?: string | undefined;
  /** A pending transaction's time (posted_at), YYYY-MM-DD or ISO: from inclusive, to exclusive. */
  itemFrom?: string | undefined;
  itemTo?: string | undefined;
  /** A pending transaction's amount, in cents, either sign: at least / at most. */
  minAmountCents?: number | undefined;
  maxAmountCents?: number | undefined;
}

/** The amount bounds on a pending-transactions row `p` (absolute value: a debit of 500 is "500"). */
export function amountClauses(narrowing: QueueNarrowing, row = 'p'): { where: string[]; parameters: number[] } {
  const where: string[] = [];
  const parameters: number[] = [];
  // Written as ranges of amount_cents (not abs()), so the amount index can serve them.
  const min = narrowing.minAmountCents ?? 0;
  if (narrowing.maxAmountCents !== undefined) {
    where.push(`(${row}.amount_cents BETWEEN ? AND ? OR ${row}.amount_cents BETWEEN ? AND ?)`);
    parameters.push(min, narrowing.maxAmountCents, -narrowing.maxAmountCents, -min);
  } else if (narrowing.minAmountCents !== undefined) {
    where.push(`(${row}.amount_cents >= ? OR ${row}.amount_cents <= ?)`);
    parameters.push(min, -min);
  }
  return { where, parameters };
}

export function queueClauses(narrowing: QueueNarrowing): { where: string[]; parameters: (string | number)[] } {
  const where: string[] = [];
  const parameters: (string | number)[] = [];
  if (narrowing.accountId !== undefined) {
    where.push('reviews.account_id = ?');
    parameters.push(narrowing.accountId);
  }
  if (narrowing.byRule !== undefined) where.push(`reviews.rule_name IS ${narrowing.byRule ? 'NOT NULL' : 'NULL'}`);
  if (narrowing.ruleName !== undefined) {
    if (narrowing.profileId === undefined) throw new Error('A rule filter needs its profile.');
    // One value for the statement (deterministic, constant arguments): the index still serves it.
    where.push(`reviews.rule_name = ${RULE_REF_FUNCTION}(?, ?)`);
    parameters.push(narrowing.profileId, narrowing.ruleName);
  }
  if (narrowing.itemFrom !== undefined) {
    where.push('reviews.posted_at >= ?');
    parameters.push(narrowing.itemFrom);
  }
  if (narrowing.itemTo !== undefined) {
    where.push('reviews.posted_at < ?');
    parameters.push(narrowing.itemTo);
  }
  const amount = amountClauses(narrowing);
  if (amount.where.length > 0) {
    // The amount is the row's (in clear beside its sealed body); a review whose row the bank
    // no longer lists has none to compare, and is left out.
    where.push(`EXISTS (SELECT 1 FROM pending_transaction_scopes AS s
      CROSS JOIN pending_transactions AS p INDEXED BY pending_transactions_by_time
        ON p.scope = s.id AND p.posted_at = reviews.posted_at AND p.row_key = reviews.ref
      WHERE s.profile_id = reviews.profile_id AND s.account_id = reviews.account_id AND ${amount.where.join(' AND ')})`);
    parameters.push(...amount.parameters);
  }
  return { where, parameters };
}
