/**
 * A cached pending transaction's clear columns, checked against its sealed body (issue 23,
 * item 2; docs/security.md, "Pending transactions' clear columns").
 *
 * The amount, dates and type stay in clear so SQL can filter, sort, count and match watch rules
 * on them. Each is a pure function of the bank's record, and the record is the row's sealed body
 * (AES-GCM under the row's identity: profile, account and row key, the row key itself a keyed
 * digest of the record). So whenever a body is opened, the columns it would have been written
 * with are computed again and compared with the ones the file holds: a clear amount, date, time
 * or type changed in the file (to hide a row from a filter or a rule, or to make one match) no
 * longer matches, and the row is refused as altered rather than shown or acted on. `audit verify`
 * opens every row this way. No new column, no migration: rows written by earlier versions are
 * checked the same way.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { PendingTransactionResponse } from '../../../shared/bank/index.ts';
import type { AuditChainProblem } from '../audit/auditVerify.ts';
import { centsKeyOf, textKeyOf } from './absentKeys.ts';
import { RowAltered } from './rowMacs.ts';
import type { RecordSealer } from './sealing.ts';

/** The clear columns of a pending transaction's row, as the cache writes them. */
export interface PendingClearColumns {
  posted_at: string;
  date: string;
  amount_cents: number;
  type: string | null;
  type_source: string | null;
}

/** The clear columns as a SELECT list (`alias.` before each). */
export function pendingClearColumnsSql(alias: string): string {
  return ['posted_at', 'date', 'amount_cents', 'type', 'type_source'].map((column) => `${alias}.${column}`).join(', ');
}

/** The time a row sorts by: the most precise the bank sent (absentKeys.ts when none). */
export function postedAtOf(transaction: PendingTransactionResponse): string {
  return textKeyOf(transaction.extended_timestamp_precise ?? transaction.extended_timestamp ?? transaction.date);
}

/** The clear columns a record is written with. */
export function pendingClearColumnsOf(transaction: PendingTransactionResponse): PendingClearColumns {
  return {
    posted_at: postedAtOf(transaction),
    date: textKeyOf(transaction.date),
    amount_cents: centsKeyOf(transaction.amount),
    type: transaction.type ?? null,
    type_source: transaction.type_source ?? null,
  };
}

/** Benchmark only (tests/bench/review.bench.ts): see pendingColumnsCheckOffForBenchmark. */
let checkOff = false;

/**
 * The baseline of what the check costs (tests/bench/review.bench.ts, the only caller): while
 * on, rows are taken as they are. The app never calls this.
 */
export function pendingColumnsCheckOffForBenchmark(off: boolean): void {
  checkOff = off;
}

function sameNumber(stored: unknown, expected: number): boolean {
  return (typeof stored === 'number' || typeof stored === 'bigint') && Number(stored) === expected;
}

/** Whether the row's clear columns are the ones its opened record was written with. */
function pendingColumnsMatch(stored: PendingClearColumns, record: unknown): boolean {
  if (typeof record !== 'object' || record === null) return false;
  const expected = pendingClearColumnsOf(record as PendingTransactionResponse);
  return (
    stored.posted_at === expected.posted_at &&
    stored.date === expected.date &&
    sameNumber(stored.amount_cents, expected.amount_cents) &&
    stored.type === expected.type &&
    stored.type_source === expected.type_source
  );
}

/** The error a pending transaction changed in the file answers (storage_error, "run audit verify"). */
function pendingRowAltered(accountId: string, rowKey: string): RowAltered {
  return new RowAltered(`Pending transaction ${rowKey} of account ${accountId}`);
}

/**
 * Opens a pending transaction's body and checks its clear columns against it: the record, or
 * RowAltered when the columns were changed in the file (a body that does not open at all throws
 * the sealer's SealBroken, as before).
 */
export function openCheckedPending(
  sealer: RecordSealer,
  row: PendingClearColumns & { body: Uint8Array; row_key: string },
  identity: string,
  accountId: string,
): PendingTransactionResponse {
  const record = sealer.openJson(row.body, identity);
  if (!checkOff && !pendingColumnsMatch(row, record)) throw pendingRowAltered(accountId, row.row_key);
  return record as PendingTransactionResponse;
}

/**
 * The check `audit verify` runs (AuditLog.addCheck): every cached pending transaction opened and
 * its clear columns compared with its record. Names the first five, counts them all; a body
 * that does not open under its row's identity (moved, or its profile, account or row key
 * edited) counts too.
 */
export function alteredPendingProblem(database: DatabaseSync, sealer: () => RecordSealer): AuditChainProblem | null {
  const rows = database
    .prepare(
      `SELECT s.profile_id, s.account_id, p.row_key, ${pendingClearColumnsSql('p')}, p.body
       FROM pending_transaction_scopes AS s CROSS JOIN pending_transactions AS p ON p.scope = s.id`,
    )
    .iterate() as Iterable<
    PendingClearColumns & { profile_id: string; account_id: string; row_key: string; body: Uint8Array }
  >;
  const open = sealer();
  let count = 0;
  const first: string[] = [];
  for (const row of rows) {
    let authentic: boolean;
    try {
      const record = open.openJson(row.body, pendingIdentityOf(row.profile_id, row.account_id, row.row_key));
      authentic = pendingColumnsMatch(row, record);
    } catch {
      authentic = false;
    }
    if (authentic) continue;
    count += 1;
    if (first.length < 5) {
      first.push(
        `${row.row_key} of account ${row.account_id} (profile ${row.profile_id}, amount_cents ${String(row.amount_cents)}, type ${String(row.type)})`,
      );
    }
  }
  const kept = keptFiguresAltered(database);
  if (count === 0 && kept === null) return null;
  if (count === 0) {
    return {
      kind: 'record-altered',
      entryId: 0,
      entry: null,
      message: `The audit log does not verify: ${kept ?? ''} were changed in the cache file outside Ledgerdesk; they no longer match the cached transactions they count, so the queue's counts and the Overview's figures may be wrong.`,
    };
  }
  return {
    kind: 'record-altered',
    entryId: 0,
    entry: null,
    message: `The audit log does not verify: ${String(count)} cached pending ${count === 1 ? 'transaction was' : 'transactions were'} changed in the cache file outside Ledgerdesk (${first.join('; ')}${count > 5 ? '; …' : ''}); their amount, dates or type no longer match the sealed record, so a filter, a count or a watch rule may have read them wrongly.`,
  };
}

/**
 * The figures kept beside the rows by triggers (cache migration 20: each account's count, and
 * each day's count and sum of credits, debits and holds) compared with the rows they count.
 * Run after every row passed its check, so the rows are the truth. Null when they match, else
 * what differs, in words.
 */
function keptFiguresAltered(database: DatabaseSync): string | null {
  const counts = database
    .prepare(
      `SELECT count(*) AS n FROM (SELECT scope, count(*) AS total FROM pending_transactions GROUP BY scope) AS counted
       FULL OUTER JOIN pending_transaction_counts AS kept USING (scope)
       WHERE coalesce(counted.total, 0) != coalesce(kept.total, 0)`,
    )
    .get() as { n: number };
  const days = database
    .prepare(
      `SELECT count(*) AS n FROM (
         SELECT scope, date,
           CASE WHEN type IN ('hold', 'hold_release') THEN 'holds' WHEN amount_cents >= 0 THEN 'credits' ELSE 'debits' END AS flow,
           count(*) AS n, sum(amount_cents) AS cents
         FROM pending_transactions GROUP BY 1, 2, 3) AS counted
       FULL OUTER JOIN pending_transaction_days AS kept USING (scope, date, flow)
       WHERE coalesce(counted.n, 0) != coalesce(kept.n, 0) OR coalesce(counted.cents, 0) != coalesce(kept.cents, 0)`,
    )
    .get() as { n: number };
  // Reviews counted by what the queue and the Overview group them by (migration 20's
  // review_counts), against the reviews themselves (each authenticated by its row MAC).
  const reviewCounts = database
    .prepare(
      `SELECT count(*) AS n FROM (
         SELECT profile_id, kind, coalesce(account_id, '') AS account_key, state, rule_name IS NOT NULL AS by_rule,
           row_listed, count(*) AS total
         FROM reviews GROUP BY 1, 2, 3, 4, 5, 6) AS counted
       FULL OUTER JOIN review_counts AS kept USING (profile_id, kind, account_key, state, by_rule, row_listed)
       WHERE coalesce(counted.total, 0) != coalesce(kept.total, 0)`,
    )
    .get() as { n: number };
  // A review that says its row is cached when it is not (migration 12's row_listed). The other
  // way (0 while the row is cached) also happens legitimately between a sync that lists a row
  // again and its relist step, and the next complete sync sets it back (docs/security.md).
  const listed = database
    .prepare(
      `SELECT count(*) AS n FROM reviews
       WHERE kind = 'pending-transaction' AND row_listed = 1 AND NOT EXISTS (
         SELECT 1 FROM pending_transaction_scopes AS s CROSS JOIN pending_transactions AS p
           ON p.scope = s.id AND p.posted_at = reviews.posted_at AND p.row_key = reviews.ref
         WHERE s.profile_id = reviews.profile_id AND s.account_id = reviews.account_id)`,
    )
    .get() as { n: number };
  const parts: string[] = [];
  if (counts.n > 0) parts.push(`the kept counts of ${String(counts.n)} ${counts.n === 1 ? 'account' : 'accounts'}`);
  if (days.n > 0) parts.push(`the kept figures of ${String(days.n)} ${days.n === 1 ? 'day' : 'days'}`);
  if (reviewCounts.n > 0) {
    parts.push(`the kept review counts of ${String(reviewCounts.n)} ${reviewCounts.n === 1 ? 'group' : 'groups'}`);
  }
  if (listed.n > 0) {
    parts.push(
      `the "row cached" mark of ${String(listed.n)} ${listed.n === 1 ? 'review whose transaction is' : 'reviews whose transactions are'} not cached`,
    );
  }
  return parts.length === 0 ? null : parts.join(' and ');
}

/** The identity a pending transaction's body is sealed under (its associated data). */
export function pendingIdentityOf(profileId: string, accountId: string, rowKey: string): string {
  return `pending_transaction\u0000${profileId}\u0000${accountId}\u0000${rowKey}`;
}
