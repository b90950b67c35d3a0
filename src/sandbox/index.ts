/**
 * The embedded sandbox bank: `startSandbox()` opens (or seeds) its data, serves the whole
 * interface on a loopback port and delivers webhooks until `close()`. The app's main process,
 * `npm run sandbox` and every integration test start it this way.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { createLocalServerGuard, type LocalServerGuard } from '../shared/security/localServerGuard.ts';
import { dataFileApiKey } from './auth/apiKey.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { createRateLimiter } from './http/rateLimit.ts';
import { mintToken } from './auth/jwt.ts';
import { boundHostNames } from '../shared/security/boundHostNames.ts';
import { buildServer } from './http/server.ts';
import { resolveOptions, type SandboxOptions } from './options.ts';
import { createOrganizationSettings } from './organizationSettings.ts';
import { createPageCache } from './pendingTransactions/pageCache.ts';
import { SANDBOX_ROUTES } from './routes/index.ts';
import type { SandboxContext } from './sandboxContext.ts';
import { seedBank, type DemoIds } from './seed/seedBank.ts';
import { forgetUnfinishedSeed, openDatabase, readMeta, writeMeta, type Database } from './store/database.ts';
import { createDeliveryStore } from './store/deliveryStore.ts';
import { createFileContentStore } from './store/fileContentStore.ts';
import { createPendingTransactionStore } from './store/pendingTransactionStore.ts';
import { createRecordStore } from './store/records.ts';
import { createWebhookSendStore } from './store/webhookSendStore.ts';
import { createDispatcher } from './webhooks/dispatcher.ts';
import { createEventPublisher } from './webhooks/eventPublisher.ts';
import { createNotificationPoster } from './webhooks/postNotification.ts';
import { createWebhookRegistry } from './webhooks/webhookRegistry.ts';
import { createWebhookSecrets } from './store/webhookSecrets.ts';

export type { SandboxOptions } from './options.ts';
export { trafficLineOf, type SandboxTraffic } from './traffic.ts';

export interface RunningSandbox {
  /** http://127.0.0.1:PORT (https:// with `tls`), no trailing slash. */
  baseUrl: string;
  keyId: string;
  keySecret: string;
  /** Whether the key is the data file's own (made here), not one given in the options. */
  keyGenerated: boolean;
  /** A valid demo HS256 JWT for the key (24 h). */
  bearerToken: string;
  /** Whether it answers in the real service's lean shapes (`--lean`). */
  lean: boolean;
  demo: DemoIds;
  /** Deliveries still owed (first attempts and scheduled retries), and attempts in flight. */
  deliveryBacklog(): { owed: number; inFlight: number };
  /** In-flight requests finish; pending retries stay persisted in the data file. */
  close(): Promise<void>;
}

const DEMO_TOKEN_LIFETIME_SECONDS = 24 * 3600;
/** How long close() lets delivery attempts in flight finish before abandoning them (they are retried after a restart). */
const CLOSE_GRACE_MS = 2000;

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function demoIdsOf(database: Database): DemoIds | undefined {
  const stored = readMeta(database, 'demo');
  if (stored === undefined) return undefined;
  // Files seeded before applicants were have none to list.
  return { personApplications: [], businessApplications: [], ...(JSON.parse(stored) as Partial<DemoIds>) } as DemoIds;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const settings = resolveOptions(options);
  const database = openDatabase(settings.dataFile);
  try {
    const records = createRecordStore(database);
    const fileContents = createFileContentStore(database);
    const pendingTransactions = createPendingTransactionStore(database);
    const sends = createWebhookSendStore(database);
    const deliveries = createDeliveryStore(database);

    let demo = demoIdsOf(database);
    if (demo === undefined) {
      // No finished seed: a fresh file, or a seed cut short (its rows are dropped and it starts over).
      forgetUnfinishedSeed(database);
      // Durability per batch buys nothing while seeding: an unfinished seed is redone anyway.
      database.exec('PRAGMA synchronous = OFF');
      demo = await seedBank(database, records, fileContents, pendingTransactions, {
        seed: settings.seed,
        accounts: settings.accounts,
        pendingTransactionsPerAccount: settings.pendingTransactionsPerAccount,
      });
      database.exec('PRAGMA synchronous = NORMAL');
      // Written last: its presence is what says the seed is complete.
      writeMeta(database, 'demo', JSON.stringify(demo));
    }
    let cursorKey = readMeta(database, 'cursor_key');
    if (cursorKey === undefined) {
      cursorKey = randomBytes(32).toString('hex');
      writeMeta(database, 'cursor_key', cursorKey);
    }

    let baseUrl = '';
    let wakeDispatcher = () => {};
    const events = createEventPublisher(records, deliveries, sends, () => {
      wakeDispatcher();
    });
    const key = settings.key ?? dataFileApiKey(database);
    const webhookSecrets = createWebhookSecrets(database, key.keySecret);
    const webhooks = createWebhookRegistry(database, records, deliveries, sends, events, webhookSecrets);
    const organization = createOrganizationSettings(database, settings.smartRetries);
    const poster = createNotificationPoster(settings.deliveryConcurrency, settings.deliveryCa);
    const dispatcher = createDispatcher(database, deliveries, sends, webhooks, poster, {
      concurrency: settings.deliveryConcurrency,
      retryBaseMs: settings.retryBaseMs,
      retryCapMs: settings.retryCapMs,
      errorThreshold: settings.errorThreshold,
      errorWindowMs: settings.errorWindowMs,
      deliveryTimeoutMs: settings.deliveryTimeoutMs,
      smartRetriesOn: () => organization.smartRetriesOn(),
      baseUrl: () => baseUrl,
      ...(options.traffic === undefined ? {} : { traffic: options.traffic }),
    });
    wakeDispatcher = () => {
      dispatcher.wake();
    };
    const authenticator = createAuthenticator(key);

    const context: SandboxContext = {
      database,
      records,
      fileContents,
      pendingTransactions,
      sends,
      webhooks,
      events,
      dispatcher,
      organization,
      pageCache: createPageCache(settings.pageCacheEntries),
      cursorKey,
      keyId: key.keyId,
      keySecret: key.keySecret,
      authenticate: (header) => authenticator.authenticate(header),
      ...(settings.rateLimit === undefined ? {} : { rateLimiter: createRateLimiter(settings.rateLimit) }),
      checkBasic: (header) => authenticator.checkBasic(header),
      baseUrl: () => baseUrl,
      lean: settings.lean,
      achDailyLimitCents: settings.achDailyLimitCents,
      ...(options.traffic === undefined ? {} : { traffic: options.traffic }),
    };
    // Set once the port is known; nothing is answered before listen() returns.
    let guard: LocalServerGuard = () => ({ status: 421, error: 'The sandbox is still starting.' });
    const app = buildServer(context, SANDBOX_ROUTES, (headers, rawHeaders) => guard(headers, rawHeaders), settings.tls);
    await app.listen({ port: settings.port, host: settings.host });
    const address = app.server.address() as AddressInfo;
    guard = createLocalServerGuard({
      port: address.port,
      hosts: boundHostNames(settings.host, networkInterfaces()),
      allowedHosts: settings.allowedHosts,
      allowedOrigins: settings.allowedOrigins,
    });
    baseUrl = `${settings.tls === null ? 'http' : 'https'}://${hostForUrl(settings.host)}:${String(address.port)}`;
    dispatcher.start();

    let closed: Promise<void> | undefined;
    return {
      baseUrl,
      keyId: key.keyId,
      keySecret: key.keySecret,
      keyGenerated: settings.key === null,
      bearerToken: mintToken(key.keyId, key.keySecret, DEMO_TOKEN_LIFETIME_SECONDS),
      lean: settings.lean,
      demo,
      deliveryBacklog: () => dispatcher.backlog(),
      close() {
        closed ??= (async () => {
          await app.close();
          await dispatcher.close(CLOSE_GRACE_MS);
          poster.close();
          database.close();
        })();
        return closed;
      },
    };
  } catch (error) {
    if (database.isOpen) database.close();
    throw error;
  }
}
