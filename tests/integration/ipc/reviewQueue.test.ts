/**
 * The `reviewQueue` domain through the real router and bridge, on the real services, cache
 * and sandbox: the queue across accounts (each row with its account), its counts and the part
 * it opens on, and every bad input refused with its field (an account the cache does not hold
 * names the ones it does).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices } from '../../../src/main/app/services.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../../src/main/services/profiles/profileStorage.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { isLedgerdeskError } from '../../../src/shared/ipc/errors.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';

const OWN_WINDOW = 3;
let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let api: LedgerdeskApi;
let profileId: string;
let accountId: string;
const printed: string[] = [];

async function refusal(promise: Promise<unknown>): Promise<{ code: string; field?: string; message: string }> {
  try {
    await promise;
  } catch (reason) {
    if (isLedgerdeskError(reason)) return { code: reason.code, field: reason.field, message: reason.message };
    throw reason;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-review-queue-'));
  sandbox = await startSandbox({ port: 0, dataFile: ':memory:', retryBaseMs: 20, pendingTransactionsPerAccount: 60 });
  services = await startServices({
    dataFolder: folder,
    sandbox,
    secretStore: new InMemorySecretStore(),
    settings: new InMemoryProfileStorage(),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    send: () => undefined,
    chooseSavePath: (name) => Promise.resolve(join(folder, name)),
    printToPdf: (html) => {
      printed.push(html);
      return Promise.resolve(Buffer.from('%PDF-1.7 printed by the port\n'));
    },
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
    knownSecrets: () => services.knownSecrets(),
  });
  api = buildLedgerdeskApi({
    invoke: (channel, input) =>
      router.dispatch(
        { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' },
        channel,
        input,
      ),
    on: () => () => undefined,
  });
  profileId = (await api.profiles.list()).activeProfileId ?? '';
  accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
  await syncPending();
});

/** Syncs the account's pending transactions and waits (bounded) for the job to finish. */
async function syncPending(): Promise<void> {
  const started = await api.sync.start({ profileId, job: { kind: 'pendingTransactions', accountId } });
  for (let round = 0; round < 400; round += 1) {
    const { jobs } = await api.sync.status({ profileId });
    if (!jobs.some((job) => job.jobId === started.jobId && job.state === 'running')) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the sync did not finish');
}

afterAll(async () => {
  await services.stop();
  await sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

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
