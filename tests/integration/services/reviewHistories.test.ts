/**
 * The report reads a page's histories in one query per kind (reviewsTable.histories): each
 * item's steps are the same, in the same order, as its own history read alone, items without
 * steps are absent, and a step altered in the file is refused there as it is item by item.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { ReviewService } from '../../../src/main/services/review/reviewService.ts';
import { pendingTransactionOf } from './support/records.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const PROFILE = 'prof_histories';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('histories of many items in one read', () => {
  it('equal each item’s own history, and refuse an altered step', async () => {
    const temp = makeTempFolder('ledgerdesk-histories-');
    const cache = await OfflineCache.open({
      folder: temp.folder,
      credentials: new Credentials(new InMemorySecretStore()),
      writer: 'inline',
    });
    cleanups.push(temp.remove, () => cache.close());
    const reviews = new ReviewService({ cache, profileName: () => 'Histories' });
    const { checkpoint } = cache.checkpoints.begin(
      PROFILE,
      'pending-transactions',
      'k',
      '{}',
      new Date().toISOString(),
    );
    const rows = Array.from({ length: 12 }, (_, n) => pendingTransactionOf('acct_h', n, 12));
    cache.transaction(() => cache.pendingTransactions.writePage(PROFILE, 'acct_h', rows, checkpoint.generation));
    const refs = cache.pendingTransactions
      .list({ profileId: PROFILE, accountId: 'acct_h', limit: 12 })
      .rows.map((row) => row.row_key);
    expect(refs).toHaveLength(12);
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs, disposition: 'flagged', note: 'first look' });
    reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs: refs.slice(0, 5), disposition: 'escalated' });
    reviews.give({
      profileId: PROFILE,
      kind: 'pending-transaction',
      refs: refs.slice(0, 2),
      disposition: 'cleared',
      note: 'ok',
    });

    const asked = [...refs, 'never_reviewed'];
    const histories = reviews.table.histories(PROFILE, 'pending-transaction', asked);
    expect([...histories.keys()].sort()).toEqual([...refs].sort());
    for (const ref of refs)
      expect(histories.get(ref)).toEqual(reviews.table.history(PROFILE, 'pending-transaction', ref));
    expect(histories.get(refs[0] ?? '')?.map((step) => step.state)).toEqual(['flagged', 'escalated', 'cleared']);
    expect(histories.get(refs[0] ?? '')?.[0]?.note).toBe('first look');
    expect(reviews.table.histories(PROFILE, 'pending-transaction', [])).toEqual(new Map());
    expect(reviews.table.histories(PROFILE, 'application', refs)).toEqual(new Map());

    // A step changed in the file (its state rewritten) fails its MAC here too.
    cache.database
      .prepare(`UPDATE review_history SET state = 'cleared' WHERE ref = ? AND version = 1`)
      .run(refs[3] ?? '');
    expect(() => reviews.table.histories(PROFILE, 'pending-transaction', refs)).toThrow();
    expect(() => reviews.table.history(PROFILE, 'pending-transaction', refs[3] ?? '')).toThrow();
  });
});
