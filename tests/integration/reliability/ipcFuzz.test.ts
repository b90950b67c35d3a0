/**
 * IPC fuzzing: every channel of the contract (enumerated from it), thousands of random and
 * adversarial inputs in all, through the real router core with the real services, listener
 * and a real sandbox bank behind it (the assembly of tests/integration/ipc). Each input is
 * invalid by construction (see support/adversarialInput.ts); each must be refused with the
 * contract's one error shape (`invalid_input`), the router must never throw, no handler may
 * run, no getter may be read, and afterwards the cache database, the profile file, the other
 * files of the data folder, the keychain, the sandbox's data and the prototypes are exactly
 * as before.
 *
 * Deterministic: LEDGERDESK_FUZZ_SEED (default below) seeds every channel; LEDGERDESK_FUZZ_RUNS
 * (default 6,000) is the total, split evenly over the channels. A failure names the seed, the
 * channel's path and a short form of the input.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../../../src/main/ipc/handlerTypes.ts';
import { createRouter, type Router, type RouterLogEntry } from '../../../src/main/ipc/routerCore.ts';
import type { IpcSender } from '../../../src/main/ipc/senderPolicy.ts';
import { startServices, type RunningServices } from '../../../src/main/app/services.ts';
import { InMemorySecretStore, type SecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { CACHE_FILE_NAME } from '../../../src/main/services/cache/offlineCache.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { OPERATIONS_BY_CHANNEL } from '../../../src/shared/ipc/contract.ts';
import { IPC_ERROR_CODES, ipcResult, type IpcResult } from '../../../src/shared/ipc/errors.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { accessorReads, invalidInputFor, type FuzzCase } from './support/adversarialInput.ts';
import { databaseState, folderState, prototypeState } from './support/stateSnapshot.ts';

const SEED = Number(process.env['LEDGERDESK_FUZZ_SEED'] ?? 20_260_808);
const TOTAL_RUNS = Number(process.env['LEDGERDESK_FUZZ_RUNS'] ?? 6_000);
const CHANNELS = [...OPERATIONS_BY_CHANNEL.values()];
const RUNS_PER_CHANNEL = Math.max(20, Math.ceil(TOTAL_RUNS / CHANNELS.length));

const OWN_WINDOW = 7;
const TRUSTED: IpcSender = { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' };
const ERROR_FIELDS = new Set(['code', 'message', 'status', 'retryable', 'action', 'field']);

/** A keychain that counts writes: a refused call must never reach it. */
class CountingSecretStore implements SecretStore {
  readonly #inner = new InMemorySecretStore();
  writes = 0;
  get(account: string): Promise<string | null> {
    return this.#inner.get(account);
  }
  set(account: string, secret: string): Promise<void> {
    this.writes += 1;
    return this.#inner.set(account, secret);
  }
  delete(account: string): Promise<boolean> {
    this.writes += 1;
    return this.#inner.delete(account);
  }
  has(account: string): Promise<boolean> {
    return this.#inner.has(account);
  }
}

/** The real handlers, each counted, so "never reached a handler" is a fact, not a hope. */
function countedHandlers(handlers: Handlers, calls: string[]): Handlers {
  const counted: Record<string, Record<string, (input: unknown, context: unknown) => unknown>> = {};
  for (const [domain, methods] of Object.entries(
    handlers as unknown as Record<string, Record<string, (input: unknown, context: unknown) => unknown>>,
  )) {
    counted[domain] = {};
    for (const [method, handler] of Object.entries(methods)) {
      counted[domain][method] = (input, context) => {
        calls.push(`${domain}.${method}`);
        return handler(input, context);
      };
    }
  }
  return counted as unknown as Handlers;
}

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let router: Router;
let api: LedgerdeskApi;
let secretStore: CountingSecretStore;
const handlerCalls: string[] = [];
const routerLog: RouterLogEntry[] = [];
const published: string[] = [];
let before: {
  database: ReturnType<typeof databaseState>;
  files: ReturnType<typeof folderState>;
  prototypes: ReturnType<typeof prototypeState>;
  bank: string;
  secretWrites: number;
};

function filesOf(): ReturnType<typeof folderState> {
  return folderState(folder, (name) => name.startsWith(CACHE_FILE_NAME));
}

/** Everything the sandbox keeps that a write through IPC could reach. */
async function bankState(): Promise<string> {
  const authorization = `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`;
  const lists = ['/webhook', '/document', '/file', '/webhook_send', '/ach', '/apply/account_application'];
  const answers = await Promise.all(
    lists.map(async (path) => {
      const response = await fetch(`${sandbox.baseUrl}${path}?page_size=1000`, { headers: { authorization } });
      return `${path}:${await response.text()}`;
    }),
  );
  return answers.join('\n');
}

async function waitForSync(profileId: string, jobId: string): Promise<void> {
  for (let round = 0; round < 800; round += 1) {
    const { jobs } = await api.sync.status({ profileId });
    if (!jobs.some((job) => job.jobId === jobId && job.state === 'running')) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`sync ${jobId} did not finish`);
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-ipc-fuzz-'));
  sandbox = await startSandbox({ port: 0, dataFile: ':memory:', retryBaseMs: 20, pendingTransactionsPerAccount: 150 });
  secretStore = new CountingSecretStore();
  services = await startServices({
    dataFolder: folder,
    sandbox,
    secretStore,
    settings: new FileProfileStorage(folder),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-fuzz', platform: process.platform },
    send: (channel) => published.push(channel),
    chooseSavePath: (name) => Promise.resolve(join(folder, 'exports', name)),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  router = createRouter({
    handlers: countedHandlers(services.handlers, handlerCalls),
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
    knownSecrets: () => services.knownSecrets(),
    log: (entry) => routerLog.push(entry),
  });
  api = buildLedgerdeskApi({
    invoke: (channel, input) => router.dispatch(TRUSTED, channel, input),
    on: () => () => undefined,
  });

  // Some state worth protecting: a synced account, a webhook, a second profile with its secret,
  // listener settings and rules, an audit trail.
  const { activeProfileId } = await api.profiles.list();
  const profileId = activeProfileId ?? '';
  const accounts = await api.accounts.list({ profileId });
  const accountId = accounts.rows[0]?.id ?? '';
  const job = await api.sync.start({ profileId, job: { kind: 'pendingTransactions', accountId } });
  await waitForSync(profileId, job.jobId);
  await api.webhooks.create({ profileId, request: { event: 'ach.update', url: 'https://hooks.example/fuzz' } });
  const second = await api.profiles.create({
    name: 'Second bank',
    baseUrl: sandbox.baseUrl,
    authScheme: 'basic',
    keyId: sandbox.keyId,
    production: true,
  });
  await api.credentials.set({ profileId: second.id, secret: sandbox.keySecret });
  await api.listener.configure({
    port: null,
    expectedBasicUser: 'bank',
    expectedBasicSecret: 'listener-fuzz-secret-1',
    retention: { maxRequests: 5_000 },
  });
  await api.listener.setRules({
    rules: [
      {
        name: 'fail ach twice',
        match: { event: 'ach.update' },
        response: { kind: 'failTimes', times: 2, status: 500 },
      },
    ],
  });
  // Let the sandbox deliver what it owes, so its lists stop moving.
  for (let round = 0; round < 400; round += 1) {
    const backlog = sandbox.deliveryBacklog();
    if (backlog.owed === 0 && backlog.inFlight === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }

  handlerCalls.length = 0;
  routerLog.length = 0;
  published.length = 0;
  before = {
    database: databaseState(join(folder, CACHE_FILE_NAME)),
    files: filesOf(),
    prototypes: prototypeState(),
    bank: await bankState(),
    secretWrites: secretStore.writes,
  };
  expect(before.database['pending_transactions']?.rows).toBe(150);
});

afterAll(async () => {
  await services.stop();
  await sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

function shortForm(value: unknown): string {
  const text = fc.stringify(value);
  return text.length > 400 ? `${text.slice(0, 400)}… (${String(text.length)} characters)` : text;
}

/** The one error shape, refused for the reason we expect, nothing more in it. */
function expectRefusal(result: IpcResult, code: (typeof IPC_ERROR_CODES)[number]): void {
  expect(ipcResult.safeParse(result).success).toBe(true);
  if (result.ok) throw new Error(`accepted: ${shortForm(result.value)}`);
  expect(result.error.code).toBe(code);
  expect([...Object.keys(result.error)].every((key) => ERROR_FIELDS.has(key))).toBe(true);
  expect(result.error.message.length).toBeGreaterThan(0);
  expect(result.error.message.length).toBeLessThan(2_000);
  expect(result.error.message).not.toMatch(/\n\s+at |node:internal|\.ts:\d+/);
  // What crosses IPC is structured-cloned: the answer must survive it unchanged.
  expect(structuredClone(result)).toEqual(result);
}

describe('IPC fuzzing through the real router and services', () => {
  it('covers every channel of the contract, and the router registers exactly those', () => {
    expect(router.channels).toEqual(CHANNELS.map((entry) => entry.channel));
    expect(CHANNELS.length).toBeGreaterThan(50);
    process.stdout.write(
      `IPC fuzz: ${String(CHANNELS.length)} channels × ${String(RUNS_PER_CHANNEL)} runs, seed ${String(SEED)}\n`,
    );
  });

  it.each(CHANNELS.map((entry, index) => [entry.channel, entry, index] as const))(
    '%s refuses every invalid input with the error shape and runs nothing',
    async (channel, entry, index) => {
      const seed = SEED + index;
      const details = await fc.check(
        fc.asyncProperty(invalidInputFor(entry.input), async (fuzz: FuzzCase) => {
          const calls = handlerCalls.length;
          let result: IpcResult;
          try {
            result = await router.dispatch(TRUSTED, channel, fuzz.input);
          } catch (thrown) {
            throw new Error(`the router threw (${fuzz.how}): ${String(thrown)}`, { cause: thrown });
          }
          try {
            expectRefusal(result, 'invalid_input');
          } catch (failure) {
            throw new Error(`${fuzz.how}: ${(failure as Error).message}`, { cause: failure });
          }
          expect(handlerCalls.length, `a handler ran (${fuzz.how})`).toBe(calls);
          expect(accessorReads, `a getter was read (${fuzz.how})`).toEqual([]);
        }),
        { seed, numRuns: RUNS_PER_CHANNEL },
      );
      if (details.failed) {
        const fuzz = details.counterexample?.[0];
        throw new Error(
          `IPC fuzz of ${channel} failed after ${String(details.numRuns)} runs ` +
            `(reproduce: LEDGERDESK_FUZZ_SEED=${String(SEED)}, channel seed ${String(details.seed)}, ` +
            `path ${String(details.counterexamplePath)}): ` +
            `${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}\n` +
            `input: ${fuzz === undefined ? '(none)' : `${fuzz.how}: ${shortForm(fuzz.input)}`}`,
        );
      }
    },
  );

  it('refuses unknown channels and untrusted senders with the error shape', async () => {
    const details = await fc.check(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 60 }).filter((name) => !OPERATIONS_BY_CHANNEL.has(name)),
          fc.constantFrom(
            '__proto__',
            'constructor',
            'toString',
            'hasOwnProperty',
            'app.__proto__',
            'app.constructor',
            '__proto__.info',
            'profiles.list ',
            'PROFILES.LIST',
            'profiles..list',
            'x'.repeat(100_000),
          ),
          fc.oneof(fc.integer(), fc.constant(null), fc.constant(undefined), fc.array(fc.string()), fc.object()),
        ),
        fc.constantFrom(...CHANNELS.map((entry) => entry.channel)),
        fc.constantFrom<IpcSender>(
          { webContentsId: OWN_WINDOW + 1, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' },
          { webContentsId: OWN_WINDOW, isMainFrame: false, frameUrl: 'app://ledgerdesk/index.html' },
          { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: null },
          { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'https://evil.example/' },
          { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'app://ledgerdesk.evil.example/' },
          { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'file:///index.html' },
          { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'not a url' },
        ),
        async (badChannel, realChannel, badSender) => {
          const calls = handlerCalls.length;
          expectRefusal(await router.dispatch(TRUSTED, badChannel, {}), 'unknown_channel');
          expectRefusal(await router.dispatch(badSender, realChannel, {}), 'forbidden');
          expect(handlerCalls.length).toBe(calls);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
    expect(details.failed, `seed ${String(SEED)}: ${String(details.errorInstance)}`).toBe(false);
  });

  it('changed nothing: cache, profile file, data folder, keychain, bank and prototypes are as before', async () => {
    expect(handlerCalls).toEqual([]);
    expect(routerLog.filter((entry) => entry.level === 'error')).toEqual([]);
    expect(prototypeState()).toEqual(before.prototypes);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(secretStore.writes).toBe(before.secretWrites);
    expect(databaseState(join(folder, CACHE_FILE_NAME))).toEqual(before.database);
    expect(filesOf()).toEqual(before.files);
    expect(await bankState()).toBe(before.bank);
    // And the services still answer normally.
    const { profiles } = await api.profiles.list();
    expect(profiles.map((profile) => profile.name)).toContain('Second bank');
  });
});
