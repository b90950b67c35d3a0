/**
 * The officer's one queue: every item of a profile waiting for a person, across every account
 * and kind (unreviewed, flagged by a person or by a watch rule, escalated, changed since its
 * review), with what was cleared kept browsable. Reviewed parts are read through the reviews
 * table's own list (ReviewService.list), so each row is opened as every other review read
 * opens it; unreviewed pending transactions are merged across accounts (unreviewedPending.ts);
 * unreviewed applications and sends are their lists' own unreviewed reads. Counts by state,
 * kind and account are the counts kept with the writes (cache migration 20), or, behind a time,
 * amount or rule filter, index counts in SQL: never a walk of rows.
 *
 * Account, time and amount belong to pending transactions: with any of them set, the queue
 * holds pending transactions only. A rule's name selects the items that rule flagged.
 */
import { emptyQueueCounts, firstWaiting, QUEUE_STATES, type QueueState } from '../../../shared/review/queueTerms.ts';
import { REVIEW_KINDS, type ReviewKind, type ReviewState } from '../../../shared/review/reviewTerms.ts';
import type { CacheRead } from '../cache/cacheRead.ts';
import { KeptCounts } from '../cache/keptCounts.ts';
import { notOurCursor } from '../cache/keysetCursor.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import { asOfFor } from '../cache/syncCheckpoints.ts';
import { queueClauses, type QueueNarrowing } from './queueFilterSql.ts';
import type { ReviewService } from './reviewService.ts';
import type { Review } from './reviewsTable.ts';
import { UnreviewedPending } from './unreviewedPending.ts';
import { ScreeningHits } from '../screening/screeningHits.ts';

export interface QueueFilter extends Omit<QueueNarrowing, 'byRule'> {
  profileId: string;
  kind?: ReviewKind | undefined;
}

export interface QueueQuery extends QueueFilter {
  state: QueueState;
  limit?: number;
  cursor?: string | null;
}

/** One item of the queue: what it is, where (a pending transaction's account), its review and record. */
export interface QueueItem {
  kind: ReviewKind;
  ref: string;
  accountId: string | null;
  state: QueueState;
  review: Review | null;
  /** The record as reviewed (a person's review) or as cached (unreviewed, a rule's flag). */
  record: unknown;
}

export type StateCounts = Record<QueueState, number>;

export interface QueueCounts {
  /** Every kind together. */
  states: StateCounts;
  kinds: Record<ReviewKind, StateCounts>;
  /** Pending transactions, per account (accounts with cached rows or reviews). */
  accounts: { accountId: string; states: StateCounts }[];
  /** The part the queue opens on: the first holding items (changed and flagged first). */
  openOn: QueueState | null;
  /** Accounts with cached pending transactions (the account filter's choices). */
  accountIds: string[];
}

const REVIEWED_PART: Record<Exclude<QueueState, 'unreviewed'>, { state: ReviewState; byRule?: boolean }> = {
  changed: { state: 'changed' },
  'flagged-by-person': { state: 'flagged', byRule: false },
  'flagged-by-rule': { state: 'flagged', byRule: true },
  escalated: { state: 'escalated' },
  cleared: { state: 'cleared' },
};

function queueStateOf(state: ReviewState, byRule: boolean): QueueState {
  if (state === 'flagged') return byRule ? 'flagged-by-rule' : 'flagged-by-person';
  return state;
}

/** Set when a filter narrows the items by time, amount or rule: the kept counts cannot answer it. */
function narrowed(filter: QueueFilter): boolean {
  return [filter.itemFrom, filter.itemTo, filter.minAmountCents, filter.maxAmountCents, filter.ruleName].some(
    (value) => value !== undefined,
  );
}

/** Set when the filters are a pending transaction's alone (the other kinds have none of them). */
function pendingOnly(filter: QueueNarrowing): boolean {
  return [filter.accountId, filter.itemFrom, filter.itemTo, filter.minAmountCents, filter.maxAmountCents].some(
    (value) => value !== undefined,
  );
}

export class ReviewQueue {
  readonly #cache: OfflineCache;
  readonly #reviews: ReviewService;
  readonly #pending: UnreviewedPending;
  readonly #kept: KeptCounts;
  readonly #hits: ScreeningHits;

  constructor(cache: OfflineCache, reviews: ReviewService) {
    this.#cache = cache;
    this.#reviews = reviews;
    this.#pending = new UnreviewedPending(cache.database, () => cache.sealer);
    this.#kept = new KeptCounts(cache.database);
    this.#hits = new ScreeningHits(cache.database, () => cache.recordSealer);
  }

  /** The kinds the filter keeps, in the queue's order. */
  kindsOf(filter: QueueFilter): ReviewKind[] {
    const kinds = filter.kind === undefined ? [...REVIEW_KINDS] : [filter.kind];
    return pendingOnly(filter) ? kinds.filter((kind) => kind === 'pending-transaction') : kinds;
  }

  counts(filter: QueueFilter): QueueCounts {
    const kinds = this.kindsOf(filter);
    const byKind = Object.fromEntries(REVIEW_KINDS.map((kind) => [kind, emptyQueueCounts()])) as Record<
      ReviewKind,
      StateCounts
    >;
    const byAccount = new Map<string, StateCounts>();
    const accountCounts = (accountId: string): StateCounts => {
      let counts = byAccount.get(accountId);
      if (counts === undefined) {
        counts = emptyQueueCounts();
        byAccount.set(accountId, counts);
      }
      return counts;
    };
    if (!narrowed(filter)) {
      // No time, amount or rule: the counts kept with the writes (cache migration 20) answer.
      const kept = this.#kept.reviews(filter.profileId, filter.accountId);
      const listedReviews = new Map<string, number>();
      for (const count of kept) {
        if (!kinds.includes(count.kind)) continue;
        const state = queueStateOf(count.state, count.byRule);
        byKind[count.kind][state] += count.total;
        if (count.kind === 'pending-transaction' && count.accountId !== null) {
          accountCounts(count.accountId)[state] += count.total;
          if (count.rowListed)
            listedReviews.set(count.accountId, (listedReviews.get(count.accountId) ?? 0) + count.total);
        }
      }
      if (kinds.includes('pending-transaction')) {
        for (const [accountId, rows] of this.#kept.pendingRowsByAccount(filter.profileId, filter.accountId)) {
          const unreviewed = rows - (listedReviews.get(accountId) ?? 0);
          accountCounts(accountId).unreviewed += unreviewed;
          byKind['pending-transaction'].unreviewed += unreviewed;
        }
      }
      this.#unreviewedOtherKinds(filter, kinds, byKind);
      return this.#summed(filter, byKind, byAccount);
    }
    if (kinds.length > 0) {
      const narrowing = queueClauses(filter);
      const rows = this.#cache.database
        .prepare(
          `SELECT kind, state, rule_name IS NOT NULL AS by_rule, account_id, COUNT(*) AS total
           FROM reviews INDEXED BY reviews_by_queue_part
           WHERE profile_id = ? AND kind IN (SELECT value FROM json_each(?))
             ${narrowing.where.map((clause) => `AND ${clause}`).join(' ')}
           GROUP BY kind, state, by_rule, account_id`,
        )
        .all(filter.profileId, JSON.stringify(kinds), ...narrowing.parameters) as {
        kind: ReviewKind;
        state: ReviewState;
        by_rule: number;
        account_id: string | null;
        total: number;
      }[];
      for (const row of rows) {
        const state = queueStateOf(row.state, row.by_rule === 1);
        byKind[row.kind][state] += row.total;
        if (row.kind === 'pending-transaction' && row.account_id !== null)
          accountCounts(row.account_id)[state] += row.total;
      }
    }
    // The unreviewed have no review, so no rule flagged them.
    if (filter.ruleName === undefined) {
      if (kinds.includes('pending-transaction')) {
        for (const [accountId, count] of this.#pending.countByAccount(filter)) {
          accountCounts(accountId).unreviewed += count;
          byKind['pending-transaction'].unreviewed += count;
        }
      }
      this.#unreviewedOtherKinds(filter, kinds, byKind);
    }
    return this.#summed(filter, byKind, byAccount);
  }

  /** Unreviewed applications and sends: their lists' own unreviewed counts. */
  #unreviewedOtherKinds(
    filter: QueueFilter,
    kinds: readonly ReviewKind[],
    byKind: Record<ReviewKind, StateCounts>,
  ): void {
    if (kinds.includes('application')) {
      byKind.application.unreviewed = this.#cache.accountApplications.count({
        profileId: filter.profileId,
        review: 'unreviewed',
      });
    }
    if (kinds.includes('webhook-send')) {
      byKind['webhook-send'].unreviewed = this.#cache.webhookSends.count({
        profileId: filter.profileId,
        review: 'unreviewed',
      });
    }
    if (kinds.includes('screening-hit')) {
      byKind['screening-hit'].unreviewed = this.#hits.countUnreviewed(filter.profileId);
    }
  }

  #summed(
    filter: QueueFilter,
    byKind: Record<ReviewKind, StateCounts>,
    byAccount: ReadonlyMap<string, StateCounts>,
  ): QueueCounts {
    const states = emptyQueueCounts();
    for (const kind of REVIEW_KINDS) for (const state of QUEUE_STATES) states[state] += byKind[kind][state];
    return {
      states,
      kinds: byKind,
      accounts: [...byAccount.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([accountId, counts]) => ({ accountId, states: counts })),
      openOn: firstWaiting(states),
      accountIds: this.accounts(filter.profileId),
    };
  }

  /** A page of one part of the queue, every kind the filter keeps (in the queue's kind order). */
  list(query: QueueQuery): CacheRead<QueueItem> {
    if (query.state !== 'unreviewed') return this.#reviewed(query, query.state);
    const kinds = query.ruleName === undefined ? this.kindsOf(query) : [];
    const limit = query.limit ?? 100;
    let position = query.cursor === undefined || query.cursor === null ? null : kindCursorOf(query.cursor, kinds);
    const rows: QueueItem[] = [];
    let asOf: string | null = null;
    for (let index = position === null ? 0 : kinds.indexOf(position.kind); index < kinds.length; index += 1) {
      const kind = kinds[index];
      if (kind === undefined) break;
      const page = this.#unreviewed(query, kind, limit - rows.length, position?.cursor ?? null);
      rows.push(...page.rows);
      asOf ??= page.asOf;
      position = null;
      if (page.nextCursor !== null) {
        return { rows, nextCursor: kindCursor(kind, page.nextCursor), asOf, source: 'cache' };
      }
      const following = kinds[index + 1];
      if (rows.length >= limit) {
        return {
          rows,
          nextCursor: following === undefined ? null : kindCursor(following, null),
          asOf,
          source: 'cache',
        };
      }
    }
    return { rows, nextCursor: null, asOf, source: 'cache' };
  }

  #reviewed(query: QueueQuery, state: Exclude<QueueState, 'unreviewed'>): CacheRead<QueueItem> {
    const part = REVIEWED_PART[state];
    const kinds = this.kindsOf(query);
    if (kinds.length === 0 || (query.ruleName !== undefined && state !== 'flagged-by-rule'))
      return { rows: [], nextCursor: null, asOf: null, source: 'cache' };
    const page = this.#reviews.list({
      profileId: query.profileId,
      ...(kinds.length === 1 && kinds[0] !== undefined ? { kind: kinds[0] } : {}),
      state: part.state,
      ...(part.byRule === undefined ? {} : { byRule: part.byRule }),
      accountId: query.accountId,
      ruleName: query.ruleName,
      itemFrom: query.itemFrom,
      itemTo: query.itemTo,
      minAmountCents: query.minAmountCents,
      maxAmountCents: query.maxAmountCents,
      limit: query.limit ?? 100,
      cursor: query.cursor ?? null,
    });
    return {
      ...page,
      rows: page.rows.map(({ record, accountId, ...review }) => ({
        kind: review.kind,
        ref: review.ref,
        accountId,
        state,
        review,
        record,
      })),
    };
  }

  #unreviewed(query: QueueQuery, kind: ReviewKind, limit: number, cursor: string | null): CacheRead<QueueItem> {
    const profileId = query.profileId;
    if (kind === 'pending-transaction') {
      const page = this.#pending.list({ ...query, limit, cursor });
      return {
        ...page,
        asOf: this.#pendingAsOf(profileId, query.accountId),
        rows: page.rows.map((row) => ({
          kind,
          ref: row.ref,
          accountId: row.accountId,
          state: 'unreviewed',
          review: null,
          record: row.record,
        })),
      };
    }
    if (kind === 'application') {
      const page = this.#cache.accountApplications.list({ profileId, review: 'unreviewed', limit, cursor });
      return {
        ...page,
        rows: page.rows.map((row) => ({
          kind,
          ref: row.id,
          accountId: null,
          state: 'unreviewed',
          review: null,
          record: row,
        })),
      };
    }
    if (kind === 'screening-hit') {
      // Kept hits no one has reviewed, in ref order; the cursor is the last ref given.
      const hits = this.#hits.unreviewed(profileId, limit + 1, cursor);
      const page = hits.slice(0, limit);
      return {
        rows: page.map((hit) => ({
          kind,
          ref: hit.ref,
          accountId: null,
          state: 'unreviewed' as const,
          review: null,
          record: hit.record,
        })),
        nextCursor: hits.length > limit ? (page.at(-1)?.ref ?? null) : null,
        asOf: null,
        source: 'cache',
      };
    }
    const page = this.#cache.webhookSends.list({ profileId, review: 'unreviewed', limit, cursor });
    return {
      ...page,
      rows: page.rows.map((row) => ({
        kind,
        ref: row.id,
        accountId: null,
        state: 'unreviewed',
        review: null,
        record: row,
      })),
    };
  }

  /** The oldest sync among the accounts listed: the queue is as fresh as its stalest account. */
  #pendingAsOf(profileId: string, accountId: string | undefined): string | null {
    // The profile's completed syncs are read once, then matched to each account.
    const completed = this.#cache.checkpoints.completed(profileId, 'pending-transactions');
    let oldest: string | null = null;
    for (const scope of this.#pending.scopes(profileId, accountId)) {
      const asOf = asOfFor(completed, { accountId: scope.account_id, fromDate: undefined, toDate: undefined });
      if (asOf === null) return null;
      if (oldest === null || asOf < oldest) oldest = asOf;
    }
    return oldest;
  }

  /** Accounts the queue knows for the profile: those with cached rows. */
  accounts(profileId: string): string[] {
    return this.#cache.pendingTransactions.accounts(profileId);
  }
}

/** The unreviewed part pages through kinds in turn: the cursor says which kind, and where in it. */
function kindCursor(kind: ReviewKind, cursor: string | null): string {
  return Buffer.from(JSON.stringify({ kind, cursor }), 'utf8').toString('base64url');
}

function kindCursorOf(text: string, kinds: readonly ReviewKind[]): { kind: ReviewKind; cursor: string | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw notOurCursor();
  }
  const { kind, cursor } = (parsed ?? {}) as { kind?: unknown; cursor?: unknown };
  if (typeof kind !== 'string' || !kinds.includes(kind as ReviewKind)) throw notOurCursor();
  if (cursor !== null && typeof cursor !== 'string') throw notOurCursor();
  return { kind: kind as ReviewKind, cursor };
}
