/**
 * Sync against the real sandbox bank: paging into the encrypted cache, progress, one job per
 * key, cancel and resume from the checkpoint, sweeping what the bank no longer lists, and
 * reads that keep working (and say how old they are) when the bank goes away.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_FILE_NAME } from '../../../src/main/services/cache/offlineCache.ts';
import type { SyncProgress } from '../../../src/main/services/sync/syncProgress.ts';
import type { SyncFinished } from '../../../src/main/services/sync/syncService.ts';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import { CacheError } from '../../../src/main/services/cache/cacheError.ts';
import {
  deliveriesSettled,
  servicesOn,
  simulate,
  startBank,
  type RunningSandbox,
  type ServicesOnBank,
  LOOPBACK_SANDBOX,
} from './support/sandboxBank.ts';
import { startFaultServer, json } from './support/faultServer.ts';
import { makeTempFolder } from './support/tempFolder.ts';

import { pendingTransactionOf, webhookSendOf } from './support/records.ts';

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
let bank: ServicesOnBank;

beforeEach(async () => {
  sandbox = await startBank({ accounts: 2, pendingTransactionsPerAccount: 2500 });
  temp = makeTempFolder();
  bank = await servicesOn(sandbox, temp.folder, { pageSize: 500 });
});

afterEach(async () => {
  await bank.services.close();
  await sandbox.close();
  temp.remove();
});

function account(): string {
  const [first] = sandbox.demo.accounts;
  if (first === undefined) throw new Error('the sandbox has no account');
  return first;
}

describe('pending transactions', () => {
  it('pages every transaction of an account into the cache, with progress', async () => {
    const events: SyncProgress[] = [];
    bank.services.sync.onProgress((progress) => events.push(progress));
    const job = bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    });
    const outcome = await job.done;
    expect(outcome).toMatchObject({ state: 'done', fetched: 2500, written: 2500, resumed: false });
    expect(events[0]).toMatchObject({ jobId: job.jobId, state: 'running', fetched: 0 });
    expect(events.at(-1)).toMatchObject({ state: 'done', fetched: 2500, written: 2500, etaSeconds: 0 });
    const fetched = events.map((event) => event.fetched);
    expect(fetched).toEqual([...fetched].sort((a, b) => a - b));
    expect(events.some((event) => event.state === 'running' && event.ratePerSecond > 0)).toBe(true);

    const read = bank.services.cache.pendingTransactions.list({
      profileId: bank.profile.id,
      accountId: account(),
      withTotal: true,
    });
    expect(read.total).toBe(2500);
    expect(read.source).toBe('cache');
    expect(read.asOf).not.toBeNull();
    // Same order as the bank: newest first.
    const first = await bank.services.clients
      .clientFor(bank.profile.id)
      .pendingTransactionPages(account(), {}, { pageSize: 3 })
      .next();
    const bankFirst = first.done === true ? [] : first.value.items;
    expect(read.rows.slice(0, 3).map(({ row_key: _key, ...transaction }) => transaction)).toEqual(bankFirst);
  });

  it('tells "sync finished" once per job, with its profile and kind as data, before the outcome', async () => {
    const finished: SyncFinished[] = [];
    let outcomeSeen = false;
    bank.services.sync.onFinished((event) => {
      finished.push({ ...event, written: outcomeSeen ? -1 : event.written });
    });
    const job = bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    });
    const outcome = await job.done;
    outcomeSeen = true;
    expect(finished).toEqual([
      {
        jobId: job.jobId,
        kind: 'pending-transactions',
        profileId: bank.profile.id,
        key: job.key,
        state: 'done',
        written: 2500,
        removed: 0,
      },
    ]);
    expect(outcome.followUpSeconds).toBeGreaterThanOrEqual(0);
  });

  it('writes nothing new when nothing changed, and sweeps what was posted', async () => {
    await bank.services.sync.start({ kind: 'pending-transactions', profileId: bank.profile.id, accountId: account() })
      .done;
    await simulate(sandbox, 'account.pending_transaction', {
      account_id: account(),
      amount: '-4.20',
      desc: 'LATE NIGHT TAXI',
    });
    const again = await bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    }).done;
    expect(again).toMatchObject({ state: 'done', fetched: 2501, written: 1, removed: 0 });
    const taxi = bank.services.cache.pendingTransactions.list({
      profileId: bank.profile.id,
      accountId: account(),
      search: 'taxi',
    });
    expect(taxi.rows.map((row) => row.desc)).toEqual(['LATE NIGHT TAXI']);
  });

  it('runs one job per key: asking again returns the running job', async () => {
    const first = bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    });
    const second = bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    });
    expect(second.jobId).toBe(first.jobId);
    expect(() =>
      bank.services.sync.start({
        kind: 'pending-transactions',
        profileId: bank.profile.id,
        accountId: account(),
        fromDate: '2025-01-01',
      }),
    ).toThrow(/already running/);
    await first.done;
  });

  it('cancels after the current page and resumes from the checkpoint', async () => {
    const job = bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    });
    const unsubscribe = bank.services.sync.onProgress((progress) => {
      if (progress.fetched >= 1000) bank.services.sync.cancel(job.jobId);
    });
    const cancelled = await job.done;
    unsubscribe();
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.fetched).toBeLessThan(2500);
    // Each date window keeps its own cursor; some have walked part of the way.
    const windows = bank.services.cache.windowCheckpoints.of(bank.profile.id, 'pending-transactions', job.key);
    expect(windows.length).toBeGreaterThan(1);
    expect(windows.some((window) => window.cursor !== null || window.done)).toBe(true);
    expect(windows.some((window) => !window.done)).toBe(true);
    expect(windows.reduce((sum, window) => sum + window.fetched, 0)).toBe(cancelled.fetched);
    expect(
      bank.services.cache.pendingTransactions.asOf({ profileId: bank.profile.id, accountId: account() }),
    ).toBeNull();

    const resumed = await bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    }).done;
    expect(resumed).toMatchObject({ state: 'done', resumed: true, fetched: 2500, written: 2500, removed: 0 });
    expect(bank.services.cache.pendingTransactions.count({ profileId: bank.profile.id, accountId: account() })).toBe(
      2500,
    );
  });

  it('stops a profile’s sync before removing the profile, so none of its rows come back', async () => {
    const job = bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    });
    const removing = new Promise<void>((resolve, reject) => {
      const unsubscribe = bank.services.sync.onProgress((progress) => {
        // Removed as soon as the first page is kept: the others are still on their way.
        if (progress.written === 0) return;
        unsubscribe();
        bank.services.removeProfile(bank.profile.id).then(() => {
          resolve();
        }, reject);
      });
    });
    await removing;
    expect(['cancelled', 'done']).toContain((await job.done).state);
    const rows = bank.services.cache.database.prepare('SELECT COUNT(*) AS n FROM pending_transactions').get() as {
      n: number;
    };
    expect(rows.n).toBe(0);
    expect(bank.services.cache.pendingTransactions.accounts(bank.profile.id)).toEqual([]);
  });

  it('syncs a date range and estimates the time left from it', async () => {
    const events: SyncProgress[] = [];
    bank.services.sync.onProgress((progress) => events.push(progress));
    const outcome = await bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
      fromDate: '2025-12-01',
      toDate: '2026-01-01',
    }).done;
    expect(outcome.state).toBe('done');
    const rows = bank.services.cache.pendingTransactions.list({
      profileId: bank.profile.id,
      accountId: account(),
      limit: 1000,
    }).rows;
    expect(rows.every((row) => String(row.date) >= '2025-12-01' && String(row.date) < '2026-01-01')).toBe(true);
    // A read inside the synced range is as fresh as that sync; the whole account is not.
    expect(
      bank.services.cache.pendingTransactions.asOf({
        profileId: bank.profile.id,
        accountId: account(),
        fromDate: '2025-12-10',
        toDate: '2025-12-20',
      }),
    ).not.toBeNull();
    expect(
      bank.services.cache.pendingTransactions.asOf({ profileId: bank.profile.id, accountId: account() }),
    ).toBeNull();
    if (outcome.fetched > 500)
      expect(events.some((event) => event.state === 'running' && event.etaSeconds !== null)).toBe(true);
  });
});

describe('webhook sends, webhooks and applications', () => {
  it('syncs webhook sends for a filter, incrementally after the first complete sync', async () => {
    const receiver = await startFaultServer();
    receiver.respond((_request, response, index) => {
      json(response, index % 3 === 0 ? 500 : 200, {});
    });
    try {
      const webhook = await bank.services.writes.createWebhook(
        bank.profile.id,
        {
          event: 'ach.create',
          url: `${receiver.baseUrl}/hook`,
        },
        LOOPBACK_SANDBOX,
      );
      for (let n = 0; n < 12; n += 1) {
        await simulate(sandbox, 'ach.create', {
          account_id: account(),
          amount: `${String(n + 1)}.00`,
          direction: 'credit',
        });
      }
      await deliveriesSettled(sandbox);
      const all = await bank.services.sync.start({
        kind: 'webhook-sends',
        profileId: bank.profile.id,
        webhookId: webhook.id,
      }).done;
      expect(all.state).toBe('done');
      expect(all.fetched).toBeGreaterThanOrEqual(12);
      const cached = bank.services.cache.webhookSends.list({
        profileId: bank.profile.id,
        webhookId: webhook.id,
        withTotal: true,
        limit: 1000,
      });
      expect(cached.total).toBe(all.fetched);
      expect(cached.asOf).not.toBeNull();
      expect(cached.rows.every((row) => row.webhook_id === webhook.id)).toBe(true);
      const errors = bank.services.cache.webhookSends.list({
        profileId: bank.profile.id,
        webhookId: webhook.id,
        status: 'error',
      });
      expect(errors.rows.length).toBeGreaterThan(0);
      expect(errors.asOf).toBe(cached.asOf);
      const again = await bank.services.sync.start({
        kind: 'webhook-sends',
        profileId: bank.profile.id,
        webhookId: webhook.id,
      }).done;
      expect(again.written).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it('syncs the send log of one object only, and says how fresh that object’s view is', async () => {
    const receiver = await startFaultServer();
    receiver.respond((_request, response) => {
      json(response, 200, {});
    });
    try {
      await bank.services.writes.createWebhook(
        bank.profile.id,
        { event: 'ach.create', url: `${receiver.baseUrl}/h` },
        LOOPBACK_SANDBOX,
      );
      for (let n = 0; n < 3; n += 1) {
        await simulate(sandbox, 'ach.create', { account_id: account(), amount: '1.00', direction: 'credit' });
      }
      await deliveriesSettled(sandbox);
      const everything = bank.services.clients.clientFor(bank.profile.id).webhookSendPages();
      const objects = new Set<string>();
      for await (const page of everything) for (const send of page.items) objects.add(String(send.object_id));
      const [objectId] = [...objects];
      if (objectId === undefined || objects.size < 2) throw new Error('expected sends for several objects');
      const job = bank.services.sync.start({ kind: 'webhook-sends', profileId: bank.profile.id, objectId });
      expect(job.key).toContain(`objectId=${objectId}`);
      const done = await job.done;
      expect(done.state).toBe('done');
      const cached = bank.services.cache.webhookSends.list({ profileId: bank.profile.id, limit: 1000 });
      expect(cached.rows.length).toBeGreaterThan(0);
      expect(cached.rows.every((row) => row.object_id === objectId)).toBe(true);
      expect(bank.services.cache.webhookSends.asOf({ profileId: bank.profile.id, objectId })).not.toBeNull();
      expect(bank.services.cache.webhookSends.asOf({ profileId: bank.profile.id })).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it('keeps every fetched version of an account application', async () => {
    const [applicationId] = sandbox.demo.accountApplications;
    if (applicationId === undefined) throw new Error('no demo application');
    const first = await bank.services.sync.start({
      kind: 'account-application',
      profileId: bank.profile.id,
      applicationId,
    }).done;
    expect(first).toMatchObject({ state: 'done', fetched: 1, written: 1 });
    const before = bank.services.cache.accountApplications.get(bank.profile.id, applicationId)?.application.status;
    const next = ['submitted', 'kyc', 'processing', 'manual_review', 'approved', 'rejected', 'canceled'];
    let moved = false;
    for (const status of next) {
      if (status === before) continue;
      try {
        await simulate(sandbox, 'account_application.update_status', { account_application_id: applicationId, status });
        moved = true;
        break;
      } catch {
        // Not an allowed move from the current status: try the next.
      }
    }
    expect(moved).toBe(true);
    await bank.services.sync.start({ kind: 'account-application', profileId: bank.profile.id, applicationId }).done;
    const history = bank.services.cache.accountApplications.history(bank.profile.id, applicationId);
    expect(history.rows).toHaveLength(2);
    expect(history.rows[0]?.status).toBe(before);
    expect(history.rows[1]?.status).not.toBe(before);
  });

  it('syncs the webhooks list and forgets a webhook deleted at the bank', async () => {
    const one = await bank.services.writes.createWebhook(
      bank.profile.id,
      {
        event: 'ach.update',
        url: 'http://127.0.0.1:9/one',
      },
      LOOPBACK_SANDBOX,
    );
    const two = await bank.services.writes.createWebhook(
      bank.profile.id,
      {
        event: 'ach.create',
        url: 'http://127.0.0.1:9/two',
      },
      LOOPBACK_SANDBOX,
    );
    await bank.services.sync.start({ kind: 'webhooks', profileId: bank.profile.id }).done;
    expect(
      bank.services.cache.webhooks
        .list({ profileId: bank.profile.id })
        .rows.map((row) => row.id)
        .sort(),
    ).toEqual([one.id, two.id].sort());
    await bank.services.clients.clientFor(bank.profile.id).deleteWebhook(one.id);
    const outcome = await bank.services.sync.start({ kind: 'webhooks', profileId: bank.profile.id }).done;
    expect(outcome.removed).toBe(1);
    expect(bank.services.cache.webhooks.list({ profileId: bank.profile.id }).rows.map((row) => row.id)).toEqual([
      two.id,
    ]);
  });
});

describe('a list that moves under the cursor', () => {
  /**
   * A bank whose list shifted between two requests repeats records on the next page. Pages
   * are planned while earlier ones are still being written, so a repeat is recognised either
   * in the cache or among the pages still on their way to it; either way it is stored once.
   */
  it('stores a repeated record once, and keeps the newest copy of a send that changed', async () => {
    const shifting = await startFaultServer();
    const accountId = 'account_shifting';
    const transactions = [
      [0, 1, 2, 3],
      [2, 3, 4, 5],
      [5, 6, 0],
    ].map((page) => page.map((n) => pendingTransactionOf(accountId, n)));
    const retried = { ...webhookSendOf(2), status: 'error' as const, will_retry: true };
    const delivered = { ...webhookSendOf(2), status: 'sent' as const, will_retry: false, error: null };
    const sends = [
      [webhookSendOf(0), webhookSendOf(1), retried],
      [delivered, webhookSendOf(1), webhookSendOf(3)],
    ];
    shifting.respond((request, response) => {
      const url = new URL(request.url, shifting.baseUrl);
      const pages: unknown[][] = url.pathname.endsWith('/pending_transaction') ? transactions : sends;
      const index = Number(url.searchParams.get('page_cursor') ?? '0');
      const next = index + 1 < pages.length ? `${url.pathname}?page_cursor=${String(index + 1)}` : null;
      json(response, 200, { data: pages[index], page_next: next });
    });
    try {
      const profile = bank.services.profiles.addRemote({
        name: 'Shifting',
        baseUrl: shifting.baseUrl,
        authScheme: 'bearer',
      });
      await bank.services.setProfileSecret(profile.id, 'token-1');

      const synced = await bank.services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId })
        .done;
      expect(synced).toMatchObject({ state: 'done', fetched: 11, written: 7 });
      const cached = bank.services.cache.pendingTransactions.list({ profileId: profile.id, accountId, limit: 100 });
      expect(cached.rows.map((row) => row.trace_id).sort()).toEqual(
        [0, 1, 2, 3, 4, 5, 6].map((n) => pendingTransactionOf(accountId, n).trace_id),
      );

      const sendsSynced = await bank.services.sync.start({ kind: 'webhook-sends', profileId: profile.id }).done;
      expect(sendsSynced).toMatchObject({ state: 'done', fetched: 6, written: 5 });
      const cachedSends = bank.services.cache.webhookSends.list({ profileId: profile.id, limit: 100 });
      expect(cachedSends.rows.map((send) => [send.id, send.status]).sort()).toEqual([
        [webhookSendOf(0).id, webhookSendOf(0).status],
        [webhookSendOf(1).id, webhookSendOf(1).status],
        [delivered.id, 'sent'],
        [webhookSendOf(3).id, webhookSendOf(3).status],
      ]);
    } finally {
      await shifting.close();
    }
  });
});

describe('disk full', () => {
  it('stops with a clear "disk is full" error, keeps the pages written, and resumes once there is room', async () => {
    await bank.services.close();
    // Room for a few pages of 250 beyond the file as its migrations left it (each migration's
    // tables and indexes take pages of their own), never for all 2,500 rows.
    const emptyCacheBytes = statSync(join(temp.folder, CACHE_FILE_NAME)).size;
    const limited = await servicesOn(sandbox, temp.folder, {
      pageSize: 250,
      secrets: bank.secrets,
      cacheSizeLimitBytes: emptyCacheBytes + 1_000_000,
    });
    bank = limited;
    const full = await limited.services.sync.start({
      kind: 'pending-transactions',
      profileId: limited.profile.id,
      accountId: account(),
    }).done;
    expect(full.state).toBe('failed');
    expect(full.failure).toBeInstanceOf(CacheError);
    expect((full.failure as CacheError).kind).toBe('disk-full');
    expect(full.error).toMatch(/is full: nothing was lost/);
    const kept = limited.services.cache.pendingTransactions.count({
      profileId: limited.profile.id,
      accountId: account(),
    });
    const checkpoint = limited.services.cache.checkpoints.get(limited.profile.id, 'pending-transactions', full.key);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(2500);
    expect(checkpoint).toMatchObject({ state: 'failed', written: kept });
    await limited.services.close();

    bank = await servicesOn(sandbox, temp.folder, { pageSize: 250, secrets: limited.secrets });
    const resumed = await bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    }).done;
    expect(resumed).toMatchObject({ state: 'done', resumed: true, fetched: 2500, written: 2500 });
    expect(bank.services.cache.pendingTransactions.count({ profileId: bank.profile.id, accountId: account() })).toBe(
      2500,
    );
  });
});

describe('offline', () => {
  it('reports offline from real failures, keeps reads working, and says how old they are', async () => {
    await bank.services.sync.start({ kind: 'pending-transactions', profileId: bank.profile.id, accountId: account() })
      .done;
    const asOf = bank.services.cache.pendingTransactions.asOf({ profileId: bank.profile.id, accountId: account() });
    expect(bank.services.clients.connectivityOf(bank.profile.id).state.status).toBe('online');
    await sandbox.close();
    const failed = await bank.services.sync.start({
      kind: 'pending-transactions',
      profileId: bank.profile.id,
      accountId: account(),
    }).done;
    expect(failed.state).toBe('failed');
    expect(failed.failure).toBeInstanceOf(BankError);
    expect((failed.failure as BankError).kind).toBe('unreachable');
    const state = bank.services.clients.connectivityOf(bank.profile.id).state;
    expect(state.status).toBe('offline');
    expect(state.nextCheckAt).not.toBeNull();
    // Said as a person reads it (the window's Offline badge): no endpoint, address or socket code.
    expect(state.reason).toMatch(/^The bank of .+ cannot be reached\. Check your network connection/);
    expect(state.reason).not.toMatch(/ECONN|127\.0\.0\.1|GET |\/ping|pending_transaction/);
    const read = bank.services.cache.pendingTransactions.list({
      profileId: bank.profile.id,
      accountId: account(),
      withTotal: true,
    });
    expect(read).toMatchObject({ total: 2500, source: 'cache', asOf });
    // The failed run did not touch the data or the time it was last complete.
    sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 1 });
  });

  it('comes back online when a backed-off ping succeeds', async () => {
    const flaky = await startFaultServer();
    flaky.respond((_request, response, index) => {
      if (index < 2) json(response, 503, { error: 'Starting up.' });
      else json(response, 200, { ok: true });
    });
    try {
      const profile = bank.services.profiles.addRemote({ name: 'Flaky', baseUrl: flaky.baseUrl, authScheme: 'bearer' });
      await bank.services.setProfileSecret(profile.id, 'token-1');
      const connectivity = bank.services.clients.connectivityOf(profile.id);
      const changes: string[] = [];
      connectivity.onChange((state) => changes.push(state.status));
      connectivity.reportUnreachable('test: the bank went away');
      for (let round = 0; round < 200 && connectivity.state.status !== 'online'; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(changes).toEqual(['offline', 'online']);
      expect(flaky.requests.length).toBe(3);
    } finally {
      await flaky.close();
    }
  });
});
