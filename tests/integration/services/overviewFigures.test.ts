/**
 * The Overview's figures (services/overview/overviewFigures.ts) on a real cache file, checked
 * against the same figures computed here from the records written: reviewed of total per kind
 * and state, a person's dispositions per day, pending volume by bank date per account with
 * credits, debits and holds apart (a 30-day window ending at the newest date), deliveries and
 * retries per webhook over 24 hours and 7 days, and each list's freshness.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { OverviewFigures, shiftDate } from '../../../src/main/services/overview/overviewFigures.ts';
import { ReviewService } from '../../../src/main/services/review/reviewService.ts';
import type { PendingTransaction, WebhookSendResponse } from '../../../src/shared/bank/index.ts';
import { overviewData } from '../../../src/shared/ipc/domains/overview.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const PROFILE = 'overview-profile';
const NOW = new Date('2026-03-10T12:00:00Z');
const NEWEST = '2026-03-05';

let temp: { folder: string; remove: () => void };
let cache: OfflineCache;
let reviews: ReviewService;
let figures: OverviewFigures;
const written = new Map<string, PendingTransaction[]>();

function transaction(accountId: string, n: number): PendingTransaction {
  // 45 days back from NEWEST, a few a day; every 5th a hold, every 3rd a credit.
  const date = shiftDate(NEWEST, -(n % 45));
  const type = n % 5 === 0 ? 'hold' : n % 3 === 0 ? 'deposit' : 'charge';
  const sign = type === 'deposit' ? '' : '-';
  const cents = 100 + ((n * 7919) % 90_000);
  return {
    account_id: accountId,
    amount: `${sign}${String(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, '0')}`,
    balance: '1000.00',
    date,
    desc: `ITEM ${String(n)}`,
    extended_timestamp: `${date}T${String(10 + (n % 10)).padStart(2, '0')}:00:00Z`,
    summary: `Item ${String(n)}`,
    trace_id: `trace_${accountId}_${String(n)}`,
    type,
    type_source: type === 'deposit' ? 'ach' : 'card',
  } as PendingTransaction;
}

function centsOf(amount: string): number {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = '00'] = amount.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

function send(id: string, webhookId: string, status: 'sent' | 'error' | 'skipped', attempt: number, at: Date) {
  return {
    id,
    webhook_id: webhookId,
    object_id: `obj_${id}`,
    event: 'ach.create',
    operation: 'create',
    status,
    attempt_number: attempt,
    will_retry: status === 'error',
    error: status === 'error' ? 'connection refused' : null,
    created_at: at.toISOString().slice(0, 19) + 'Z',
  } as unknown as WebhookSendResponse;
}

beforeAll(async () => {
  temp = makeTempFolder();
  cache = await OfflineCache.open({
    folder: temp.folder,
    credentials: new Credentials(new InMemorySecretStore()),
    writer: 'inline',
  });
  reviews = new ReviewService({ cache, profileName: () => 'Overview' });
  figures = new OverviewFigures(cache.database);
  const { checkpoint } = cache.checkpoints.begin(PROFILE, 'pending-transactions', 'x', '{}', NOW.toISOString());
  for (const [index, accountId] of ['acct_a', 'acct_b'].entries()) {
    const rows = Array.from({ length: 120 + index * 30 }, (_, n) => transaction(accountId, n));
    written.set(accountId, rows);
    cache.transaction(() => cache.pendingTransactions.writePage(PROFILE, accountId, rows, checkpoint.generation));
  }
  const hour = 60 * 60 * 1000;
  cache.transaction(() =>
    cache.webhookSends.writePage(
      PROFILE,
      [
        send('s1', 'wh_1', 'sent', 0, new Date(NOW.getTime() - 2 * hour)),
        send('s2', 'wh_1', 'error', 0, new Date(NOW.getTime() - 3 * hour)),
        send('s3', 'wh_1', 'sent', 1, new Date(NOW.getTime() - 2.5 * hour)),
        send('s4', 'wh_1', 'sent', 0, new Date(NOW.getTime() - 50 * hour)),
        send('s5', 'wh_1', 'error', 3, new Date(NOW.getTime() - 60 * hour)),
        send('s6', 'wh_2', 'skipped', 0, new Date(NOW.getTime() - 100 * hour)),
        // Older than 7 days: counted in no window.
        send('s7', 'wh_2', 'sent', 0, new Date(NOW.getTime() - 200 * hour)),
      ],
      NOW.toISOString(),
    ),
  );
});

afterAll(async () => {
  await cache.close();
  temp.remove();
});

function refsOf(accountId: string): string[] {
  return (
    cache.database
      .prepare(
        `SELECT p.row_key FROM pending_transactions AS p JOIN pending_transaction_scopes AS s ON s.id = p.scope
         WHERE s.account_id = ? ORDER BY p.id`,
      )
      .all(accountId) as { row_key: string }[]
  ).map((row) => row.row_key);
}

describe('the Overview figures', () => {
  it('sums pending volume by bank date per account, credits, debits and holds apart, over the last 30 dates', () => {
    const read = figures.read(PROFILE, NOW);
    expect(() => overviewData.parse(read)).not.toThrow();
    expect(read.pendingWindow).toEqual({ from: shiftDate(NEWEST, -29), to: NEWEST, chosen: false });
    expect(read.pendingByAccount.map((account) => account.accountId)).toEqual(['acct_a', 'acct_b']);
    for (const account of read.pendingByAccount) {
      expect(account.days).toHaveLength(30);
      expect(account.days[0]?.date).toBe(shiftDate(NEWEST, -29));
      expect(account.days.at(-1)?.date).toBe(NEWEST);
      for (const day of account.days) {
        const rows = (written.get(account.accountId) ?? []).filter((row) => row.date === day.date);
        const flow = (pick: (row: PendingTransaction) => boolean) => {
          const chosen = rows.filter(pick);
          return { count: chosen.length, cents: chosen.reduce((sum, row) => sum + centsOf(row.amount), 0) };
        };
        expect(day, `${account.accountId} ${day.date}`).toEqual({
          date: day.date,
          holds: flow((row) => row.type === 'hold'),
          credits: flow((row) => row.type !== 'hold' && centsOf(row.amount) >= 0),
          debits: flow((row) => row.type !== 'hold' && centsOf(row.amount) < 0),
        });
      }
      const inWindow = account.days.reduce(
        (sum, day) => sum + day.credits.count + day.debits.count + day.holds.count,
        0,
      );
      expect(inWindow).toBeGreaterThan(0);
      expect(inWindow).toBeLessThan(written.get(account.accountId)?.length ?? 0);
    }
  });

  it('counts reviewed of total per kind and state, and a person’s dispositions per day', () => {
    const before = figures.read(PROFILE, NOW);
    expect(before.progress.find((row) => row.kind === 'pending-transaction')).toEqual({
      kind: 'pending-transaction',
      total: 270,
      cleared: 0,
      flaggedByPerson: 0,
      escalated: 0,
      changed: 0,
      flaggedByRule: 0,
      unreviewed: 270,
    });
    const refs = refsOf('acct_a');
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs: refs.slice(0, 5), disposition: 'cleared' });
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs: refs.slice(5, 8), disposition: 'flagged' });
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs: refs.slice(8, 9), disposition: 'escalated' });
    reviews.give({ profileId: PROFILE, kind: 'webhook-send', refs: ['s2'], disposition: 'flagged' });
    const now = new Date();
    const after = figures.read(PROFILE, now);
    expect(after.progress.find((row) => row.kind === 'pending-transaction')).toMatchObject({
      total: 270,
      cleared: 5,
      flaggedByPerson: 3,
      escalated: 1,
      unreviewed: 261,
    });
    expect(after.progress.find((row) => row.kind === 'webhook-send')).toMatchObject({
      total: 7,
      flaggedByPerson: 1,
      unreviewed: 6,
    });
    expect(after.reviewDays).toHaveLength(30);
    expect(after.reviewDays.at(-1)).toEqual({
      date: now.toISOString().slice(0, 10),
      cleared: 5,
      flagged: 4,
      escalated: 1,
    });
    expect(after.reviewDays.slice(0, -1).every((day) => day.cleared + day.flagged + day.escalated === 0)).toBe(true);
  });

  it('rates deliveries per webhook over 24 hours and 7 days, with retries', () => {
    const read = figures.read(PROFILE, NOW);
    expect(read.deliveries).toEqual([
      {
        webhookId: 'wh_1',
        event: null,
        day: { sent: 2, failed: 1, skipped: 0, retries: 1 },
        week: { sent: 3, failed: 2, skipped: 0, retries: 2 },
      },
      {
        webhookId: 'wh_2',
        event: null,
        day: { sent: 0, failed: 0, skipped: 0, retries: 0 },
        week: { sent: 0, failed: 0, skipped: 1, retries: 0 },
      },
    ]);
  });

  it('says how fresh each list is: not synced yet until a sync completes', () => {
    const read = figures.read(PROFILE, NOW);
    const pendingA = read.freshness.find((list) => list.list === 'pending-transactions' && list.scope === 'acct_a');
    expect(pendingA).toMatchObject({ rows: 120, syncedAt: null });
    expect(read.freshness.find((list) => list.list === 'webhooks')).toEqual({
      list: 'webhooks',
      scope: null,
      syncedAt: null,
      lastState: null,
      rows: 0,
    });
    const key = `pending-transactions/${PROFILE}/acct_a`;
    cache.checkpoints.begin(PROFILE, 'pending-transactions', key, '{}', NOW.toISOString());
    cache.checkpoints.finish(PROFILE, 'pending-transactions', key, 'done', NOW.toISOString());
    const synced = figures.read(PROFILE, NOW).freshness.find((list) => list.scope === 'acct_a');
    expect(synced).toMatchObject({ syncedAt: NOW.toISOString(), lastState: 'done', rows: 120 });
  });

  it('answers empty figures for a profile with nothing cached', () => {
    const read = figures.read('nobody', NOW);
    expect(read.pendingWindow).toBeNull();
    expect(read.pendingByAccount).toEqual([]);
    expect(read.deliveries).toEqual([]);
    expect(read.progress.every((row) => row.total === 0 && row.unreviewed === 0)).toBe(true);
  });
});
