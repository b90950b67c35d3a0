/**
 * Pattern rules (shared/review/patternRule.ts) evaluated in SQL over the cache's clear columns,
 * so a rule over a million cached transactions reads each row's account, date, type and amount
 * once and never opens a sealed body.
 *
 * Structuring and velocity: the matching transactions are summed per account and bank date
 * (one pass over the rows), then a window function slides `windowDays` days over those daily
 * sums per account; each window that meets the rule ends a flagged run, and windows that
 * overlap join into one set (an account's "episode"), whose transactions are the set's items.
 * Holds and their releases are money set aside, not credits or debits: they never count.
 *
 * Shared applicant field: the keyed digests of applicants' emails, phones and addresses
 * (cache/applicantFieldDigests.ts) grouped by digest; a digest shared by two or more applicants
 * named by at least `applicationsAtLeast` applications is a set, its applications the items.
 *
 * What is flagged is returned, not stored: where a rule's flags are kept (the record file of
 * issue 34) is the caller's business.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type {
  PatternRule,
  SharedApplicantFieldRule,
  SharedField,
  StructuringRule,
  VelocityRule,
} from '../../../shared/review/patternRule.ts';
import { ApplicantFieldDigests } from '../cache/applicantFieldDigests.ts';
import { centsOf } from '../cache/money.ts';
import type { RecordSealer } from '../cache/sealing.ts';

interface FlaggedTransaction {
  /** The review ref of the transaction (its row key). */
  ref: string;
  accountId: string;
  postedAt: string;
  date: string;
  amountCents: number;
}

/** An account's run of transactions within the rule's window. */
export interface AccountWindowSet {
  kind: 'account-window';
  accountId: string;
  /** The first and last bank dates of the set's transactions. */
  from: string;
  to: string;
  count: number;
  /** Their sum (absolute values for a velocity rule over both flows). */
  sumCents: number;
  items: FlaggedTransaction[];
}

/** Applications whose applicants share one personal field (the value is never read). */
export interface SharedFieldSet {
  kind: 'shared-field';
  field: SharedField;
  /** A short keyed reference of the shared value: the same for the same value, and nothing more. */
  valueRef: string;
  applications: string[];
  applicants: string[];
}

export type FlaggedSet = AccountWindowSet | SharedFieldSet;

export interface PatternEvaluation {
  /** The sets, all of them or the first `setLimit`. */
  sets: FlaggedSet[];
  /** How many sets the rule flags in all. */
  setCount: number;
  /** Items of every set (not only those returned): transactions or applications, each counted once. */
  itemCount: number;
}

export interface EvaluateOptions {
  /** Stop after this many sets (a preview); all by default. */
  setLimit?: number;
}

const HOLD_TYPES = "('hold', 'hold_release')";

interface TransactionFilter {
  where: string[];
  parameters: SQLInputValue[];
  /** The SQL of the amount a row adds to the sum. */
  amount: string;
}

function filterOf(rule: StructuringRule | VelocityRule): TransactionFilter {
  const where = [`(p.type IS NULL OR p.type NOT IN ${HOLD_TYPES})`];
  const parameters: SQLInputValue[] = [];
  let amount = 'p.amount_cents';
  if (rule.template === 'structuring') {
    where.push('p.amount_cents > 0', 'p.amount_cents < ?');
    parameters.push(centsOf(rule.eachUnder));
  } else if (rule.flow === 'credits') {
    where.push('p.amount_cents > 0');
  } else if (rule.flow === 'debits') {
    where.push('p.amount_cents < 0');
    amount = '-p.amount_cents';
  } else {
    amount = 'abs(p.amount_cents)';
  }
  if (rule.type !== undefined) {
    where.push('p.type = ?');
    parameters.push(rule.type);
  }
  if (rule.typeSource !== undefined) {
    where.push('p.type_source = ?');
    parameters.push(rule.typeSource);
  }
  return { where, parameters, amount };
}

/** A YYYY-MM-DD date moved by `days`. */
function shiftedDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export class PatternRuleEvaluator {
  readonly #database: DatabaseSync;
  readonly #digests: ApplicantFieldDigests | null;

  /** `sealer`: needed only to fill the digests of applicants cached before migration 28. */
  constructor(database: DatabaseSync, sealer: (() => RecordSealer) | null = null) {
    this.#database = database;
    this.#digests = sealer === null ? null : new ApplicantFieldDigests(database, sealer);
  }

  evaluate(profileId: string, rule: PatternRule, options: EvaluateOptions = {}): PatternEvaluation {
    if (rule.template === 'shared-applicant-field') return this.#sharedField(profileId, rule, options);
    return this.#windows(profileId, rule, options);
  }

  #windows(profileId: string, rule: StructuringRule | VelocityRule, options: EvaluateOptions): PatternEvaluation {
    const filter = filterOf(rule);
    const conditions: string[] = [];
    const conditionParameters: SQLInputValue[] = [];
    const count = rule.countAtLeast;
    const sum = rule.sumAtLeast === undefined ? undefined : centsOf(rule.sumAtLeast);
    if (count !== undefined) {
      conditions.push('n >= ?');
      conditionParameters.push(count);
    }
    if (sum !== undefined) {
      conditions.push('cents >= ?');
      conditionParameters.push(sum);
    }
    // One pass over the rows (every row of the profile read once, its clear columns only),
    // summed per account and day; then the window slides over those days in SQL.
    const days = this.#database
      .prepare(
        `WITH days AS (
           SELECT p.scope AS scope, p.date AS date, count(*) AS n, sum(${filter.amount}) AS cents
           FROM pending_transactions AS p
           WHERE p.scope IN (SELECT id FROM pending_transaction_scopes WHERE profile_id = ?)
             AND ${filter.where.join(' AND ')}
           GROUP BY p.scope, p.date
         ),
         windows AS (
           SELECT scope, date, n AS day_n, cents AS day_cents,
             sum(n) OVER running AS n, sum(cents) OVER running AS cents, min(date) OVER running AS first_day
           FROM days
           WINDOW running AS (PARTITION BY scope ORDER BY CAST(julianday(date) AS INTEGER)
             RANGE BETWEEN ? PRECEDING AND CURRENT ROW)
         )
         SELECT w.scope AS scope, s.account_id AS account_id, w.date AS date, w.day_n AS day_n,
           w.day_cents AS day_cents, w.first_day AS first_day, (${conditions.join(' AND ')}) AS met
         FROM windows AS w JOIN pending_transaction_scopes AS s ON s.id = w.scope
         ORDER BY s.account_id, w.date`,
      )
      .all(profileId, ...filter.parameters, rule.windowDays - 1, ...conditionParameters) as {
      scope: number;
      account_id: string;
      date: string;
      day_n: number;
      day_cents: number;
      first_day: string;
      met: number;
    }[];
    // Each window that meets the rule is a run from its first active day to its last; runs of
    // an account that overlap are one set. Its totals are those of the days it spans.
    const runs: { scope: number; accountId: string; from: string; to: string; count: number; sumCents: number }[] = [];
    for (const day of days) {
      if (day.met !== 1) continue;
      const last = runs.at(-1);
      if (last !== undefined && last.scope === day.scope && day.first_day <= last.to) last.to = day.date;
      else
        runs.push({
          scope: day.scope,
          accountId: day.account_id,
          from: day.first_day,
          to: day.date,
          count: 0,
          sumCents: 0,
        });
    }
    const runsOf = new Map<number, typeof runs>();
    for (const span of runs) runsOf.set(span.scope, [...(runsOf.get(span.scope) ?? []), span]);
    const next = new Map<number, number>();
    for (const day of days) {
      const spans = runsOf.get(day.scope);
      if (spans === undefined) continue;
      let index = next.get(day.scope) ?? 0;
      while (index < spans.length && (spans[index]?.to ?? '') < day.date) index += 1;
      next.set(day.scope, index);
      const span = spans[index];
      if (span !== undefined && day.date >= span.from) {
        span.count += day.day_n;
        span.sumCents += day.day_cents;
      }
    }
    const limited = options.setLimit === undefined ? runs : runs.slice(0, options.setLimit);
    // A run's transactions through the time index: posted times a day either side of its
    // bank dates (a bank date and a UTC posting time may fall on different days), then the dates.
    const items = this.#database.prepare(
      `SELECT p.row_key AS ref, p.posted_at AS posted_at, p.date AS date, p.amount_cents AS amount_cents
       FROM pending_transactions AS p
       WHERE p.scope = ? AND p.posted_at >= ? AND p.posted_at < ? AND p.date BETWEEN ? AND ?
         AND ${filter.where.join(' AND ')}
       ORDER BY p.posted_at, p.row_key`,
    );
    const sets: AccountWindowSet[] = limited.map((span) => {
      const rows = items.all(
        span.scope,
        shiftedDate(span.from, -1),
        shiftedDate(span.to, 2),
        span.from,
        span.to,
        ...filter.parameters,
      ) as {
        ref: string;
        posted_at: string;
        date: string;
        amount_cents: number;
      }[];
      return {
        kind: 'account-window',
        accountId: span.accountId,
        from: span.from,
        to: span.to,
        count: span.count,
        sumCents: span.sumCents,
        items: rows.map((row) => ({
          ref: row.ref,
          accountId: span.accountId,
          postedAt: row.posted_at,
          date: row.date,
          amountCents: row.amount_cents,
        })),
      };
    });
    return { sets, setCount: runs.length, itemCount: runs.reduce((total, span) => total + span.count, 0) };
  }

  #sharedField(profileId: string, rule: SharedApplicantFieldRule, options: EvaluateOptions): PatternEvaluation {
    this.#digests?.fillPending();
    const rows = this.#database
      .prepare(
        `SELECT d.digest AS digest,
           json_group_array(DISTINCT l.application_id) AS applications,
           json_group_array(DISTINCT d.applicant_id) AS applicants
         FROM applicant_field_digests AS d
         JOIN application_applicants AS l ON l.profile_id = d.profile_id AND l.applicant_id = d.applicant_id
         WHERE d.profile_id = ? AND d.field = ?
         GROUP BY d.digest
         HAVING count(DISTINCT d.applicant_id) >= 2 AND count(DISTINCT l.application_id) >= ?
         ORDER BY count(DISTINCT l.application_id) DESC, d.digest`,
      )
      .all(profileId, rule.field, rule.applicationsAtLeast) as {
      digest: string;
      applications: string;
      applicants: string;
    }[];
    const sets: SharedFieldSet[] = rows.map((row) => ({
      kind: 'shared-field',
      field: rule.field,
      valueRef: row.digest.slice(0, 8),
      applications: (JSON.parse(row.applications) as string[]).sort(),
      applicants: (JSON.parse(row.applicants) as string[]).sort(),
    }));
    return {
      sets: options.setLimit === undefined ? sets : sets.slice(0, options.setLimit),
      setCount: sets.length,
      itemCount: new Set(sets.flatMap((set) => set.applications)).size,
    };
  }
}
