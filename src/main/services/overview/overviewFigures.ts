/**
 * The Overview's figures, each one grouped read of the offline cache (SQL over the columns
 * kept in clear: no sealed body is opened, no row leaves main). See
 * shared/ipc/domains/overview.ts for what each figure means.
 *
 * Costs, on a million cached pending transactions (docs/officer-desk.md, "Speed"):
 * - totals per account and reviews by state: the counts kept with the writes (migration 20);
 * - volume by day: the 30 latest dates with records of each account (or the dates chosen) in
 *   pending_transaction_days (kept with the writes, migration 20): about 90 rows per account,
 *   never the rows themselves;
 * - a person's dispositions per day: review_days, kept with the history (migration 25): at most
 *   90 rows for the 30 days, never a walk of the history;
 * - deliveries: the 7-day range of webhook_sends_by_time, then each send's webhook and status.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  OVERVIEW_DAYS,
  type ListFreshness,
  type OverviewData,
  type PendingAccount,
  type PendingDay,
  type ReviewDay,
  type ReviewProgress,
  type WebhookDeliveries,
} from '../../../shared/ipc/domains/overview.ts';
import { REVIEW_KINDS, type ReviewKind } from '../../../shared/review/reviewTerms.ts';
import { keptHitCount } from '../screening/screeningHits.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC date `days` before (negative) or after a date (YYYY-MM-DD). */
export function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Every date from `from` to `to`, both included. */
function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = shiftDate(date, 1)) dates.push(date);
  return dates;
}

const SQL = {
  // Rows per account as kept with the writes (cache migration 20), not counted here.
  scopes: `SELECT s.id, s.account_id, coalesce(c.total, 0) AS total FROM pending_transaction_scopes AS s
    LEFT JOIN pending_transaction_counts AS c ON c.scope = s.id
    WHERE s.profile_id = ? ORDER BY s.account_id`,
  // Volume by day as kept with the writes (migration 20): a few rows per account and day.
  // The latest dates that have records, newest first (the default window: gaps left out).
  recentDates: `SELECT DISTINCT date FROM pending_transaction_days WHERE scope = ? AND n > 0 ORDER BY date DESC LIMIT ?`,
  // Holds (and their releases) are money set aside, not money moved: counted apart from
  // credits and debits, whatever their sign.
  byDay: `SELECT date, flow, n, cents FROM pending_transaction_days
    WHERE scope = ? AND date >= ? AND date <= ? AND n > 0`,
  reviewStates: `SELECT kind, state, by_rule, sum(total) AS n
    FROM review_counts WHERE profile_id = ? AND row_listed = 1 GROUP BY kind, state, by_rule`,
  applicationCount: `SELECT count(*) AS n FROM account_applications WHERE profile_id = ?`,
  sendCount: `SELECT count(*) AS n FROM webhook_sends WHERE profile_id = ?`,
  webhookCount: `SELECT count(*) AS n FROM webhooks WHERE profile_id = ?`,
  // A person's dispositions per day, as kept with the history (cache migration 25): at most
  // 3 rows a day, whatever the officer's work.
  reviewDays: `SELECT date, state, n FROM review_days WHERE profile_id = ? AND date >= ? AND n > 0`,
  deliveries: `SELECT webhook_id, status, created_at >= ? AS today, count(*) AS n,
      sum(attempt_number > 0) AS retries
    FROM webhook_sends INDEXED BY webhook_sends_by_time
    WHERE profile_id = ? AND created_at >= ?
    GROUP BY webhook_id, status, today`,
  webhookEvents: `SELECT webhook_id, event FROM webhooks WHERE profile_id = ?`,
  syncs: `SELECT kind, key, state, last_success_at FROM sync_state WHERE profile_id = ? ORDER BY started_at`,
} as const;

type Statements = Record<keyof typeof SQL, StatementSync>;

interface Scope {
  id: number;
  account_id: string;
  total: number;
}

type SyncRow = {
  kind: string;
  key: string;
  state: 'running' | 'done' | 'cancelled' | 'failed';
  last_success_at: string | null;
};

function emptyDeliveries() {
  return { sent: 0, failed: 0, skipped: 0, retries: 0 };
}

function emptyDay(date: string): PendingDay {
  return { date, credits: { count: 0, cents: 0 }, debits: { count: 0, cents: 0 }, holds: { count: 0, cents: 0 } };
}

export class OverviewFigures {
  readonly #database: DatabaseSync;
  #statements: Statements | undefined;

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  /**
   * Every figure of the Overview of one profile, read in one transaction (one consistent view).
   * @param chosen the dates of the volume by day the officer chose (both included); absent: the
   *   30 latest dates of each account that have records
   */
  read(profileId: string, now: Date = new Date(), chosen?: { from: string; to: string }): OverviewData {
    const statements = this.#prepared();
    this.#database.exec('SAVEPOINT overview_figures');
    try {
      const scopes = statements.scopes.all(profileId) as unknown as Scope[];
      const counts = new Map(scopes.map((scope) => [scope.id, scope.total] as const));
      const pending = this.#pendingByDay(scopes, counts, chosen);
      const totals: Record<ReviewKind, number> = {
        'pending-transaction': [...counts.values()].reduce((sum, n) => sum + n, 0),
        application: (statements.applicationCount.get(profileId) as { n: number }).n,
        'webhook-send': (statements.sendCount.get(profileId) as { n: number }).n,
        'screening-hit': keptHitCount(this.#database, profileId),
      };
      return {
        readAt: now.toISOString(),
        progress: this.#progress(profileId, totals),
        reviewDays: this.#reviewDays(profileId, now),
        pendingWindow: pending.window,
        pendingByAccount: pending.accounts,
        deliveries: this.#deliveries(profileId, now),
        freshness: this.#freshness(profileId, scopes, counts, totals),
      };
    } finally {
      this.#database.exec('RELEASE overview_figures');
    }
  }

  #prepared(): Statements {
    this.#statements ??= Object.fromEntries(
      Object.entries(SQL).map(([name, sql]) => [name, this.#database.prepare(sql)]),
    ) as Statements;
    return this.#statements;
  }

  #pendingByDay(
    scopes: readonly Scope[],
    counts: ReadonlyMap<number, number>,
    chosen: { from: string; to: string } | undefined,
  ): { window: { from: string; to: string; chosen: boolean } | null; accounts: PendingAccount[] } {
    const statements = this.#prepared();
    const cached = scopes.filter((scope) => (counts.get(scope.id) ?? 0) > 0);
    const accounts: PendingAccount[] = [];
    let from: string | null = null;
    let to: string | null = null;
    for (const scope of cached) {
      // The dates shown: every date chosen, or the latest 30 with records (a gap of months is
      // not 30 empty days in front of the records).
      const dates =
        chosen === undefined
          ? (statements.recentDates.all(scope.id, OVERVIEW_DAYS) as { date: string }[]).map((row) => row.date).reverse()
          : datesBetween(chosen.from, chosen.to);
      const first = dates[0];
      const last = dates.at(-1);
      if (first === undefined || last === undefined) continue;
      if (from === null || first < from) from = first;
      if (to === null || last > to) to = last;
      const byDate = new Map(dates.map((date) => [date, emptyDay(date)] as const));
      const rows = statements.byDay.all(scope.id, first, last) as unknown as {
        date: string;
        flow: 'credits' | 'debits' | 'holds';
        n: number;
        cents: number;
      }[];
      for (const row of rows) {
        const day = byDate.get(row.date);
        if (day !== undefined) day[row.flow] = { count: row.n, cents: row.cents };
      }
      accounts.push({ accountId: scope.account_id, days: [...byDate.values()] });
    }
    if (chosen !== undefined) return { window: { ...chosen, chosen: true }, accounts };
    return { window: from === null || to === null ? null : { from, to, chosen: false }, accounts };
  }

  #progress(profileId: string, totals: Record<ReviewKind, number>): ReviewProgress[] {
    const rows = this.#prepared().reviewStates.all(profileId) as unknown as {
      kind: ReviewKind;
      state: string;
      by_rule: number;
      n: number;
    }[];
    return REVIEW_KINDS.map((kind) => {
      const progress: ReviewProgress = {
        kind,
        total: totals[kind],
        cleared: 0,
        flaggedByPerson: 0,
        escalated: 0,
        changed: 0,
        flaggedByRule: 0,
        unreviewed: 0,
      };
      for (const row of rows) {
        if (row.kind !== kind) continue;
        if (row.state === 'cleared') progress.cleared += row.n;
        else if (row.state === 'escalated') progress.escalated += row.n;
        else if (row.state === 'changed') progress.changed += row.n;
        else if (row.by_rule === 1) progress.flaggedByRule += row.n;
        else progress.flaggedByPerson += row.n;
      }
      const reviewed =
        progress.cleared + progress.escalated + progress.changed + progress.flaggedByRule + progress.flaggedByPerson;
      progress.unreviewed = Math.max(0, progress.total - reviewed);
      return progress;
    });
  }

  #reviewDays(profileId: string, now: Date): ReviewDay[] {
    const today = now.toISOString().slice(0, 10);
    const from = shiftDate(today, -(OVERVIEW_DAYS - 1));
    const days = new Map<string, ReviewDay>(
      datesBetween(from, today).map((date) => [date, { date, cleared: 0, flagged: 0, escalated: 0 }]),
    );
    const rows = this.#prepared().reviewDays.all(profileId, from) as unknown as {
      date: string;
      state: 'cleared' | 'flagged' | 'escalated';
      n: number;
    }[];
    for (const row of rows) {
      const day = days.get(row.date);
      if (day !== undefined) day[row.state] += row.n;
    }
    return [...days.values()];
  }

  #deliveries(profileId: string, now: Date): WebhookDeliveries[] {
    const statements = this.#prepared();
    const dayAgo = new Date(now.getTime() - DAY_MS).toISOString();
    const weekAgo = new Date(now.getTime() - 7 * DAY_MS).toISOString();
    const events = new Map(
      (statements.webhookEvents.all(profileId) as unknown as { webhook_id: string; event: string }[]).map(
        (row) => [row.webhook_id, row.event] as const,
      ),
    );
    const rows = statements.deliveries.all(dayAgo, profileId, weekAgo) as unknown as {
      webhook_id: string;
      status: string;
      today: number;
      n: number;
      retries: number;
    }[];
    const byWebhook = new Map<string, WebhookDeliveries>();
    for (const row of rows) {
      let entry = byWebhook.get(row.webhook_id);
      if (entry === undefined) {
        entry = {
          webhookId: row.webhook_id,
          event: events.get(row.webhook_id) ?? null,
          day: emptyDeliveries(),
          week: emptyDeliveries(),
        };
        byWebhook.set(row.webhook_id, entry);
      }
      for (const window of row.today === 1 ? [entry.day, entry.week] : [entry.week]) {
        if (row.status === 'sent') window.sent += row.n;
        else if (row.status === 'error') window.failed += row.n;
        else window.skipped += row.n;
        window.retries += row.retries;
      }
    }
    return [...byWebhook.values()].sort((a, b) => (a.webhookId < b.webhookId ? -1 : 1));
  }

  #freshness(
    profileId: string,
    scopes: readonly Scope[],
    counts: ReadonlyMap<number, number>,
    totals: Record<ReviewKind, number>,
  ): ListFreshness[] {
    const statements = this.#prepared();
    const syncs = statements.syncs.all(profileId) as unknown as SyncRow[];
    /** The latest completed sync among those matching, and the state of the most recent one. */
    const of = (match: (sync: SyncRow) => boolean): Pick<ListFreshness, 'syncedAt' | 'lastState'> => {
      let syncedAt: string | null = null;
      let lastState: ListFreshness['lastState'] = null;
      for (const sync of syncs.filter(match)) {
        if (sync.last_success_at !== null && (syncedAt === null || sync.last_success_at > syncedAt)) {
          syncedAt = sync.last_success_at;
        }
        lastState = sync.state;
      }
      return { syncedAt, lastState };
    };
    const lists: ListFreshness[] = scopes.map((scope) => ({
      list: 'pending-transactions',
      scope: scope.account_id,
      ...of((sync) => sync.kind === 'pending-transactions' && sync.key.endsWith(`/${scope.account_id}`)),
      rows: counts.get(scope.id) ?? 0,
    }));
    lists.push(
      {
        list: 'webhook-sends',
        scope: null,
        ...of((sync) => sync.kind === 'webhook-sends'),
        rows: totals['webhook-send'],
      },
      {
        list: 'applications',
        scope: null,
        ...of((sync) => sync.kind === 'applications' || sync.kind === 'account-application'),
        rows: totals.application,
      },
      {
        list: 'webhooks',
        scope: null,
        ...of((sync) => sync.kind === 'webhooks'),
        rows: (statements.webhookCount.get(profileId) as { n: number }).n,
      },
    );
    return lists;
  }
}
