/**
 * Nothing that happens to the cache removes a review or a note (issue 34): against the real
 * sandbox and real files, `ledger cache clear --profile NAME` drops the bank's copies only; the
 * reviews, their notes, their history and the record as reviewed are all there after it, the
 * audit log verifies, and the next sync brings the bank's copies back beside them.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import { ledger } from './support/ledgerRun.ts';
import { startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
const secrets = new InMemorySecretStore();
let folder: string;
let profile: Profile;

async function openServices(): Promise<LedgerServices> {
  return LedgerServices.open({
    dataFolder: folder,
    secretStore: secrets,
    profileStorage: new FileProfileStorage(folder),
    cacheWriter: 'inline',
  });
}

async function syncAll(services: LedgerServices): Promise<void> {
  for (const accountId of sandbox.demo.accounts) {
    const outcome = await services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId }).done;
    expect(outcome.state).toBe('done');
  }
}

beforeAll(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 30 });
  temp = makeTempFolder();
  folder = join(temp.folder, 'data');
  const services = await openServices();
  try {
    profile = await services.addProfile(
      { name: 'Sandbox', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
      sandbox.keySecret,
    );
    await syncAll(services);
  } finally {
    await services.close();
  }
});

afterAll(async () => {
  await sandbox.close();
  temp.remove();
});

describe('the officer’s record outlives the cache', () => {
  it('keeps every review, note and step of history through `ledger cache clear`, and the log verifies', async () => {
    let services = await openServices();
    const refs = (
      services.cache.database.prepare('SELECT row_key FROM pending_transactions ORDER BY id LIMIT 5').all() as {
        row_key: string;
      }[]
    ).map((row) => row.row_key);
    expect(refs).toHaveLength(5);
    services.reviews.give({
      profileId: profile.id,
      kind: 'pending-transaction',
      refs: refs.slice(0, 3),
      disposition: 'cleared',
      note: 'seen with the customer',
    });
    services.reviews.give({
      profileId: profile.id,
      kind: 'pending-transaction',
      refs: refs.slice(3),
      disposition: 'escalated',
      note: 'sent to the MLRO',
    });
    const before = refs.map((ref) => services.reviews.detail(profile.id, 'pending-transaction', ref));
    await services.close();

    const cleared = await ledger(['--data', folder, 'cache', 'clear', '--profile', 'Sandbox'], secrets);
    expect(cleared).toMatchObject({ code: 0, stderr: '' });
    expect(cleared.stdout).toContain('Its reviews, notes and watch rules are kept.');

    services = await openServices();
    try {
      expect(
        services.cache.pendingTransactions.count({ profileId: profile.id, accountId: sandbox.demo.accounts[0] ?? '' }),
      ).toBe(0);
      for (const [index, ref] of refs.entries()) {
        const detail = services.reviews.detail(profile.id, 'pending-transaction', ref);
        expect(detail.review).toEqual(before[index]?.review);
        expect(detail.review?.note).toBe(index < 3 ? 'seen with the customer' : 'sent to the MLRO');
        expect(detail.history).toEqual(before[index]?.history);
        // The record as reviewed is kept with the review, though the bank's copy is gone.
        expect(detail.reviewedRecord).toEqual(before[index]?.reviewedRecord);
        expect(detail.reviewedRecord).not.toBeNull();
      }
      const listed = services.reviews.list({ profileId: profile.id }).rows;
      expect(listed.map((row) => row.ref).sort()).toEqual([...refs].sort());
      // The bank sends them again: the reviews meet their records, unchanged.
      await syncAll(services);
      for (const ref of refs) {
        expect(services.reviews.detail(profile.id, 'pending-transaction', ref).review?.state).not.toBe('changed');
      }
    } finally {
      await services.close();
    }
    const verified = await ledger(['--data', folder, 'audit', 'verify', '--json'], secrets);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
  });
});
