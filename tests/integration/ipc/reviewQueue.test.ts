/**
 * The `reviewQueue` domain through the real router and bridge, on the real services, cache
 * and sandbox: the queue across accounts (each row with its account), its counts and the part
 * it opens on, and every bad input refused with its field (an account the cache does not hold
 * names the ones it does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { openAppOverIpc, type AppOverIpc } from '../../support/app.ts';
import { refusal } from '../../support/refusal.ts';

let app: AppOverIpc;
let api: LedgerdeskApi;
let profileId: string;
let accountId: string;

beforeAll(async () => {
  app = await openAppOverIpc('review-queue', {
    sandbox: { pendingTransactionsPerAccount: 60 },
  });
  ({ api, profileId } = app);
  accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
  await syncPending();
});

/** Syncs the account's pending transactions and waits (bounded) for the job to finish. */
const syncPending = (): Promise<void> => app.syncAndWait({ kind: 'pendingTransactions', accountId });

afterAll(() => app.close());

describe('the reviewQueue domain', () => {
  it('lists the unreviewed across accounts with their accounts, counts them, and opens where items wait', async () => {
    const counts = await api.reviewQueue.counts({ profileId });
    expect(counts.accountIds).toContain(accountId);
    const cached = await api.pendingTransactions.count({ profileId, accountId, review: 'unreviewed' });
    expect(counts.kinds['pending-transaction'].unreviewed).toBe(cached.count);
    expect(counts.openOn).toBe('unreviewed');
    const page = await api.reviewQueue.list({ profileId, state: 'unreviewed', kind: 'pending-transaction', limit: 5 });
    expect(page.rows).toHaveLength(5);
    for (const row of page.rows) expect(row).toMatchObject({ accountId, state: 'unreviewed', review: null });
    const ref = page.rows[0]?.ref ?? '';
    await api.reviews.give({ profileId, kind: 'pending-transaction', refs: [ref], disposition: 'flagged' });
    const after = await api.reviewQueue.counts({ profileId });
    expect(after.openOn).toBe('flagged-by-person');
    expect(after.states['flagged-by-person']).toBe(1);
    const flagged = await api.reviewQueue.list({ profileId, state: 'flagged-by-person' });
    expect(flagged.rows.map((row) => [row.ref, row.accountId, row.review?.state])).toEqual([
      [ref, accountId, 'flagged'],
    ]);
  });

  it('refuses an account the cache does not hold (naming those it does), bad amounts and cursors', async () => {
    const unknown = await refusal(api.reviewQueue.counts({ profileId, accountId: 'acct_nobody' }));
    expect(unknown).toMatchObject({ code: 'not_found', field: 'accountId' });
    expect(unknown.message).toContain(accountId);
    const swapped = await refusal(
      api.reviewQueue.list({ profileId, state: 'unreviewed', minAmountCents: 500, maxAmountCents: 100 }),
    );
    expect(swapped).toMatchObject({ code: 'invalid_input', field: 'minAmountCents' });
    const negative = await refusal(api.reviewQueue.counts({ profileId, minAmountCents: -1 }));
    expect(negative).toMatchObject({ code: 'invalid_input' });
    const state = await refusal(api.reviewQueue.list({ profileId, state: 'done' as 'cleared' }));
    expect(state).toMatchObject({ code: 'invalid_input' });
    const cursor = await refusal(api.reviewQueue.list({ profileId, state: 'unreviewed', cursor: 'made-up' }));
    expect(cursor).toMatchObject({ code: 'invalid_input', field: 'cursor' });
    const profile = await refusal(api.reviewQueue.counts({ profileId: 'prof_nobody' }));
    expect(profile.code).toBe('not_found');
  });
});
