/**
 * Retention, the legal hold and the purge of the officer's record (issue 34, item 5), against
 * the real sandbox and real files: reviews past their profile's retention (five years unless
 * set) are purged with their history by `ledger record purge`, audited and anchored, and the log
 * still verifies; under a legal hold the purge is refused (exit 1) and the refusal audited; the
 * settings live in record.sqlite, so clearing the cache keeps them.
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
let oldRefs: string[];
let newRefs: string[];

async function openServices(now?: () => Date): Promise<LedgerServices> {
  return LedgerServices.open({
    dataFolder: folder,
    secretStore: secrets,
    profileStorage: new FileProfileStorage(folder),
    cacheWriter: 'inline',
    ...(now === undefined ? {} : { now }),
  });
}

const cli = (...argv: string[]) => ledger(['--data', folder, ...argv], secrets);

beforeAll(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 20 });
  temp = makeTempFolder();
  folder = join(temp.folder, 'data');
  // Six years ago, an officer reviewed five items; today, three more.
  const sixYearsAgo = new Date(Date.now() - 6 * 366 * 24 * 3600 * 1000);
  let services = await openServices(() => sixYearsAgo);
  try {
    profile = await services.addProfile(
      { name: 'Sandbox', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
      sandbox.keySecret,
    );
    const outcome = await services.sync.start({
      kind: 'pending-transactions',
      profileId: profile.id,
      accountId: sandbox.demo.accounts[0] ?? '',
    }).done;
    expect(outcome.state).toBe('done');
    const refs = (
      services.cache.database.prepare('SELECT row_key FROM pending_transactions ORDER BY id LIMIT 8').all() as {
        row_key: string;
      }[]
    ).map((row) => row.row_key);
    oldRefs = refs.slice(0, 5);
    newRefs = refs.slice(5);
    services.reviews.give({
      profileId: profile.id,
      kind: 'pending-transaction',
      refs: oldRefs,
      disposition: 'cleared',
      note: 'long ago',
    });
  } finally {
    await services.close();
  }
  services = await openServices();
  try {
    services.reviews.give({
      profileId: profile.id,
      kind: 'pending-transaction',
      refs: newRefs,
      disposition: 'flagged',
      note: 'this week',
    });
  } finally {
    await services.close();
  }
});

afterAll(async () => {
  await sandbox.close();
  temp.remove();
});

async function reviewedRefs(): Promise<string[]> {
  const services = await openServices();
  try {
    return services.reviews
      .list({ profileId: profile.id })
      .rows.map((row) => row.ref)
      .sort();
  } finally {
    await services.close();
  }
}

describe("the officer's record is kept as long as the law asks", () => {
  it('keeps five years by default, and the setting outlives a cleared cache', async () => {
    const shown = await cli('record', 'retention', '--profile', 'Sandbox');
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toContain("Sandbox's reviews are kept 5 years after the review.");
    expect(await cli('record', 'retention', '--profile', 'Sandbox', '--years', '7')).toMatchObject({ code: 0 });
    expect((await cli('cache', 'clear', '--profile', 'Sandbox')).code).toBe(0);
    const after = await cli('record', 'retention', '--profile', 'Sandbox', '--json');
    expect(JSON.parse(after.stdout)).toMatchObject({ profile: 'Sandbox', years: 7, hold: null });
    // Seven years: the six-year-old reviews are not due yet.
    const purge = await cli('record', 'purge', '--profile', 'Sandbox', '--json');
    expect(purge.code).toBe(0);
    expect(JSON.parse(purge.stdout)).toMatchObject({ purged: 0, years: 7 });
    expect(await reviewedRefs()).toEqual([...oldRefs, ...newRefs].sort());
  });

  it('refuses every purge under a legal hold, and says so in the log', async () => {
    expect(await cli('record', 'retention', '--profile', 'Sandbox', '--years', '5')).toMatchObject({ code: 0 });
    expect(await cli('record', 'retention', '--profile', 'Sandbox', '--years', 'ten')).toMatchObject({ code: 2 });
    const held = await cli('record', 'hold', '--reason', 'subpoena 2026-114');
    expect(held).toMatchObject({ code: 0, stderr: '' });
    const refused = await cli('record', 'purge', '--profile', 'Sandbox');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/under a legal hold \(placed .*: subpoena 2026-114\): nothing is purged/);
    expect(await reviewedRefs()).toEqual([...oldRefs, ...newRefs].sort());
    const log = JSON.parse((await cli('audit', '--profile', 'Sandbox', '--json')).stdout) as {
      rows: { action: string; result: string }[];
    };
    expect(log.rows[0]).toMatchObject({ action: 'reviews.purge', result: 'refused' });
  });

  it('purges what outlived the retention, with its history, audited and anchored; the log verifies', async () => {
    expect(await cli('record', 'hold', '--lift')).toMatchObject({ code: 0 });
    const purged = await cli('record', 'purge', '--profile', 'Sandbox', '--json');
    expect(purged).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(purged.stdout)).toMatchObject({ purged: oldRefs.length, years: 5 });
    expect(await reviewedRefs()).toEqual([...newRefs].sort());
    const services = await openServices();
    try {
      for (const ref of oldRefs) {
        expect(services.reviews.table.history(profile.id, 'pending-transaction', ref)).toEqual([]);
      }
      const [entry] = services.cache.audit.list({ profileId: profile.id, limit: 1 }).rows;
      expect(entry).toMatchObject({ action: 'reviews.drop', result: 'ok' });
      expect(entry?.detail).toMatch(/^5 reviews purged: reviewed before .*, past the retention of 5 years$/);
    } finally {
      await services.close();
    }
    const verified = await cli('audit', 'verify', '--json');
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
  });
});
