/**
 * The review filter of the pending-transactions list on a real cache file: every read path
 * (a state's reviews walked in time order, the sparse hits for an amount sort, the check of
 * each walked row for "unreviewed") pages through exactly the rows an in-memory filter of
 * the whole list keeps, in the same order, with other filters beside it; counts agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingTransaction } from '../../../src/shared/bank/index.ts';
import { REVIEW_FILTERS, type ReviewFilter } from '../../../src/shared/review/reviewTerms.ts';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import type {
  PendingTransactionRow,
  PendingTransactionSort,
} from '../../../src/main/services/cache/pendingTransactionsTable.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { ReviewService } from '../../../src/main/services/review/reviewService.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const PROFILE = 'prof_review';
const ACCOUNT = 'acct_review';
const ROWS = 3000;

let temp: { folder: string; remove: () => void };
let cache: OfflineCache;
let reviews: ReviewService;
/** Each row's review state as given below; absent: unreviewed. */
const stateOf = new Map<string, ReviewFilter>();

function transactionOf(n: number): PendingTransaction {
  // Several rows share a second, so ties are broken by the row key.
  const moment = new Date(Date.UTC(2026, 0, 31) - Math.floor(n / 3) * 60_000).toISOString();
  const cents = (n * 7919) % 90_000;
  return {
    account_id: ACCOUNT,
    ach_id: null,
    amount: `-${String(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, '0')}`,
    balance: '100.00',
    billpay_payment_id: null,
    book_id: null,
    card_id: null,
    category: null,
    check_id: null,
    check_number: null,
    date: moment.slice(0, 10),
    desc: `SHOP ${String(n % 17)}`,
    extended_timestamp: moment.slice(0, 19) + 'Z',
    extended_timestamp_precise: moment.slice(0, 19) + 'Z',
    fednow_id: null,
    partner_deposit_id: null,
    incoming_ach_id: null,
    incoming_wire_id: null,
    issued_check_id: null,
    network_transfer_id: null,
    related_transfer_ids: [],
    summary: `row ${String(n)}`,
    trace_id: null,
    type: n % 4 === 0 ? 'hold' : 'charge',
    type_source: 'card',
    wire_id: null,
  };
}

function everyRow(sort: PendingTransactionSort, extra: { type?: 'hold' } = {}): PendingTransactionRow[] {
  const rows: PendingTransactionRow[] = [];
  let cursor: string | null = null;
  do {
    const page = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: ACCOUNT,
      sort,
      limit: 1000,
      cursor,
      ...extra,
    });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

function pagedKeys(sort: PendingTransactionSort, review: ReviewFilter, extra: { type?: 'hold' } = {}): string[] {
  const keys: string[] = [];
  let cursor: string | null = null;
  do {
    const page = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: ACCOUNT,
      sort,
      review,
      limit: 37,
      cursor,
      ...extra,
    });
    expect(page.rows.length).toBeLessThanOrEqual(37);
    keys.push(...page.rows.map((row) => row.row_key));
    cursor = page.nextCursor;
    // A cursor that never ends the list is a failure, not a hang.
    if (keys.length > ROWS) throw new Error(`paging ${sort} ${review} went past ${String(ROWS)} rows`);
  } while (cursor !== null);
  return keys;
}

beforeAll(async () => {
  temp = makeTempFolder('ledgerdesk-review-filter-');
  cache = await OfflineCache.open({
    folder: temp.folder,
    credentials: new Credentials(new InMemorySecretStore()),
    writer: 'inline',
  });
  reviews = new ReviewService({ cache, profileName: () => 'Review filter' });
  const { checkpoint } = cache.checkpoints.begin(PROFILE, 'pending-transactions', 'k', '{}', new Date().toISOString());
  const all = Array.from({ length: ROWS }, (_, n) => transactionOf(n));
  cache.transaction(() => cache.pendingTransactions.writePage(PROFILE, ACCOUNT, all, checkpoint.generation));
  const keys = everyRow('newest').map((row) => row.row_key);
  const pick = (every: number, offset: number) => keys.filter((_, index) => index % every === offset);
  const give = (refs: string[], disposition: 'cleared' | 'flagged' | 'escalated') => {
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs, disposition });
    for (const ref of refs) stateOf.set(ref, disposition);
  };
  give(pick(7, 1), 'cleared');
  give(pick(11, 2), 'flagged');
  give(pick(53, 3), 'escalated');
  const changed = pick(97, 4);
  give(changed, 'cleared');
  cache.transaction(() => {
    for (const ref of changed) {
      reviews.markChanged(PROFILE, 'pending-transaction', ref, [], new Date().toISOString());
      stateOf.set(ref, 'changed');
    }
  });
  // A rule's flag is "flagged" too.
  reviews.saveRule(PROFILE, { name: 'Big', kind: 'pending-transaction', amountBeyond: '-880.00' });
  reviews.afterSync(PROFILE, 'pending-transactions');
  for (const row of everyRow('newest')) {
    if (!stateOf.has(row.row_key) && Number(row.amount) <= -880) stateOf.set(row.row_key, 'flagged');
  }
});

afterAll(async () => {
  await cache.close();
  temp.remove();
});

describe('the review filter of pending transactions', () => {
  for (const sort of ['newest', 'oldest', 'largest'] as const) {
    it(`pages through exactly the rows of each state, in order (${sort})`, () => {
      const ordered = everyRow(sort);
      for (const review of REVIEW_FILTERS) {
        const expected = ordered
          .filter((row) => (stateOf.get(row.row_key) ?? 'unreviewed') === review)
          .map((row) => row.row_key);
        expect(expected.length, review).toBeGreaterThan(0);
        expect(pagedKeys(sort, review), `${sort} ${review}`).toEqual(expected);
      }
    });
  }

  it('keeps the other filters beside a review state, and counts agree', () => {
    const holds = everyRow('newest', { type: 'hold' });
    for (const review of REVIEW_FILTERS) {
      const expected = holds
        .filter((row) => (stateOf.get(row.row_key) ?? 'unreviewed') === review)
        .map((row) => row.row_key);
      expect(pagedKeys('newest', review, { type: 'hold' })).toEqual(expected);
      expect(
        cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT, type: 'hold', review }),
        review,
      ).toBe(expected.length);
      const all = [...stateOf.values()].filter((state) => state === review).length;
      expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT, review })).toBe(
        review === 'unreviewed' ? ROWS - stateOf.size : all,
      );
    }
  });

  it('refuses a cursor of another review filter', () => {
    const first = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: ACCOUNT,
      review: 'cleared',
      limit: 5,
    });
    expect(() =>
      cache.pendingTransactions.list({
        profileId: PROFILE,
        accountId: ACCOUNT,
        review: 'flagged',
        limit: 5,
        cursor: first.nextCursor,
      }),
    ).toThrow();
  });
});

describe('the count behind a review filter when rows leave the cache and come back', () => {
  const OTHER = 'acct_review_swept';

  function rowsOf(transactions: PendingTransaction[], key: string): void {
    const { checkpoint } = cache.checkpoints.begin(
      PROFILE,
      'pending-transactions',
      key,
      '{}',
      new Date().toISOString(),
    );
    cache.transaction(() => {
      cache.pendingTransactions.writePage(PROFILE, OTHER, transactions, checkpoint.generation);
      cache.pendingTransactions.sweep(PROFILE, OTHER, checkpoint.generation, {});
    });
  }

  /** What each filter must count: the account's cached rows, each with its review's state. */
  function expectedCounts(): Record<string, number> {
    const keys: string[] = [];
    let cursor: string | null = null;
    do {
      const page = cache.pendingTransactions.list({ profileId: PROFILE, accountId: OTHER, limit: 1000, cursor });
      keys.push(...page.rows.map((row) => row.row_key));
      cursor = page.nextCursor;
    } while (cursor !== null);
    const states = reviews.table.ofRefs(PROFILE, 'pending-transaction', keys);
    const counts: Record<string, number> = { reviewed: states.size };
    for (const review of REVIEW_FILTERS) {
      counts[review] = keys.filter((key) => (states.get(key)?.state ?? 'unreviewed') === review).length;
    }
    return counts;
  }

  function counted(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const review of [...REVIEW_FILTERS, 'reviewed'] as const) {
      counts[review] = cache.pendingTransactions.count({ profileId: PROFILE, accountId: OTHER, review });
    }
    return counts;
  }

  it('counts only reviews whose row is cached, and counts them again when the bank lists them again', () => {
    const all = Array.from({ length: 30 }, (_, n) => ({ ...transactionOf(5000 + n), account_id: OTHER }));
    rowsOf(all, 'swept-1');
    const oldest = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: OTHER,
      limit: 100,
      sort: 'oldest',
    }).rows;
    const keys = oldest.map((row) => row.row_key);
    expect(keys).toHaveLength(30);
    // The ten oldest rows reviewed, five of them about to leave the cache.
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs: keys.slice(0, 5), disposition: 'cleared' });
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs: keys.slice(5, 10), disposition: 'flagged' });
    expect(counted()).toEqual({ ...expectedCounts(), cleared: 5, flagged: 5, unreviewed: 20, reviewed: 10 });

    // The bank stops listing the oldest three (posted): their reviews stay, their rows go.
    const posted = new Set(oldest.slice(0, 3).map((row) => row.summary));
    rowsOf(
      all.filter((transaction) => !posted.has(transaction.summary)),
      'swept-2',
    );
    reviews.afterSync(PROFILE, 'pending-transactions');
    const afterSweep = counted();
    expect(afterSweep).toEqual(expectedCounts());
    expect(afterSweep.reviewed).toBe(7);
    expect(afterSweep.unreviewed).toBe(20);

    // An item the bank no longer lists, reviewed again from the queue, is not a row of the list.
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs: [keys[0] ?? ''], disposition: 'escalated' });
    expect(reviews.table.get(PROFILE, 'pending-transaction', keys[0] ?? '')?.state).toBe('escalated');
    expect(counted()).toEqual(afterSweep);

    // They come back the same: once the sync is done, their reviews count with the list again.
    rowsOf(all, 'swept-3');
    reviews.afterSync(PROFILE, 'pending-transactions');
    expect(counted()).toEqual(expectedCounts());
    expect(counted().reviewed).toBe(10);
    expect(counted().unreviewed).toBe(20);
  });
});
