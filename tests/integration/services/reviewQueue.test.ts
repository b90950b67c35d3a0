/**
 * The officer's one queue on a real cache file: four accounts whose transactions share their
 * times (ties across accounts), reviews of every kind of disposition, a watch rule's flags, a
 * changed review and a few webhook sends. Every part of the queue pages through exactly the
 * items an in-memory reading of the whole cache keeps, newest first across accounts; counts
 * by part, kind and account agree with the pages; filters narrow both alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_STATES, type QueueState } from '../../../src/shared/review/queueTerms.ts';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { ReviewService } from '../../../src/main/services/review/reviewService.ts';
import { ReviewQueue, type QueueFilter, type QueueItem } from '../../../src/main/services/review/reviewQueue.ts';
import { makeTempFolder } from './support/tempFolder.ts';
import { pendingTransactionOf, webhookSendOf } from './support/records.ts';

const PROFILE = 'prof_queue';
const ACCOUNTS = ['acct_a', 'acct_b', 'acct_c', 'acct_d'];
const PER_ACCOUNT = 240;
const SENDS = 30;

let temp: { folder: string; remove: () => void };
let cache: OfflineCache;
let reviews: ReviewService;
let queue: ReviewQueue;

interface Known {
  accountId: string;
  ref: string;
  postedAt: string;
  cents: number;
}
/** Every cached transaction, with where it is, its time and amount. */
const transactions: Known[] = [];
/** Each reviewed item's part of the queue (absent: unreviewed). */
const partOf = new Map<string, QueueState>();

function centsOf(amount: string): number {
  return Math.round(Number(amount) * 100);
}

/** Newest first across accounts: time, then account, then row key (all descending). */
function newestFirst(a: Known, b: Known): number {
  for (const [x, y] of [
    [a.postedAt, b.postedAt],
    [a.accountId, b.accountId],
    [a.ref, b.ref],
  ] as const) {
    if (x !== y) return x < y ? 1 : -1;
  }
  return 0;
}

function everyItem(filter: QueueFilter, state: QueueState, limit = 37): QueueItem[] {
  const items: QueueItem[] = [];
  let cursor: string | null = null;
  do {
    const page = queue.list({ ...filter, state, limit, cursor });
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    items.push(...page.rows);
    cursor = page.nextCursor;
    if (items.length > ACCOUNTS.length * PER_ACCOUNT + SENDS) throw new Error(`paging ${state} never ended`);
  } while (cursor !== null);
  return items;
}

beforeAll(async () => {
  temp = makeTempFolder('ledgerdesk-review-queue-');
  cache = await OfflineCache.open({
    folder: temp.folder,
    credentials: new Credentials(new InMemorySecretStore()),
    writer: 'inline',
  });
  reviews = new ReviewService({ cache, profileName: () => 'Queue' });
  queue = new ReviewQueue(cache, reviews);
  const { checkpoint } = cache.checkpoints.begin(PROFILE, 'pending-transactions', 'k', '{}', new Date().toISOString());
  for (const accountId of ACCOUNTS) {
    const rows = Array.from({ length: PER_ACCOUNT }, (_, n) => pendingTransactionOf(accountId, n, PER_ACCOUNT));
    cache.transaction(() => cache.pendingTransactions.writePage(PROFILE, accountId, rows, checkpoint.generation));
    let cursor: string | null = null;
    do {
      const page = cache.pendingTransactions.list({ profileId: PROFILE, accountId, limit: 1000, cursor });
      for (const row of page.rows) {
        transactions.push({ accountId, ref: row.row_key, postedAt: '', cents: centsOf(row.amount ?? '0') });
      }
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
  // The row's time as the cache keeps it (what the queue orders by).
  const times = cache.database.prepare('SELECT row_key, posted_at FROM pending_transactions').all() as {
    row_key: string;
    posted_at: string;
  }[];
  const timeOf = new Map(times.map((row) => [row.row_key, row.posted_at]));
  for (const known of transactions) known.postedAt = timeOf.get(known.ref) ?? '';
  cache.transaction(() =>
    cache.webhookSends.writePage(
      PROFILE,
      Array.from({ length: SENDS }, (_, n) => webhookSendOf(n)),
      new Date().toISOString(),
    ),
  );

  const refsOf = (every: number, offset: number) =>
    transactions.filter((_, index) => index % every === offset).map((known) => known.ref);
  const give = (refs: string[], disposition: 'cleared' | 'flagged' | 'escalated', part: QueueState) => {
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs, disposition });
    for (const ref of refs) partOf.set(ref, part);
  };
  give(refsOf(7, 1), 'cleared', 'cleared');
  give(refsOf(11, 2), 'flagged', 'flagged-by-person');
  give(refsOf(53, 3), 'escalated', 'escalated');
  const changed = refsOf(97, 4);
  give(changed, 'cleared', 'changed');
  cache.transaction(() => {
    for (const ref of changed) reviews.markChanged(PROFILE, 'pending-transaction', ref, [], new Date().toISOString());
  });
  reviews.saveRule(PROFILE, { name: 'Large debit', kind: 'pending-transaction', amountBeyond: '-150.00' });
  reviews.afterSync(PROFILE, 'pending-transactions');
  for (const known of transactions) {
    if (!partOf.has(known.ref) && known.cents <= -15000) partOf.set(known.ref, 'flagged-by-rule');
  }
  reviews.give({ profileId: PROFILE, kind: 'webhook-send', refs: ['whsend_00000003'], disposition: 'escalated' });
});

afterAll(async () => {
  await cache.close();
  temp.remove();
});

function expectedPending(state: QueueState, keep: (known: Known) => boolean = () => true): string[] {
  return transactions
    .filter((known) => (partOf.get(known.ref) ?? 'unreviewed') === state && keep(known))
    .sort(newestFirst)
    .map((known) => known.ref);
}

describe('the one queue across accounts', () => {
  it('lists the unreviewed transactions of every account newest first, each with its account, then the other kinds', () => {
    const items = everyItem({ profileId: PROFILE }, 'unreviewed');
    const pending = items.filter((item) => item.kind === 'pending-transaction');
    expect(pending.map((item) => item.ref)).toEqual(expectedPending('unreviewed'));
    expect(new Set(pending.map((item) => item.accountId))).toEqual(new Set(ACCOUNTS));
    for (const item of pending.slice(0, 20)) {
      const known = transactions.find((entry) => entry.ref === item.ref);
      expect((item.record as { account_id: string }).account_id).toBe(known?.accountId);
      expect(item.accountId).toBe(known?.accountId);
    }
    // The pending part first, then the sends (no applications are cached): one list.
    expect(items.slice(pending.length).map((item) => item.kind)).toEqual(Array(SENDS - 1).fill('webhook-send'));
    expect(items.filter((item) => item.kind === 'webhook-send').map((item) => item.ref)).not.toContain(
      'whsend_00000003',
    );
  });

  it('pages each reviewed part across accounts, and counts each part by kind and account as its pages', () => {
    const counts = queue.counts({ profileId: PROFILE });
    for (const state of QUEUE_STATES) {
      const items = everyItem({ profileId: PROFILE, kind: 'pending-transaction' }, state);
      expect(new Set(items.map((item) => item.ref)), state).toEqual(new Set(expectedPending(state)));
      expect(items.length, state).toBeGreaterThan(0);
      expect(counts.kinds['pending-transaction'][state], state).toBe(items.length);
      for (const accountId of ACCOUNTS) {
        const ofAccount = counts.accounts.find((entry) => entry.accountId === accountId)?.states[state];
        expect(ofAccount, `${state} ${accountId}`).toBe(items.filter((item) => item.accountId === accountId).length);
      }
      for (const item of items) expect(item.state).toBe(state);
    }
    expect(counts.kinds['webhook-send'].escalated).toBe(1);
    expect(counts.kinds['webhook-send'].unreviewed).toBe(SENDS - 1);
    expect(counts.states.escalated).toBe(counts.kinds['pending-transaction'].escalated + 1);
    expect(counts.accountIds).toEqual(ACCOUNTS);
  });

  it('opens on the first part holding items: changed, then flagged, never an empty part while items wait', () => {
    expect(queue.counts({ profileId: PROFILE }).openOn).toBe('changed');
    // Only the rule's flags: the queue opens on them.
    expect(queue.counts({ profileId: PROFILE, ruleName: 'Large debit' }).openOn).toBe('flagged-by-rule');
    // Sends alone: escalated waits before the unreviewed.
    expect(queue.counts({ profileId: PROFILE, kind: 'webhook-send' }).openOn).toBe('escalated');
    expect(queue.counts({ profileId: 'prof_nobody' }).openOn).toBeNull();
  });

  it('narrows by account, amount and time alike in pages and counts (pending transactions only)', () => {
    const times = transactions.map((known) => known.postedAt).sort();
    const from = times[Math.floor(times.length / 4)] ?? '';
    const to = times[Math.floor((times.length * 3) / 4)] ?? '';
    const filters: { filter: Omit<QueueFilter, 'profileId'>; keep: (known: Known) => boolean }[] = [
      { filter: { accountId: 'acct_c' }, keep: (known) => known.accountId === 'acct_c' },
      {
        filter: { minAmountCents: 20_000, maxAmountCents: 60_000 },
        keep: (known) => Math.abs(known.cents) >= 20_000 && Math.abs(known.cents) <= 60_000,
      },
      { filter: { itemFrom: from, itemTo: to }, keep: (known) => known.postedAt >= from && known.postedAt < to },
      {
        filter: { accountId: 'acct_b', minAmountCents: 30_000, itemFrom: from },
        keep: (known) => known.accountId === 'acct_b' && Math.abs(known.cents) >= 30_000 && known.postedAt >= from,
      },
    ];
    for (const { filter, keep } of filters) {
      const counts = queue.counts({ profileId: PROFILE, ...filter });
      for (const state of QUEUE_STATES) {
        const items = everyItem({ profileId: PROFILE, ...filter }, state, 23);
        const expected = expectedPending(state, keep);
        const label = `${JSON.stringify(filter)} ${state}`;
        if (state === 'unreviewed')
          expect(
            items.map((item) => item.ref),
            label,
          ).toEqual(expected);
        else expect(new Set(items.map((item) => item.ref)), label).toEqual(new Set(expected));
        expect(
          items.every((item) => item.kind === 'pending-transaction'),
          label,
        ).toBe(true);
        expect(counts.states[state], label).toBe(expected.length);
      }
    }
  });

  it("keeps a rule's flags alone under its name", () => {
    const items = everyItem({ profileId: PROFILE, ruleName: 'Large debit' }, 'flagged-by-rule');
    expect(new Set(items.map((item) => item.ref))).toEqual(new Set(expectedPending('flagged-by-rule')));
    for (const item of items) expect(item.review?.byRule).toBe('Large debit');
    expect(everyItem({ profileId: PROFILE, ruleName: 'Large debit' }, 'unreviewed')).toEqual([]);
    expect(everyItem({ profileId: PROFILE, ruleName: 'Large debit' }, 'cleared')).toEqual([]);
    expect(queue.counts({ profileId: PROFILE, ruleName: 'No such rule' }).openOn).toBeNull();
  });

  it('refuses a cursor of another part or filter, and one made up', () => {
    const first = queue.list({ profileId: PROFILE, state: 'unreviewed', limit: 5 });
    expect(first.nextCursor).not.toBeNull();
    expect(() =>
      queue.list({ profileId: PROFILE, accountId: 'acct_a', state: 'unreviewed', limit: 5, cursor: first.nextCursor }),
    ).toThrow(/cursor/);
    expect(() => queue.list({ profileId: PROFILE, state: 'unreviewed', limit: 5, cursor: 'bm90IGEgY3Vyc29y' })).toThrow(
      /cursor/,
    );
    const cleared = queue.list({ profileId: PROFILE, state: 'cleared', limit: 5 });
    expect(() => queue.list({ profileId: PROFILE, state: 'escalated', limit: 5, cursor: cleared.nextCursor })).toThrow(
      /cursor/,
    );
  });
});
