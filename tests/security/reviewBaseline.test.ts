/**
 * Issue 23, residual of the review rollback check: a review last moved before audit entries
 * carried versions was checked by its row MAC only, so its row deleted (or put back) went
 * unnoticed. On the first open of such a cache, each person's review whose latest entry has no
 * version gets a versioned baseline entry, and is checked like any other from then on.
 * A real sandbox bank, real services, a real cache file and the real Secret Service.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheWithRecord } from '../integration/services/support/cacheWithRecord.ts';
import { Credentials } from '../../src/main/services/credentials/credentials.ts';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { ledger } from '../integration/services/support/ledgerRun.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { startHarness, syncPending } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

describe.skipIf(!secretServiceHere)('a review last moved before versioned audit entries', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-baseline-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let profileId: string;
  let ref: string;
  let file: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-baseline-');
    // The officer's record's file: the reviews and the audit log are there since the cut-over.
    file = join(temp.folder, 'record.sqlite');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 5 });
    const harness = await startHarness(temp.folder, sandbox, store);
    try {
      const { api } = harness;
      profileId = (await api.profiles.list()).activeProfileId ?? '';
      const accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
      await syncPending(api, profileId, accountId);
      ref = (await api.pendingTransactions.list({ profileId, accountId, limit: 1 })).rows[0]?.ref ?? '';
      await api.reviews.give({ profileId, kind: 'pending-transaction', refs: [ref], disposition: 'escalated' });
    } finally {
      await harness.stop();
    }
    // The cache as an earlier version left it: the item's latest entry names no version (as
    // every entry did before versions were audited), and no baseline was ever written.
    const cache = await openCacheWithRecord(temp.folder, new Credentials(store));
    try {
      cache.audit.record({
        profileId,
        profileName: 'Local sandbox',
        action: 'review.escalated',
        target: `pending-transaction:${ref}`,
        result: 'ok',
        detail: 'given before review versions were audited',
      });
      await cache.audit.settled();
    } finally {
      await cache.close();
    }
    const raw = new DatabaseSync(join(temp.folder, 'cache.db'));
    try {
      raw.prepare('DELETE FROM cache_meta WHERE key = ?').run('review_baselines');
    } finally {
      raw.close();
    }
  });

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  it('gets a baseline on the next open, and its deletion is then caught by ledger audit verify', async () => {
    const first = await ledger(['--data', temp.folder, 'audit', 'verify', '--json'], store);
    expect(first.code).toBe(0);
    const raw = new DatabaseSync(file);
    try {
      const baseline = raw
        .prepare('SELECT action, detail FROM audit_log WHERE target = ? ORDER BY id DESC LIMIT 1')
        .get(`pending-transaction:${ref}`) as { action: string; detail: string };
      expect(baseline.action).toBe('review.escalated');
      expect(baseline.detail).toMatch(/^version 1, baseline/);
      expect(raw.prepare("DELETE FROM reviews WHERE kind = 'pending-transaction' AND ref = ?").run(ref).changes).toBe(
        1,
      );
    } finally {
      raw.close();
    }
    const second = await ledger(['--data', temp.folder, 'audit', 'verify', '--json'], store);
    const answer = JSON.parse(second.stdout) as { problem: { kind: string; message: string } | null };
    expect(second.code).toBe(1);
    expect(answer.problem?.kind).toBe('review-altered');
    expect(answer.problem?.message).toContain(ref);
    expect(answer.problem?.message).toMatch(/was deleted/);
  });
});
