/**
 * Faults under load: the sandbox bank in a process of its own (`npm run sandbox`, as the app
 * runs it in a utilityProcess), the app's services (sync and the listener, through the real
 * router) in this one, and a load of bank events, all on loopback, while the
 * listener — the webhooks' receiver — goes through phases: healthy, slow within the bank's
 * delivery deadline, slow past it, answering 500, resetting connections, down (stopped), and
 * healthy again. Syncs of a large account and of the send log run all the while.
 *
 * Afterwards, once the bank's retry schedule has drained (tiny retry base), every event is
 * accounted for: each ACH event (one object each) has one chain of attempts numbered 0..n,
 * every one but the last `will_retry: true`, the last `sent`, or `error` with
 * `will_retry: false`; the account events (many per object) end in exactly as many terminal
 * records as were emitted; everything the bank calls sent reached the listener with 200.
 * The cache holds exactly the bank's pending transactions and send log after a final sync.
 * RSS is sampled throughout; file descriptors are counted before and after.
 *
 * Every loop is bounded in count and time, and the run stops by itself. LEDGERDESK_FAULT_DEBUG=1
 * prints each phase's start and the send records by outcome.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { createRouter } from '../../../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices } from '../../../../src/main/app/services.ts';
import { InMemorySecretStore } from '../../../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../../../src/main/services/profiles/profileStorage.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../../../src/shared/ipc/bridge.ts';
import type { z } from 'zod';
import type { listenerRuleInput } from '../../../../src/shared/ipc/domains/listener.ts';

export type Phase = 'healthy' | 'slow' | 'past-deadline' | 'errors' | 'resets' | 'down' | 'recovered';

/** Every fault; healthy again before the outage (so retries of the faults succeed), then down (so some run out). */
export const FAULT_PHASES: readonly Phase[] = [
  'healthy',
  'slow',
  'past-deadline',
  'errors',
  'resets',
  'healthy',
  'down',
  'recovered',
];

export interface FaultRunOptions {
  /** Simulations (bank events) sent per phase. */
  eventsPerPhase: number;
  /** Phases in order; the default goes through every fault. */
  phases?: readonly Phase[];
  /** Simulations in flight at once. */
  concurrency?: number;
  /** Pending transactions of the account the syncs page through. */
  syncAccountSize?: number;
  /** Sample RSS this often. */
  sampleEveryMs?: number;
}

export interface FaultRunReport {
  events: { ach: number; account: number };
  sends: { total: number; sent: number; finalErrors: number; skipped: number; retries: number };
  /** ACH events by how they ended: sent first time, sent after retries, given up. */
  outcomes: { sentFirstTime: number; sentAfterRetries: number; gaveUp: number };
  listenerRequests: number;
  syncRounds: number;
  seconds: { load: number; drain: number };
  /** This process (services, listener, sync), sampled; and the bank's process, its peak as the kernel counts it. */
  rss: { startMiB: number; peakMiB: number; endMiB: number; samples: number; bankPeakMiB: number };
  fds: { before: number; after: number; leaked: string[] };
  /** Every way the run broke a promise; empty when everything is accounted for. */
  violations: string[];
}

interface Send {
  id: string;
  webhook_id: string;
  object_id: string;
  status: 'sent' | 'skipped' | 'error';
  attempt_number: number;
  will_retry: boolean;
  error: string | null;
}

const DELIVERY_TIMEOUT_MS = 1_000;
const SANDBOX_CLI = join(import.meta.dirname, '..', '..', '..', '..', 'src', 'sandbox', 'cli.ts');
const OWN_WINDOW = 9;

type ListenerRuleInput = z.input<typeof listenerRuleInput>;

function rulesFor(phase: Phase): ListenerRuleInput[] {
  switch (phase) {
    case 'slow':
      return [{ name: 'slow', response: { kind: 'delay', delayMs: 50, status: 200 } }];
    case 'past-deadline':
      return [
        { name: 'past the deadline', response: { kind: 'delay', delayMs: DELIVERY_TIMEOUT_MS * 1.5, status: 200 } },
      ];
    case 'errors':
      return [{ name: '500', response: { kind: 'status', status: 500 } }];
    case 'resets':
      return [{ name: 'reset', response: { kind: 'drop' } }];
    default:
      return [];
  }
}

/** The open file descriptors of this process, by what they point at (numbers folded, so sockets count together). */
export function openDescriptors(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed while listing (the listing's own descriptor, for one)
    }
    const kind = target.replace(/\d+/g, 'N');
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

function countOf(descriptors: Map<string, number>): number {
  return [...descriptors.values()].reduce((sum, count) => sum + count, 0);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return port;
}

async function settle(
  what: string,
  check: () => Promise<boolean> | boolean,
  rounds: number,
  everyMs = 25,
): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`gave up waiting for ${what} after ${String(rounds)} checks`);
}

interface BankProcess {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  accounts: string[];
  /** Deliveries owed and in flight, read from its data file. */
  backlog(): { owed: number; inFlight: number };
  /** Its peak RSS (VmHWM) in MiB. */
  peakRssMiB(): number;
  stop(): Promise<void>;
}

/** `npm run sandbox` on a data file, in a child process; its JSON line says where it listens. */
async function startBankProcess(file: string, accountSize: number): Promise<BankProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      SANDBOX_CLI,
      '--json',
      '--port',
      '0',
      '--data',
      file,
      '--accounts',
      '2',
      '--pending-per-account',
      String(accountSize),
      '--retry-base-ms',
      '2',
      '--retry-cap-ms',
      '150',
      '--delivery-timeout-ms',
      String(DELIVERY_TIMEOUT_MS),
      // Webhooks stay enabled: every event runs its whole retry schedule.
      '--error-threshold',
      '1000000000',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const stdout = child.stdout;
  if (stdout === null) throw new Error('the sandbox has no standard output');
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: stdout }).once('line', resolve);
    void exited.then(() => {
      reject(new Error('the sandbox exited before it was ready'));
    });
  });
  const started = JSON.parse(line) as { baseUrl: string; keyId: string; keySecret: string; accounts: string[] };
  const reader = new DatabaseSync(file, { readOnly: true });
  reader.exec('PRAGMA busy_timeout = 5000');
  const backlogQuery = reader.prepare('SELECT COUNT(*) AS owed, COALESCE(SUM(in_flight), 0) AS inFlight FROM delivery');
  return {
    ...started,
    backlog: () => {
      const row = backlogQuery.get() as { owed: number; inFlight: number };
      return { owed: row.owed, inFlight: row.inFlight };
    },
    peakRssMiB: () => {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${String(child.pid)}/status`, 'utf8'));
      return Math.round(Number(match?.[1] ?? 0) / 102.4) / 10;
    },
    async stop() {
      reader.close();
      child.kill('SIGTERM');
      const stopped = await Promise.race([
        exited.then(() => true),
        new Promise((resolve) => setTimeout(resolve, 10_000, false)),
      ]);
      if (stopped !== true) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };
}

export async function runFaultScenario(options: FaultRunOptions): Promise<FaultRunReport> {
  const phases = options.phases ?? FAULT_PHASES;
  const concurrency = options.concurrency ?? 4;
  const violations: string[] = [];
  const descriptorsBefore = openDescriptors();
  const rssSamples: number[] = [process.memoryUsage().rss];
  const sampler = setInterval(() => rssSamples.push(process.memoryUsage().rss), options.sampleEveryMs ?? 50);
  sampler.unref();

  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-faults-'));
  let sandbox: BankProcess | null = null;
  let services: RunningServices | null = null;
  try {
    sandbox = await startBankProcess(join(folder, 'sandbox.db'), options.syncAccountSize ?? 5_000);
    const bank = sandbox;
    services = await startServices({
      dataFolder: folder,
      sandbox: bank,
      secretStore: new InMemorySecretStore(),
      settings: new InMemoryProfileStorage(),
      keychain: () => Promise.resolve({ available: true, backend: 'in-memory (tests)' }),
      app: { name: 'Ledgerdesk', version: '0.0.0-faults', platform: process.platform },
      send: () => undefined,
      chooseSavePath: (name) => Promise.resolve(join(folder, name)),
      openExternal: () => false,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const running = services;
    const router = createRouter({
      handlers: running.handlers,
      senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
      knownSecrets: () => running.knownSecrets(),
    });
    const api: LedgerdeskApi = buildLedgerdeskApi({
      invoke: (channel, input) =>
        router.dispatch(
          { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'app://ledgerdesk/' },
          channel,
          input,
        ),
      on: () => () => undefined,
    });
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
    const [busyAccount = '', quietAccount = ''] = bank.accounts;
    const authorization = `Basic ${Buffer.from(`${bank.keyId}:${bank.keySecret}`).toString('base64')}`;
    const bankCall = async (method: string, path: string, body?: unknown): Promise<unknown> => {
      const response = await fetch(bank.baseUrl + path, {
        method,
        headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${text}`);
      return text === '' ? null : (JSON.parse(text) as unknown);
    };

    // The receiver: the app's listener on a port of its own, with two one-step registrations.
    const port = await freePort();
    await api.listener.configure({ port: null, retention: { maxRequests: 1_000_000 } });
    await api.listener.start({ port });
    const achHook = await api.listener.register({ profileId, event: 'ach.create' });
    const accountHook = await api.listener.register({ profileId, event: 'account.update' });

    // Syncs running all the while: the busy account (paged through again and again) and the send log.
    const load = { done: false };
    let syncRounds = 0;
    const syncLoop = (async () => {
      for (let round = 0; round < 1_000 && !load.done; round += 1) {
        for (const job of [
          { kind: 'pendingTransactions', accountId: busyAccount },
          { kind: 'webhookSends' },
        ] as const) {
          const started = await api.sync.start({ profileId, job });
          await settle(
            'a sync under load',
            async () => {
              const { jobs } = await api.sync.status({ profileId });
              return !jobs.some((one) => one.jobId === started.jobId && one.state === 'running');
            },
            4_000,
            10,
          );
        }
        syncRounds += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    // The load: simulations, `concurrency` at a time, phase by phase.
    const achIds: string[] = [];
    const phaseOfAch = new Map<string, Phase>();
    let accountEvents = 0;
    let busyAccountEvents = 0;
    const loadStarted = performance.now();
    for (const phase of phases) {
      if (phase === 'down') await api.listener.stop({});
      if (phase === 'recovered') await api.listener.start({ port });
      await api.listener.setRules({ rules: rulesFor(phase) });
      if (process.env['LEDGERDESK_FAULT_DEBUG'] !== undefined) {
        const status = await api.listener.status({});
        process.stdout.write(
          `${phase} at ${String(Math.round(performance.now() - loadStarted))} ms: running ${String(status.running)} ${String(status.url)}, backlog ${JSON.stringify(bank.backlog())}\n`,
        );
      }
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < options.eventsPerPhase) {
            const index = next;
            next += 1;
            if (index % 2 === 0) {
              const accepted = (await bankCall('POST', '/simulation', {
                type: 'ach.create',
                simulation: { account_id: busyAccount, amount: '1.00', direction: 'credit' },
              })) as { object_id: string };
              achIds.push(accepted.object_id);
              phaseOfAch.set(accepted.object_id, phase);
              busyAccountEvents += 1;
            } else {
              const onBusy = index % 4 === 1;
              await bankCall('POST', '/simulation', {
                type: 'account.pending_transaction',
                simulation: { account_id: onBusy ? busyAccount : quietAccount, amount: '-1.00' },
              });
              if (onBusy) busyAccountEvents += 1;
            }
            // Both kinds post a pending transaction: one account.update each.
            accountEvents += 1;
          }
        }),
      );
      if (phase === 'down' || phase === 'healthy' || phase === 'recovered') {
        // A healthy receiver stays so until the bank has caught up (retries of earlier faults
        // are sent); a receiver that is down stays down until every retry owed has run out.
        await settle(
          `the bank to catch up (${phase})`,
          () => {
            const backlog = bank.backlog();
            return backlog.owed === 0 && backlog.inFlight === 0;
          },
          12_000,
        );
      }
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    // Drain: the healthy listener takes every retry still owed.
    const drainStarted = performance.now();
    await settle(
      'the retry schedule to drain',
      () => {
        const backlog = bank.backlog();
        return backlog.owed === 0 && backlog.inFlight === 0;
      },
      6_000,
    );
    load.done = true;
    await syncLoop;
    const drainSeconds = (performance.now() - drainStarted) / 1000;

    // Every event accounted for, from the bank's send records.
    const sends: Send[] = [];
    let path: string | null = '/webhook_send?page_size=1000';
    for (let page = 0; page < 10_000 && path !== null; page += 1) {
      const listed = (await bankCall('GET', path)) as { data: Send[]; page_next: string | null };
      sends.push(...listed.data);
      path = listed.page_next === null ? null : new URL(listed.page_next).pathname + new URL(listed.page_next).search;
    }
    const terminal = (send: Send): boolean => send.status === 'sent' || send.status === 'skipped' || !send.will_retry;
    const byAch = new Map<string, Send[]>();
    for (const send of sends.filter((one) => one.webhook_id === achHook.webhook.id)) {
      byAch.set(send.object_id, [...(byAch.get(send.object_id) ?? []), send]);
    }
    for (const achId of achIds) {
      const chain = (byAch.get(achId) ?? []).sort((a, b) => a.attempt_number - b.attempt_number);
      const numbers = chain.map((send) => send.attempt_number);
      if (chain.length === 0) {
        violations.push(`${achId}: no send record at all`);
        continue;
      }
      if (numbers.some((number, index) => number !== index)) violations.push(`${achId}: attempts ${numbers.join(',')}`);
      const last = chain[chain.length - 1];
      if (last === undefined || !terminal(last) || (last.status === 'sent' && last.will_retry)) {
        violations.push(`${achId}: ends with ${JSON.stringify(last)}`);
      }
      if (chain.slice(0, -1).some((send) => terminal(send)))
        violations.push(`${achId}: a terminal record before the last`);
    }
    if (byAch.size !== achIds.length)
      violations.push(`sends for ${String(byAch.size)} ACH objects, ${String(achIds.length)} created`);
    const accountTerminal = sends.filter((one) => one.webhook_id === accountHook.webhook.id && terminal(one)).length;
    if (accountTerminal !== accountEvents) {
      violations.push(
        `account.update: ${String(accountTerminal)} terminal records for ${String(accountEvents)} events`,
      );
    }

    // What the bank calls sent, the listener received and answered 200.
    const answered = new Set<string>();
    let cursor: string | null = null;
    let listenerRequests = 0;
    for (let page = 0; page < 10_000; page += 1) {
      const listed = await api.listener.listRequests({
        event: 'ach.create',
        limit: 1000,
        ...(cursor === null ? {} : { cursor }),
      });
      listenerRequests += listed.rows.length;
      for (const row of listed.rows) if (row.status === 200 && row.objectId !== null) answered.add(row.objectId);
      cursor = listed.nextCursor;
      if (cursor === null) break;
    }
    for (const [achId, chain] of byAch) {
      if (chain.some((send) => send.status === 'sent') && !answered.has(achId)) {
        violations.push(`${achId}: sent, but the listener never answered 200`);
      }
    }

    // A last sync: the cache holds exactly what the bank holds.
    for (const job of [{ kind: 'pendingTransactions', accountId: busyAccount }, { kind: 'webhookSends' }] as const) {
      const started = await api.sync.start({ profileId, job });
      await settle(
        'the final sync',
        async () => {
          const { jobs } = await api.sync.status({ profileId });
          return !jobs.some((one) => one.jobId === started.jobId && one.state === 'running');
        },
        8_000,
        10,
      );
    }
    let bankPending = 0;
    let pendingPath: string | null = `/account/${busyAccount}/pending_transaction?page_size=1000`;
    for (let page = 0; page < 10_000 && pendingPath !== null; page += 1) {
      const listed = (await bankCall('GET', pendingPath)) as { data: unknown[]; page_next: string | null };
      bankPending += listed.data.length;
      pendingPath =
        listed.page_next === null ? null : new URL(listed.page_next).pathname + new URL(listed.page_next).search;
    }
    const expectedPending = (options.syncAccountSize ?? 5_000) + busyAccountEvents;
    if (bankPending !== expectedPending) {
      violations.push(
        `the bank lists ${String(bankPending)} pending transactions of the busy account, ${String(expectedPending)} expected`,
      );
    }
    const cachedPending = (await api.pendingTransactions.count({ profileId, accountId: busyAccount })).count;
    if (cachedPending !== bankPending) {
      violations.push(
        `cache has ${String(cachedPending)} pending transactions of the busy account, the bank ${String(bankPending)}`,
      );
    }
    const cachedSends = (await api.webhookSends.count({ profileId })).count;
    if (cachedSends !== sends.length)
      violations.push(`cache has ${String(cachedSends)} sends, the bank ${String(sends.length)}`);

    if (process.env['LEDGERDESK_FAULT_DEBUG'] !== undefined) {
      const reasons = new Map<string, number>();
      for (const send of sends) {
        const key = `${send.status} ${String(send.will_retry)} ${(send.error ?? '').replace(/\d+/g, 'N').slice(0, 80)}`;
        reasons.set(key, (reasons.get(key) ?? 0) + 1);
      }
      process.stdout.write(`${JSON.stringify(Object.fromEntries(reasons), null, 1)}\n`);
      const outcomes = new Map<string, number>();
      for (const [achId, chain] of byAch) {
        const last = chain[chain.length - 1];
        const key = `${phaseOfAch.get(achId) ?? '?'} ${last?.status ?? '?'} after ${String(chain.length)}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
      process.stdout.write(`${JSON.stringify(Object.fromEntries([...outcomes].sort()), null, 1)}\n`);
    }
    const report: Omit<FaultRunReport, 'rss' | 'fds'> = {
      events: { ach: achIds.length, account: accountEvents },
      sends: {
        total: sends.length,
        sent: sends.filter((one) => one.status === 'sent').length,
        finalErrors: sends.filter((one) => one.status === 'error' && !one.will_retry).length,
        skipped: sends.filter((one) => one.status === 'skipped').length,
        retries: sends.filter((one) => one.attempt_number > 0).length,
      },
      outcomes: {
        sentFirstTime: [...byAch.values()].filter((chain) => chain.length === 1 && chain[0]?.status === 'sent').length,
        sentAfterRetries: [...byAch.values()].filter(
          (chain) => chain.length > 1 && chain[chain.length - 1]?.status === 'sent',
        ).length,
        gaveUp: [...byAch.values()].filter((chain) => chain[chain.length - 1]?.status === 'error').length,
      },
      listenerRequests,
      syncRounds,
      seconds: { load: loadSeconds, drain: drainSeconds },
      violations,
    };

    const bankPeakMiB = sandbox.peakRssMiB();
    await services.stop();
    services = null;
    await sandbox.stop();
    sandbox = null;
    rmSync(folder, { recursive: true, force: true });

    // Sockets closed by the peers leave this process a moment later: wait (bounded) for them.
    let descriptorsAfter = openDescriptors();
    for (let round = 0; round < 100 && countOf(descriptorsAfter) > countOf(descriptorsBefore) + 1; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      descriptorsAfter = openDescriptors();
    }
    clearInterval(sampler);
    rssSamples.push(process.memoryUsage().rss);
    // Node keeps one /dev/null open for good after its first child with stdio 'ignore' (the
    // bank's stdin): one, however many children follow, so it is not a leak.
    const allowance = (kind: string): number => (kind === '/dev/null' ? 1 : 0);
    const leaked = [...descriptorsAfter]
      .filter(([kind, count]) => count > (descriptorsBefore.get(kind) ?? 0) + allowance(kind))
      .map(([kind, count]) => `${kind} ×${String(count - (descriptorsBefore.get(kind) ?? 0))}`);
    const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;
    return {
      ...report,
      rss: {
        startMiB: mib(rssSamples[0] ?? 0),
        peakMiB: mib(Math.max(...rssSamples)),
        endMiB: mib(rssSamples[rssSamples.length - 1] ?? 0),
        samples: rssSamples.length,
        bankPeakMiB,
      },
      fds: { before: countOf(descriptorsBefore), after: countOf(descriptorsAfter), leaked },
    };
  } finally {
    clearInterval(sampler);
    if (services !== null) await services.stop().catch(() => undefined);
    if (sandbox !== null) await sandbox.stop().catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  }
}
