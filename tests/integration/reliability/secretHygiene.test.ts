/**
 * Secret hygiene: the whole app runs through the real router, services, listener, a sandbox
 * bank whose data file lives in the app data folder (as in the app) and the exports — three
 * profiles (the embedded sandbox, a remote Basic one, a remote Bearer one), syncs of every
 * kind, a webhook with Basic credentials, a document, a file, card art, the listener with
 * its own Basic secret and a one-step registration (fresh route secret) receiving real
 * notifications, failing some on purpose, replaying with Basic and forwarding, and every
 * export. Then every secret of the run — the API key secret, the bearer token, the webhook's
 * and the listener's Basic secrets, the registration's route secret, the cache's data key,
 * every value that went into the keychain — is searched for, in plain, UTF-16, JSON, URL,
 * hex and base64 forms (any alignment, so inside any `Basic …`), in: every file of the app
 * data folder (cache database and its WAL as raw bytes, the profile file, logs, exports),
 * and every IPC reply and event. Zero hits, while running and after shutdown.
 *
 * The embedded bank's own `sandbox.db` must hold the Basic secrets of the webhooks it
 * delivers to (any bank does); it is searched separately and may hold those and nothing else.
 *
 * A positive control plants a secret in each kind of place (a log line, an export, the
 * profile file, a row in the live cache's WAL, an IPC reply) and shows the search finds it.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '../../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices } from '../../../src/main/app/services.ts';
import { createLogger } from '../../../src/main/app/log.ts';
import { InMemorySecretStore, type SecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { CACHE_FILE_NAME } from '../../../src/main/services/cache/offlineCache.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { needlesOf, scanBytes, scanFolder, type Hit, type Needle } from './support/secretScan.ts';

const OWN_WINDOW = 5;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A keychain that remembers every value ever put in it: each is a secret to search for. */
class RecordingSecretStore implements SecretStore {
  readonly #inner = new InMemorySecretStore();
  readonly values = new Map<string, string>();
  get(account: string): Promise<string | null> {
    return this.#inner.get(account);
  }
  set(account: string, secret: string): Promise<void> {
    this.values.set(`${account}#${String(this.values.size)}`, secret);
    return this.#inner.set(account, secret);
  }
  delete(account: string): Promise<boolean> {
    return this.#inner.delete(account);
  }
  has(account: string): Promise<boolean> {
    return this.#inner.has(account);
  }
}

const run = {
  keyId: `key_hygiene_${randomBytes(4).toString('hex')}`,
  keySecret: `sk_hygiene_${randomBytes(18).toString('base64url')}`,
  webhookSecret: `whsec_${randomBytes(18).toString('base64url')}`,
  listenerSecret: `lsec_${randomBytes(18).toString('base64url')}`,
  bearerToken: '',
};

let folder: string;
let replies: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let api: LedgerdeskApi;
let router: Router;
let store: RecordingSecretStore;
let receiver: Server;
let receiverUrl: string;
const received: IncomingHttpHeaders[] = [];
const ipcRecord: string[] = [];
let stopped = false;

function basicOf(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
}

async function bank(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(sandbox.baseUrl + path, {
    method,
    headers: {
      authorization: basicOf(run.keyId, run.keySecret),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${text}`);
  return text === '' ? null : (JSON.parse(text) as unknown);
}

async function until(what: string, check: () => Promise<boolean> | boolean, rounds = 800): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function syncToEnd(profileId: string, job: Parameters<LedgerdeskApi['sync']['start']>[0]['job']): Promise<void> {
  const started = await api.sync.start({ profileId, job });
  await until(`sync ${started.jobId}`, async () => {
    const { jobs } = await api.sync.status({ profileId });
    return !jobs.some((one) => one.jobId === started.jobId && one.state === 'running');
  });
  const { jobs } = await api.sync.status({ profileId });
  const finished = jobs.find((one) => one.jobId === started.jobId) ?? started;
  expect(finished.state, finished.error).not.toBe('failed');
}

/** Every secret of the run, in every form. */
function needles(): Needle[] {
  const all: Needle[] = [
    ...needlesOf('API key secret', run.keySecret),
    ...needlesOf('bearer token', run.bearerToken),
    ...needlesOf('webhook Basic secret', run.webhookSecret),
    ...needlesOf('listener Basic secret', run.listenerSecret),
  ];
  for (const [account, value] of store.values) {
    all.push(...needlesOf(`keychain ${account}`, value));
    if (account.startsWith('cache:data-key:'))
      all.push(...needlesOf(`cache data key bytes`, Buffer.from(value, 'base64')));
  }
  return all;
}

/** Secrets the embedded bank must keep to deliver webhooks: the webhooks' Basic secrets. */
function bankHeldSecretNames(): string[] {
  return ['webhook Basic secret', 'keychain listener:default:route:'];
}

function scanEverything(): { folderHits: Hit[]; bankHits: Hit[]; replyHits: Hit[]; files: string[] } {
  const all = needles();
  const isBankFile = (name: string): boolean => name.startsWith('sandbox.db');
  const inFolder = scanFolder(folder, all, isBankFile);
  const inBank = scanFolder(folder, all, (name) => !isBankFile(name));
  const replyHits = scanBytes('IPC replies and events', Buffer.from(ipcRecord.join('\n')), all);
  return { folderHits: inFolder.hits, bankHits: inBank.hits, replyHits, files: inFolder.files };
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-hygiene-'));
  replies = mkdtempSync(join(tmpdir(), 'ledgerdesk-hygiene-replies-'));
  mkdirSync(join(folder, 'logs'));
  mkdirSync(join(folder, 'exports'));
  receiver = createServer((incoming, response) => {
    received.push(incoming.headers);
    incoming.resume();
    incoming.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`;

  sandbox = await startSandbox({
    port: 0,
    dataFile: join(folder, 'sandbox.db'),
    keyId: run.keyId,
    keySecret: run.keySecret,
    accounts: 2,
    pendingTransactionsPerAccount: 300,
    retryBaseMs: 10,
    retryCapMs: 40,
  });
  const token = (await (
    await fetch(`${sandbox.baseUrl}/auth/token`, {
      method: 'POST',
      headers: { authorization: basicOf(run.keyId, run.keySecret), 'content-type': 'application/json' },
      body: JSON.stringify({ expires_in: 3600 }),
    })
  ).json()) as { access_token: string };
  run.bearerToken = token.access_token;

  store = new RecordingSecretStore();
  const logFile = join(folder, 'logs', 'main.log');
  const log = createLogger((line) => {
    appendFileSync(logFile, line + '\n');
  });
  services = await startServices({
    dataFolder: folder,
    sandbox,
    secretStore: store,
    settings: new FileProfileStorage(folder),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-hygiene', platform: process.platform },
    send: (channel, payload) => ipcRecord.push(JSON.stringify({ event: channel, payload })),
    chooseSavePath: (name) => Promise.resolve(join(folder, 'exports', name)),
    openExternal: () => false,
    log,
  });
  router = createRouter({
    handlers: services.handlers,
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
    knownSecrets: () => services.knownSecrets(),
    log: (entry) => {
      log[entry.level](`ipc ${entry.channel}: ${entry.message}`);
    },
  });
  api = buildLedgerdeskApi({
    invoke: async (channel, input) => {
      const answer = await router.dispatch(
        { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' },
        channel,
        input,
      );
      ipcRecord.push(JSON.stringify({ channel, answer }));
      return answer;
    },
    on: () => () => undefined,
  });
});

afterAll(async () => {
  if (!stopped) await services.stop();
  await sandbox.close();
  await new Promise<void>((resolve) => {
    receiver.closeAllConnections();
    receiver.close(() => {
      resolve();
    });
  });
  rmSync(folder, { recursive: true, force: true });
  rmSync(replies, { recursive: true, force: true });
});

describe('secret hygiene after a run of the whole app', () => {
  it('runs every feature that touches a secret', async () => {
    const { activeProfileId } = await api.profiles.list();
    const embedded = activeProfileId ?? '';
    const [accountId = '', secondAccountId = ''] = sandbox.demo.accounts;

    // Profiles: a remote Basic one and a remote Bearer one, secrets through credentials.set.
    const basicProfile = await api.profiles.create({
      name: 'Remote Basic',
      baseUrl: sandbox.baseUrl,
      authScheme: 'basic',
      keyId: run.keyId,
    });
    await api.credentials.set({ profileId: basicProfile.id, secret: run.keySecret });
    const bearerProfile = await api.profiles.create({
      name: 'Remote Bearer',
      baseUrl: sandbox.baseUrl,
      authScheme: 'bearer',
      production: true,
    });
    await api.credentials.set({ profileId: bearerProfile.id, secret: run.bearerToken });
    for (const profileId of [embedded, basicProfile.id, bearerProfile.id]) {
      expect((await api.profiles.testConnection({ id: profileId })).ok).toBe(true);
      expect((await api.credentials.status({ profileId })).state).toBe('set');
      await api.accounts.list({ profileId });
    }
    // A profile whose secret the bank refuses: the failure paths must not leak it either.
    const wrongProfile = await api.profiles.create({
      name: 'Wrong secret',
      baseUrl: sandbox.baseUrl,
      authScheme: 'basic',
      keyId: run.keyId,
    });
    await api.credentials.set({ profileId: wrongProfile.id, secret: `${run.keySecret}-revoked` });
    // (GET /ping needs no credentials, so this "connects"; the calls below are refused.)
    await api.profiles.testConnection({ id: wrongProfile.id });
    await expect(api.accounts.list({ profileId: wrongProfile.id })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(
      api.sync
        .start({ profileId: wrongProfile.id, job: { kind: 'pendingTransactions', accountId } })
        .then(async (job) => {
          await until('the refused sync', async () => {
            const { jobs } = await api.sync.status({ profileId: wrongProfile.id });
            return !jobs.some((one) => one.jobId === job.jobId && one.state === 'running');
          });
        }),
    ).resolves.toBeUndefined();
    // Refusals main logs: a call to no channel (named like a credential), and from a stranger.
    const sender = { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' };
    ipcRecord.push(JSON.stringify(await router.dispatch(sender, `Bearer ${run.bearerToken}`, {})));
    ipcRecord.push(JSON.stringify(await router.dispatch(sender, `x.${run.keySecret}`, {})));
    ipcRecord.push(
      JSON.stringify(
        await router.dispatch({ ...sender, frameUrl: `https://evil.example/?k=${run.keySecret}` }, 'profiles.list', {}),
      ),
    );

    // Writes: a webhook with Basic credentials, a file, a document, card art.
    const webhook = await api.webhooks.create({
      profileId: basicProfile.id,
      request: {
        event: 'document.create',
        url: `${receiverUrl}/bank-hook`,
        basic_user: 'hygiene',
        basic_secret: run.webhookSecret,
      },
      // The remote profile is a Ledgerdesk sandbox on loopback, which delivers to loopback (issue 37).
      allowHttp: true,
    });
    await api.webhooks.update({
      profileId: basicProfile.id,
      id: webhook.id,
      changes: { status: 'enabled' },
      allowHttp: true,
    });
    const file = await api.files.upload({ profileId: embedded, contentType: 'image/png', bytes: new Uint8Array(PNG) });
    await api.documents.create({
      profileId: embedded,
      request: {
        type: 'passport',
        name: 'Hygiene passport',
        file_id: file.id,
        fields: { date_of_birth: '1990-01-31' },
      },
    });
    const products = await api.cardArt.products({ profileId: embedded });
    await api.cardArt.upload({
      profileId: embedded,
      cardProductId: products.rows[0]?.id ?? '',
      request: { asset_type: 'front', file_id: file.id },
    });

    // The listener: its own Basic secret, a one-step registration, real notifications, a
    // rule that fails the first attempts, a signed replay to itself, a replay and a forward elsewhere.
    await api.listener.configure({
      port: null,
      expectedBasicUser: 'listener-user',
      expectedBasicSecret: run.listenerSecret,
    });
    await api.listener.start({ port: 0 });
    const registration = await api.listener.register({ profileId: embedded, event: 'account.update' });
    await api.listener.setRules({
      rules: [
        {
          name: 'fail twice',
          match: { event: 'account.update' },
          response: { kind: 'failTimes', times: 2, status: 503 },
        },
      ],
    });
    for (const amount of ['-12.34', '56.78', '-0.99']) {
      await bank('POST', '/simulation', {
        type: 'account.pending_transaction',
        simulation: { account_id: accountId, amount },
      });
    }
    // Three notifications of the same object: the first two attempts fail, so five arrive in all.
    await until(
      'the notifications and their retries',
      async () => (await api.listener.countRequests({})).count >= 5 && sandbox.deliveryBacklog().owed === 0,
    );
    const requests = await api.listener.listRequests({ limit: 100 });
    const first = requests.rows[0];
    expect(first).toBeDefined();
    const detail = await api.listener.getRequest({ id: first?.id ?? '' });
    expect(JSON.stringify(detail)).toContain('[redacted]');
    // Signed replays go only to the listener itself (issue 15): back to the registration's path.
    await api.listener.replay({
      requestIds: [first?.id ?? ''],
      targetUrl: registration.listenerUrl,
      applyBasicAuth: true,
    });
    await api.listener.replay({ requestIds: [first?.id ?? ''], targetUrl: `${receiverUrl}/replayed` });
    await api.listener.forward({ requestId: first?.id ?? '', url: `${receiverUrl}/forwarded` });
    await api.listener.reconcile({ profileId: embedded, webhookId: registration.webhook.id });
    // The signed replay carried the registration's Basic credentials: the secrets were really in play.
    const replayed = (await api.listener.listRequests({ limit: 1 })).rows[0];
    expect(replayed?.verdict).toBe('ok');

    // Syncs of every kind, on all three profiles.
    await syncToEnd(embedded, { kind: 'pendingTransactions', accountId });
    await syncToEnd(basicProfile.id, { kind: 'pendingTransactions', accountId: secondAccountId });
    await syncToEnd(bearerProfile.id, { kind: 'pendingTransactions', accountId });
    await syncToEnd(embedded, { kind: 'webhookSends' });
    await syncToEnd(embedded, { kind: 'webhooks' });
    await syncToEnd(basicProfile.id, { kind: 'webhooks' });
    await syncToEnd(embedded, { kind: 'accountApplication', id: sandbox.demo.accountApplications[0] ?? '' });

    // Reads and every export.
    expect((await api.pendingTransactions.count({ profileId: bearerProfile.id, accountId })).count).toBeGreaterThan(
      300,
    );
    await api.pendingTransactions.list({ profileId: embedded, accountId, limit: 50 });
    await api.webhookSends.list({ profileId: embedded });
    await api.webhooks.list({ profileId: basicProfile.id });
    await api.audit.list({});
    await api.cache.info({});
    for (const format of ['csv', 'jsonl'] as const) {
      await api.exports.pendingTransactions({ profileId: embedded, accountId, format });
      await api.exports.webhookSends({ profileId: embedded, format });
      await api.exports.accountApplications({ profileId: embedded, format });
      await api.exports.auditLog({ format });
    }
    await api.exports.listenerRequests({ format: 'jsonl' });
    await api.exports.listenerRequests({ format: 'curl' });
    await api.listener.unregister({ profileId: embedded, webhookId: registration.webhook.id });
    await api.listener.stop({});

    // What the scan must cover is really there.
    const { files } = scanEverything();
    expect(files).toEqual(expect.arrayContaining([CACHE_FILE_NAME, 'config.json', join('logs', 'main.log')]));
    expect(files.filter((name) => name.startsWith('exports'))).toHaveLength(10);
    expect(files.some((name) => name === `${CACHE_FILE_NAME}-wal`)).toBe(true);
    expect([...store.values.keys()].some((account) => account.startsWith('cache:data-key:'))).toBe(true);
    expect([...store.values.keys()].some((account) => account.includes(':route:'))).toBe(true);
  });

  it('finds no secret in the data folder, the cache (and its WAL), logs, exports or IPC replies, while running', () => {
    const { folderHits, replyHits, bankHits } = scanEverything();
    expect(folderHits).toEqual([]);
    expect(replyHits).toEqual([]);
    // The bank keeps the Basic secrets it delivers with, and nothing else of ours.
    const allowed = bankHeldSecretNames();
    expect(bankHits.filter((hit) => !allowed.some((name) => hit.needle.startsWith(name)))).toEqual([]);
  });

  it('finds none after shutdown either (the WAL checkpointed into the database)', async () => {
    await services.stop();
    stopped = true;
    const { folderHits, replyHits } = scanEverything();
    expect(folderHits).toEqual([]);
    expect(replyHits).toEqual([]);
  });

  it('finds a planted secret in every kind of place it searches (positive control)', () => {
    const planted = `planted_${randomBytes(16).toString('hex')}`;
    const plantedNeedles = needlesOf('planted', planted);
    appendFileSync(join(folder, 'logs', 'main.log'), `leak ${Buffer.from(`user:${planted}`).toString('base64')}\n`);
    writeFileSync(join(folder, 'exports', 'planted.csv'), `a,${Buffer.from(planted).toString('hex')}\n`);
    const cache = new DatabaseSync(join(folder, CACHE_FILE_NAME));
    try {
      cache.exec('PRAGMA wal_autocheckpoint = 0');
      cache.exec('CREATE TABLE hygiene_control (value TEXT)');
      cache.prepare('INSERT INTO hygiene_control (value) VALUES (?)').run(planted);
      const inFolder = scanFolder(folder, plantedNeedles, (name) => name.startsWith('sandbox.db'));
      const places = new Set(inFolder.hits.map((hit) => hit.where));
      expect(places).toEqual(
        new Set([join('logs', 'main.log'), join('exports', 'planted.csv'), `${CACHE_FILE_NAME}-wal`]),
      );
      expect(inFolder.hits.map((hit) => hit.needle)).toEqual(
        expect.arrayContaining(['planted (base64+2)', 'planted (hex)', 'planted (raw)']),
      );
    } finally {
      cache.close();
    }
    const reply = JSON.stringify({ channel: 'x', answer: { ok: true, value: { note: `Bearer ${planted}` } } });
    expect(scanBytes('reply', Buffer.from(reply), plantedNeedles)).not.toEqual([]);
    // And the run's own secrets would be found in those forms too.
    const keySecretNeedles = needlesOf('API key secret', run.keySecret);
    expect(scanBytes('header', Buffer.from(basicOf(run.keyId, run.keySecret)), keySecretNeedles)).not.toEqual([]);
    expect(scanBytes('header', Buffer.from(basicOf('x', run.keySecret)), keySecretNeedles)).not.toEqual([]);
    expect(scanBytes('header', Buffer.from(basicOf('xy', run.keySecret)), keySecretNeedles)).not.toEqual([]);
  });
});
