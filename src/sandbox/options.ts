/** The sandbox's settings and their defaults (README "The sandbox bank" documents them). */
import type { TrafficListener } from './traffic.ts';
import { allowedHostEntry, allowedOriginEntry } from '../shared/security/localServerGuard.ts';
import { RETRY_BASE_MS_DEFAULT, RETRY_CAP_FACTOR } from './webhooks/retrySchedule.ts';

export interface SandboxOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1: loopback only, unless told otherwise. */
  host?: string;
  /** SQLite file path, or ':memory:' (default). An existing file keeps its data (no re-seed). */
  dataFile?: string;
  /** Deterministic seed data; default 1. */
  seed?: number;
  /** Accounts in the seed; default 4. */
  accounts?: number;
  /** Seed volume per account; default 250. Benchmarks ask for up to 1,000,000 in total. */
  pendingTransactionsPerAccount?: number;
  /**
   * The API key. Without one, the data file's own random key (made on its first run and kept
   * in it; a new one each run for ':memory:'): never a constant anyone could look up.
   */
  keyId?: string;
  keySecret?: string;
  /** Names besides its own address the sandbox answers to (`--allow-host`): `name` at any port, `name:port`. */
  allowedHosts?: readonly string[];
  /** Web page origins whose requests it answers (`--allow-origin`); none by default. */
  allowedOrigins?: readonly string[];
  /** First retry delay; the whole schedule scales with it. Default 1000 ms. */
  retryBaseMs?: number;
  /** Longest retry delay. Default retryBaseMs × 3600 (1 h at the default base). */
  retryCapMs?: number;
  /** Failed deliveries within errorWindowMs that move a webhook to error. Default 100. */
  errorThreshold?: number;
  /** Default 600,000 ms (10 minutes). */
  errorWindowMs?: number;
  /** Smart Webhook Retries at start; default: on for a new data file, as stored otherwise. */
  smartRetries?: boolean;
  /** Deadline of one delivery attempt; default 10,000 ms. */
  deliveryTimeoutMs?: number;
  /** Deliveries in flight at once; default 16. */
  deliveryConcurrency?: number;
  /** Pages of pending transactions kept as finished bytes; default 1024, 0 turns the cache off. */
  pageCacheEntries?: number;
  /** Requests a second per API key, beyond which the answer is 429 with Retry-After; default none. */
  rateLimit?: number;
  /** Answer in the real service's shapes, leaving out what it leaves out (lean/leanAnswers.ts); default false. */
  lean?: boolean;
  /** Told each API request answered and each delivery attempt made (`npm run sandbox` prints them). */
  traffic?: TrafficListener;
  /**
   * Serve HTTPS (`--tls-cert FILE --tls-key FILE`): the certificate chain and its key, PEM.
   * Its address is then https://, so a client's TLS rules (trust, CA bundles, inspecting
   * proxies) can be tested against a real bank on loopback.
   */
  tls?: { cert: string; key: string };
  /**
   * `--ach-limit AMOUNT`: the most an account may move by ACH in a day (e.g. "1000.00"); an
   * ACH beyond it is answered 429 with a sentence naming the limit and no Retry-After, as the
   * real service answers an account limit. Default: no limit.
   */
  achDailyLimit?: string;
  /** A CA (PEM) its deliveries trust beside Node's roots (`--delivery-ca FILE`): for a listener serving HTTPS with one's own CA. */
  deliveryCa?: string;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  dataFile: string;
  seed: number;
  accounts: number;
  pendingTransactionsPerAccount: number;
  /** The key given in the options; null: the data file's own. */
  key: { keyId: string; keySecret: string } | null;
  allowedHosts: string[];
  allowedOrigins: string[];
  retryBaseMs: number;
  retryCapMs: number;
  errorThreshold: number;
  errorWindowMs: number;
  smartRetries: boolean | undefined;
  deliveryTimeoutMs: number;
  deliveryConcurrency: number;
  pageCacheEntries: number;
  rateLimit: number | undefined;
  lean: boolean;
  tls: { cert: string; key: string } | null;
  /** In cents; null: no limit. */
  achDailyLimitCents: number | null;
  deliveryCa: string | null;
}

function wholeNumber(name: string, value: number | undefined, fallback: number, minimum: number): number {
  const chosen = value ?? fallback;
  if (!Number.isSafeInteger(chosen) || chosen < minimum) {
    throw new RangeError(`Sandbox option ${name} must be a whole number ≥ ${String(minimum)}, not ${String(chosen)}.`);
  }
  return chosen;
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const retryBaseMs = wholeNumber('retryBaseMs', options.retryBaseMs, RETRY_BASE_MS_DEFAULT, 1);
  const { keyId, keySecret } = options;
  if ((keyId === undefined) !== (keySecret === undefined))
    throw new RangeError('Sandbox options keyId and keySecret go together.');
  if (keyId !== undefined && (keyId === '' || keyId.includes(':')))
    throw new RangeError('Sandbox option keyId must be non-empty and contain no colon.');
  if (keySecret !== undefined && keySecret.length < 8)
    throw new RangeError('Sandbox option keySecret must be at least 8 characters.');
  return {
    port: wholeNumber('port', options.port, 0, 0),
    host: options.host ?? '127.0.0.1',
    dataFile: options.dataFile ?? ':memory:',
    seed: wholeNumber('seed', options.seed, 1, 0),
    accounts: wholeNumber('accounts', options.accounts, 4, 1),
    pendingTransactionsPerAccount: wholeNumber(
      'pendingTransactionsPerAccount',
      options.pendingTransactionsPerAccount,
      250,
      0,
    ),
    key: keyId === undefined || keySecret === undefined ? null : { keyId, keySecret },
    allowedHosts: (options.allowedHosts ?? []).map(allowedHostEntry),
    allowedOrigins: (options.allowedOrigins ?? []).map(allowedOriginEntry),
    retryBaseMs,
    retryCapMs: wholeNumber('retryCapMs', options.retryCapMs, retryBaseMs * RETRY_CAP_FACTOR, retryBaseMs),
    errorThreshold: wholeNumber('errorThreshold', options.errorThreshold, 100, 1),
    errorWindowMs: wholeNumber('errorWindowMs', options.errorWindowMs, 600_000, 1),
    smartRetries: options.smartRetries,
    deliveryTimeoutMs: wholeNumber('deliveryTimeoutMs', options.deliveryTimeoutMs, 10_000, 1),
    deliveryConcurrency: wholeNumber('deliveryConcurrency', options.deliveryConcurrency, 16, 1),
    pageCacheEntries: wholeNumber('pageCacheEntries', options.pageCacheEntries, 1024, 0),
    rateLimit: options.rateLimit === undefined ? undefined : wholeNumber('rateLimit', options.rateLimit, 1, 1),
    lean: options.lean ?? false,
    tls: options.tls ?? null,
    achDailyLimitCents: achLimitOf(options.achDailyLimit),
    deliveryCa: options.deliveryCa ?? null,
  };
}

function achLimitOf(amount: string | undefined): number | null {
  if (amount === undefined) return null;
  if (!/^[0-9]+[.][0-9][0-9]$/.test(amount)) {
    throw new RangeError(`Sandbox option achDailyLimit must be an amount like 1000.00, not ${JSON.stringify(amount)}.`);
  }
  return Math.round(Number(amount) * 100);
}
