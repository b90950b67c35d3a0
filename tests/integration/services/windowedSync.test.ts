/**
 * The sync walking date windows side by side against the real sandbox bank: random seeds,
 * random date ranges (edges on any day), random parallelism and page sizes; afterwards the
 * cache holds exactly what the bank lists, each record once. A second sync cuts its windows
 * from the first one's dates and still agrees. With `--rate-limit`, the bank answers 429
 * and the sync slows down, honours Retry-After and still completes. Webhook sends too.
 * (kill -9 and resume of a windowed sync: killMidSync.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingTransaction } from '../../../src/shared/bank/index.ts';
import type { SyncProgress } from '../../../src/main/services/sync/syncProgress.ts';
import { dateOfDay, dayOf } from '../../../src/main/services/sync/dateWindows.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import {
  deliveriesSettled,
  simulate,
  startBank,
  type RunningSandbox,
  LOOPBACK_SANDBOX,
} from './support/sandboxBank.ts';
import { json, startFaultServer } from './support/faultServer.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A deterministic generator for the test's own choices (seeded, printed on failure). */
function randomOf(seed: number): (below: number) => number {
  let state = seed >>> 0 || 1;
  return (below) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
}

async function bankWithServices(
  sandboxOptions: Parameters<typeof startBank>[0],
  options: { pageSize: number; parallelism: number },
): Promise<{ sandbox: RunningSandbox; services: LedgerServices; profile: Profile }> {
  const sandbox = await startBank(sandboxOptions);
  cleanups.push(() => sandbox.close());
  const temp = makeTempFolder();
  cleanups.push(() => {
    temp.remove();
  });
  const services = await LedgerServices.open({
    dataFolder: temp.folder,
    secretStore: new InMemorySecretStore(),
    profileStorage: new FileProfileStorage(temp.folder),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    syncPageSize: options.pageSize,
    syncParallelism: options.parallelism,
  });
  cleanups.push(() => services.close());
  const profile = await services.addProfile(
    { name: 'Sandbox', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId },
    sandbox.keySecret,
  );
  return { sandbox, services, profile };
}

/** Every record the bank lists for the range, walked plainly, one cursor, as JSON texts. */
async function bankRecords(
  services: LedgerServices,
  profile: Profile,
  accountId: string,
  range: { fromDate?: string; toDate?: string },
): Promise<string[]> {
  const texts: string[] = [];
  for await (const record of services.clients
    .clientFor(profile.id)
    .pendingTransactions(accountId, range, { pageSize: 1000 })) {
    texts.push(JSON.stringify(record));
  }
  return texts.sort();
}

/** Every record the cache holds for the account, as JSON texts of the bank's fields. */
function cachedRecords(services: LedgerServices, profile: Profile, accountId: string): string[] {
  const texts: string[] = [];
  let cursor: string | null = null;
  do {
    const page = services.cache.pendingTransactions.list({
      profileId: profile.id,
      accountId,
      limit: 500,
      ...(cursor === null ? {} : { cursor }),
    });
    // The bank's fields only: JSON leaves out the cache's row key once it is undefined.
    for (const row of page.rows) texts.push(JSON.stringify({ ...row, row_key: undefined }));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return texts.sort();
}

/** The creation days the account's records span, from the bank's newest and a plain walk. */
function spanOf(texts: readonly string[]): { oldest: number; newest: number } {
  const days = texts.map((text) =>
    dayOf((JSON.parse(text) as PendingTransaction).extended_timestamp_precise.slice(0, 10)),
  );
  return { oldest: Math.min(...days), newest: Math.max(...days) };
}

describe('a sync in date windows', () => {
  it('leaves the cache equal to the bank, whatever the seed, the range edges, the parallelism and the page size', async () => {
    const seed = Date.now() % 100_000;
    const random = randomOf(seed);
    for (let round = 0; round < 3; round += 1) {
      const parallelism = 2 + random(7);
      const pageSize = 40 + random(200);
      const { services, profile, sandbox } = await bankWithServices(
        { seed: 1 + random(10_000), accounts: 1, pendingTransactionsPerAccount: 800 + random(1500) },
        { pageSize, parallelism },
      );
      const accountId = sandbox.demo.accounts[0] ?? '';
      const everything = await bankRecords(services, profile, accountId, {});
      const span = spanOf(everything);
      // A range with edges anywhere: inside the data, at its very first or last day, or open.
      const edge = (): string | undefined => {
        const choice = random(5);
        if (choice === 0) return undefined;
        if (choice === 1) return dateOfDay(span.oldest);
        if (choice === 2) return dateOfDay(span.newest);
        return dateOfDay(span.oldest + random(span.newest - span.oldest + 2));
      };
      let [fromDate, toDate] = [edge(), edge()];
      if (fromDate !== undefined && toDate !== undefined && fromDate >= toDate) [fromDate, toDate] = [toDate, fromDate];
      if (fromDate === toDate) toDate = undefined;
      const range = { ...(fromDate === undefined ? {} : { fromDate }), ...(toDate === undefined ? {} : { toDate }) };
      const label = `seed ${String(seed)} round ${String(round)}: ${JSON.stringify({ parallelism, pageSize, range })}`;

      const events: SyncProgress[] = [];
      services.sync.onProgress((progress) => events.push(progress));
      const expected = await bankRecords(services, profile, accountId, range);
      const first = await services.sync.start({
        kind: 'pending-transactions',
        profileId: profile.id,
        accountId,
        ...range,
      }).done;
      expect(first, label).toMatchObject({ state: 'done', fetched: expected.length, written: expected.length });
      expect(cachedRecords(services, profile, accountId), label).toEqual(expected);
      const last = events.at(-1);
      expect(last?.windowsTotal, label).toBeGreaterThanOrEqual(1);
      expect(last?.windowsDone, label).toBe(last?.windowsTotal);
      expect(last?.pages, label).toBeGreaterThanOrEqual(Math.ceil(expected.length / pageSize));

      // Again: the windows come from the cache's dates now; nothing new, nothing lost.
      const second = await services.sync.start({
        kind: 'pending-transactions',
        profileId: profile.id,
        accountId,
        ...range,
      }).done;
      expect(second, label).toMatchObject({ state: 'done', fetched: expected.length, written: 0, removed: 0 });
      expect(cachedRecords(services, profile, accountId), label).toEqual(expected);
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    }
  });

  it('walks several windows at once, reports them, and estimates the time left from their share', async () => {
    const { services, profile, sandbox } = await bankWithServices(
      { accounts: 1, pendingTransactionsPerAccount: 3000 },
      { pageSize: 100, parallelism: 4 },
    );
    const accountId = sandbox.demo.accounts[0] ?? '';
    const events: SyncProgress[] = [];
    services.sync.onProgress((progress) => events.push(progress));
    const outcome = await services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId }).done;
    expect(outcome).toMatchObject({ state: 'done', fetched: 3000, written: 3000 });
    const running = events.filter((event) => event.state === 'running');
    expect(Math.max(...running.map((event) => event.windowsTotal))).toBeGreaterThan(4);
    expect(running.some((event) => event.etaSeconds !== null && event.etaSeconds >= 0)).toBe(true);
    expect(running.every((event) => event.parallelism >= 1 && event.parallelism <= 4)).toBe(true);
    const windowsDone = running.map((event) => event.windowsDone);
    expect(windowsDone).toEqual([...windowsDone].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ state: 'done', etaSeconds: 0 });
    // 30 full pages at least; a window whose records end on a page boundary adds an empty last page.
    expect(events.at(-1)?.pages).toBeGreaterThanOrEqual(30);
    // The windows are forgotten with the completed checkpoint.
    expect(services.cache.windowCheckpoints.of(profile.id, 'pending-transactions', outcome.key)).toEqual([]);
  });

  it('meets the bank’s rate limit: 429s slow it down, Retry-After is honoured, and the cache still equals the bank', async () => {
    const { services, profile, sandbox } = await bankWithServices(
      { accounts: 1, pendingTransactionsPerAccount: 1200, rateLimit: 8 },
      { pageSize: 50, parallelism: 8 },
    );
    const accountId = sandbox.demo.accounts[0] ?? '';
    const events: SyncProgress[] = [];
    services.sync.onProgress((progress) => events.push(progress));
    const started = performance.now();
    const outcome = await services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId }).done;
    const seconds = (performance.now() - started) / 1000;
    expect(outcome).toMatchObject({ state: 'done', fetched: 1200, written: 1200 });
    // The limiter really refused: the sync lowered its requests at once below the 8 it began with.
    expect(Math.min(...events.map((event) => event.parallelism).filter((n) => n > 0))).toBeLessThan(8);
    // 24 pages and the probes at 8 a second cannot take less than about 3 s, however it is done.
    expect(seconds).toBeGreaterThan(2);
    const expected = await new Promise<string[]>((resolve, reject) => {
      // The limit applies to this walk too: wait for a full bucket first.
      setTimeout(() => {
        bankRecords(services, profile, accountId, {}).then(resolve, reject);
      }, 1100);
    });
    expect(cachedRecords(services, profile, accountId)).toEqual(expected);
  });

  it('syncs webhook sends in windows too, each send once', async () => {
    const { services, profile, sandbox } = await bankWithServices({ accounts: 1 }, { pageSize: 7, parallelism: 4 });
    const receiver = await startFaultServer();
    cleanups.push(() => receiver.close());
    receiver.respond((_request, response) => {
      json(response, 200, {});
    });
    await services.writes.createWebhook(
      profile.id,
      { event: 'ach.create', url: `${receiver.baseUrl}/hook` },
      LOOPBACK_SANDBOX,
    );
    for (let n = 0; n < 12; n += 1) {
      await simulate(sandbox, 'ach.create', {
        account_id: sandbox.demo.accounts[0],
        amount: `${String(n + 1)}.00`,
        direction: 'credit',
      });
    }
    await deliveriesSettled(sandbox);
    const bank: string[] = [];
    for await (const page of services.clients.clientFor(profile.id).webhookSendPages({}, {}, { pageSize: 1000 })) {
      bank.push(...page.items.map((send) => send.id));
    }
    expect(bank.length).toBeGreaterThan(7);
    const outcome = await services.sync.start({ kind: 'webhook-sends', profileId: profile.id }).done;
    expect(outcome).toMatchObject({ state: 'done', fetched: bank.length, written: bank.length });
    const cached = services.cache.webhookSends.list({ profileId: profile.id, limit: 1000 }).rows.map((send) => send.id);
    expect(cached.sort()).toEqual(bank.sort());
  });
});
