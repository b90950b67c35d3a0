/**
 * One bank request over the app's one HTTP transport (services/http), with the profile's
 * Authorization header, network policy (proxy and trust), timeouts, safe retries
 * (retryPolicy.ts) and every failure turned into a BankError. Bodies are read whole and parsed
 * here, so a malformed body is reported as such rather than as a crash.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { sharedTransport } from '../http/sharedTransport.ts';
import { directPolicy } from '../http/networkPolicy.ts';
import type { HttpTransport, NetworkPolicy, TransportAnswer } from '../http/transport.ts';
import { TransportError } from '../http/transportError.ts';
import { errorBody, parseWith } from '../../../shared/bank/index.ts';
import type { Authorization } from '../credentials/credentials.ts';
import type { AuthScheme } from '../profiles/profile.ts';
import { BankError, classifyStatus, type BankErrorKind } from './bankError.ts';
import { accountLimitOf } from './accountLimit.ts';
import {
  DEFAULT_RETRY_POLICY,
  decideRetry,
  parseRetryAfter,
  type AttemptFailure,
  type RetryPolicy,
} from './retryPolicy.ts';
import { SANDBOX_RESTART_ACTION } from '../../../shared/ipc/domains/embeddedSandbox.ts';

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface BankTimeouts {
  /** Time to establish the connection (TLS included). */
  connectMs: number;
  /** Time for the whole answer once sent. */
  responseMs: number;
}

const DEFAULT_TIMEOUTS: BankTimeouts = { connectMs: 5_000, responseMs: 30_000 };

export interface BankHttpOptions {
  profileName: string;
  authScheme: AuthScheme;
  baseUrl: string;
  /** Asked before each attempt, so a replaced secret is used at once. */
  authorization: () => Promise<Authorization>;
  timeouts?: Partial<BankTimeouts>;
  retry?: Partial<RetryPolicy>;
  /** Injected by tests to observe waits without waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Told after every attempt whether the bank answered at all (for online/offline status). */
  onReachability?: (reachable: boolean, failure?: BankError) => void;
  /** The embedded sandbox (a local process of this app), so its failures are named as such. */
  embeddedSandbox?: boolean;
  /** The one transport (shared by default: connections are pooled across clients). */
  transport?: HttpTransport;
  /** How the profile reaches its bank (proxy, trust); direct with the OS trust store by default. */
  network?: NetworkPolicy;
}

/** The most of a JSON answer read (a page of 1000 pending transactions is about 0.6 MB). */
const JSON_ANSWER_MAX_BYTES = 64 * 1024 * 1024;

export interface BankRequest {
  method: HttpMethod;
  /** Path with its parameters already encoded, e.g. `/account/acct_1/pending_transaction`. */
  path: string;
  /** The endpoint as the interface names it, for messages: `GET /account/{account_id}/pending_transaction`. */
  endpoint: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  bytes?: { data: Uint8Array; contentType: string };
  /** Makes a POST safe to retry: the bank answers a repeat with the first result. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Told before each wait for a retry (a sync lowers its parallelism on a 429). */
  onRetry?: (retry: RetryNotice) => void;
  /**
   * The answer is a file's bytes, not JSON (GET /file/{id}/content): read as bytes, at most
   * `maxBytes` of them (a longer body is refused while it arrives, as too large, and never
   * retried), with `accept` as the Accept header.
   */
  binary?: { maxBytes: number; accept: string };
}

/** Why a request is about to be retried, and after how long. */
interface RetryNotice {
  /** The answer's status, or null for a network failure or timeout. */
  status: number | null;
  /** The bank's Retry-After, when it sent one. */
  retryAfterMs: number | null;
  delayMs: number;
}

export interface BankAnswer {
  status: number;
  /** Parsed JSON, or null for an empty body (204) or a binary read. */
  body: unknown;
  attempts: number;
  /** A binary read's bytes and the media type the bank declared (lowercase, parameters dropped). */
  file?: { bytes: Uint8Array; contentType: string };
}

/** An answer as the retry loop reads it: its status, headers, and body as text (or bytes for a binary read). */
interface ReadAnswer {
  status: number;
  headers: TransportAnswer['headers'];
  text: string;
}

type AttemptOutcome =
  | { ok: true; answer: ReadAnswer; file?: { bytes: Uint8Array; contentType: string } }
  | { ok: false; failure: AttemptFailure; error: BankError };

function isIdempotent(request: BankRequest): boolean {
  return request.method === 'GET' || request.method === 'DELETE' || request.idempotencyKey !== undefined;
}

/** A request whose path would not stay under the profile's base URL. */
export class PathOutsideBank extends Error {
  constructor(endpoint: string) {
    super(`${endpoint}: the path does not stay under the bank's address, so it was not sent.`);
    this.name = 'PathOutsideBank';
  }
}

export class BankHttp {
  readonly profileName: string;
  readonly baseUrl: string;
  readonly #options: BankHttpOptions;
  readonly #policy: RetryPolicy;
  readonly #timeouts: BankTimeouts;
  readonly #transport: HttpTransport;
  readonly #network: NetworkPolicy;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: BankHttpOptions) {
    this.#options = options;
    this.profileName = options.profileName;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#transport = options.transport ?? sharedTransport();
    // The embedded sandbox is a process of this app on loopback: always direct, whatever a policy says.
    this.#network = options.embeddedSandbox === true ? directPolicy() : (options.network ?? directPolicy());
    this.#sleep = options.sleep ?? ((ms, signal) => sleepFor(ms, undefined, { signal }));
  }

  /** How the profile reaches its bank, for a fetch the bank's answer points at (a file's content_url). */
  get network(): NetworkPolicy {
    return this.#network;
  }

  get transport(): HttpTransport {
    return this.#transport;
  }

  get timeouts(): BankTimeouts {
    return { ...this.#timeouts };
  }

  /** Whether this is the embedded sandbox, a process of this app on this machine. */
  get embeddedSandbox(): boolean {
    return this.#options.embeddedSandbox === true;
  }

  /** How messages name the bank. */
  get destinationName(): string {
    return this.#options.embeddedSandbox === true
      ? 'the local sandbox bank'
      : `the bank of ${this.profileName} (${this.baseUrl})`;
  }

  async send(request: BankRequest): Promise<BankAnswer> {
    // Refused before anything leaves: a path that is not a plain absolute path on the bank
    // (protocol-relative `//host`, or a whole URL) could carry the secret to another host.
    if (!request.path.startsWith('/') || request.path.startsWith('//') || request.path.includes('\\')) {
      throw new PathOutsideBank(request.endpoint);
    }
    const idempotent = isIdempotent(request);
    const random = this.#options.random ?? Math.random;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.#attempt(request, attempt);
      if (outcome.ok) {
        if (outcome.file !== undefined)
          return { status: outcome.answer.status, body: null, attempts: attempt, file: outcome.file };
        return this.#accept(request, outcome.answer, attempt);
      }
      const decision = decideRetry(this.#policy, outcome.failure, attempt, idempotent, random);
      if (!decision.retry || request.signal?.aborted === true) throw outcome.error;
      const failure = outcome.failure;
      request.onRetry?.({
        status: failure.type === 'status' ? failure.status : null,
        retryAfterMs: failure.type === 'status' ? failure.retryAfterMs : null,
        delayMs: decision.delayMs,
      });
      try {
        await this.#sleep(decision.delayMs, request.signal);
      } catch {
        throw this.#error(request, 'cancelled', null, null, attempt, false, 'The request was cancelled.');
      }
    }
  }

  async #attempt(request: BankRequest, attempt: number): Promise<AttemptOutcome> {
    if (request.signal?.aborted === true) {
      throw this.#error(request, 'cancelled', null, null, attempt - 1, false, 'The request was cancelled.');
    }
    const authorization = await this.#options.authorization();
    const headers: Record<string, string> = { Authorization: authorization.header };
    if (request.idempotencyKey !== undefined) headers['X-Idempotency-Key'] = request.idempotencyKey;
    let data: Uint8Array | undefined;
    if (request.bytes !== undefined) {
      headers['Content-Type'] = request.bytes.contentType;
      data = request.bytes.data;
    } else if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      data = Buffer.from(JSON.stringify(request.json), 'utf8');
    }
    const binary = request.binary;
    headers['Accept'] = binary === undefined ? 'application/json' : binary.accept;
    let answer: ReadAnswer;
    let bytes: Uint8Array | null = null;
    try {
      const raw = await this.#transport.send({
        url: this.#urlOf(request),
        method: request.method,
        headers: [...Object.entries(headers), ['Accept-Encoding', 'gzip, deflate, br']],
        body: data ?? null,
        policy: this.#network,
        destinationName: this.destinationName,
        connectMs: this.#timeouts.connectMs,
        responseMs: this.#timeouts.responseMs,
        maxBytes: binary?.maxBytes ?? JSON_ANSWER_MAX_BYTES,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      if (binary !== undefined) bytes = raw.body;
      // An error answer is read as text, like any other (its JSON names the problem).
      answer = {
        status: raw.status,
        headers: raw.headers,
        text: binary !== undefined && raw.status < 400 ? '' : raw.body.toString('utf8'),
      };
    } catch (error) {
      if (binary !== undefined && error instanceof TransportError && error.kind === 'too-large') {
        this.#options.onReachability?.(true);
        throw this.#error(
          request,
          'too-large',
          null,
          null,
          attempt,
          false,
          `The file is larger than ${String(Math.round(binary.maxBytes / (1024 * 1024)))} MiB, the most Ledgerdesk reads.`,
        );
      }
      return this.#networkFailure(request, error, attempt);
    }
    this.#options.onReachability?.(true);
    if (answer.status < 400 && bytes !== null) {
      const declared = headerOf(answer, 'content-type') ?? '';
      const contentType = (declared.split(';')[0] ?? '').trim().toLowerCase();
      return { ok: true, answer, file: { bytes, contentType } };
    }
    if (answer.status < 400) return { ok: true, answer };
    const parsed = parseWith(errorBody, safeJson(answer.text));
    const serverMessage = parsed.ok ? parsed.value.error : null;
    // A 429 that names a limit (an account's daily ACH limit…) is that limit: waiting cannot help.
    const limit = answer.status === 429 ? accountLimitOf(serverMessage) : null;
    const failure: AttemptFailure = {
      type: 'status',
      status: answer.status,
      retryAfterMs: parseRetryAfter(headerOf(answer, 'retry-after')),
      ...(limit === null ? {} : { final: true }),
    };
    const classified =
      limit === null
        ? classifyStatus(answer.status, this.profileName, {
            authScheme: this.#options.authScheme,
            bearerExpiredAt: authorization.expiresAt,
          })
        : { kind: 'limit-exceeded' as const, retryable: false, remedy: limit.remedy };
    const retryAfterSeconds = failure.retryAfterMs === null ? undefined : Math.ceil(failure.retryAfterMs / 1000);
    if (classified.kind === 'rate-limited' && retryAfterSeconds !== undefined) {
      classified.remedy = `The bank is limiting requests: try again in ${String(retryAfterSeconds)} s.`;
    }
    const error = this.#error(
      request,
      classified.kind,
      answer.status,
      serverMessage,
      attempt,
      classified.retryable,
      classified.remedy,
      limit === null ? retryAfterSeconds : undefined,
      limit === null ? undefined : { message: limit.message, action: limit.remedy },
    );
    if (error.meansOffline) this.#options.onReachability?.(false, error);
    return { ok: false, failure, error };
  }

  #networkFailure(request: BankRequest, error: unknown, attempt: number): AttemptOutcome {
    if (request.signal?.aborted === true || (error instanceof TransportError && error.kind === 'cancelled')) {
      throw this.#error(request, 'cancelled', null, null, attempt, false, 'The request was cancelled.');
    }
    if (!(error instanceof TransportError)) throw error;
    const timedOut = error.kind === 'timeout';
    const failure: AttemptFailure = timedOut
      ? { type: 'timeout' }
      : { type: 'network', code: error.code, neverSent: error.neverSent, final: !retriedTransport(error) };
    const kind = bankKindOf(error);
    // The bank out of reach is said as before; a proxy's, a certificate's or TLS's failure in its own words.
    const plainNetwork =
      (kind === 'unreachable' || kind === 'timeout') && !error.aboutProxy && error.kind !== 'tls-failed';
    const described = timedOut
      ? 'the bank did not answer in time'
      : plainNetwork
        ? `the bank at ${this.baseUrl} cannot be reached (${error.code ?? 'network error'})`
        : error.message;
    const bankError = this.#error(
      request,
      kind,
      null,
      described,
      attempt,
      retriedTransport(error),
      plainNetwork
        ? timedOut
          ? 'The bank is slow or unreachable: try later.'
          : 'Check your network connection, or try later.'
        : error.action,
      undefined,
      plainNetwork ? this.#forPeople(timedOut) : { message: error.message, action: error.action },
    );
    this.#options.onReachability?.(false, bankError);
    return { ok: false, failure, error: bankError };
  }

  /**
   * A file's bytes from an address the bank's answer gave (a `content_url`): through the same
   * proxy and trust as the bank, WITHOUT the bank's Authorization (the address carries its own
   * short-lived signature, and may be another host), following at most 3 redirects, never from
   * https down to http. At most `maxBytes`; every failure a BankError named after `endpoint`.
   */
  async fetchLinked(options: {
    url: string;
    endpoint: string;
    accept: string;
    maxBytes: number;
    signal?: AbortSignal;
  }): Promise<{ bytes: Uint8Array; contentType: string }> {
    const request: BankRequest = { method: 'GET', path: '/', endpoint: options.endpoint };
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw this.#error(
        request,
        'malformed-response',
        null,
        `the bank's content_url ${JSON.stringify(options.url)} is not an address`,
        1,
        false,
        'Tell the bank: it named a download address that is not a URL.',
      );
    }
    const bankIsHttps = this.baseUrl.startsWith('https:');
    for (let hop = 0; ; hop += 1) {
      if (url.protocol !== 'https:' && (url.protocol !== 'http:' || bankIsHttps)) {
        throw this.#error(
          request,
          'malformed-response',
          null,
          `the download address ${url.origin} is not https://`,
          1,
          false,
          'Tell the bank: a file of an https bank must be downloaded over https.',
        );
      }
      let raw: TransportAnswer;
      try {
        raw = await this.#transport.send({
          url: url.toString(),
          method: 'GET',
          headers: [
            ['Accept', options.accept],
            ['Accept-Encoding', 'gzip, deflate, br'],
          ],
          policy: this.#network,
          destinationName: `the file's download address (${url.host})`,
          connectMs: this.#timeouts.connectMs,
          responseMs: this.#timeouts.responseMs,
          maxBytes: options.maxBytes,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        });
      } catch (error) {
        if (error instanceof TransportError && error.kind === 'too-large') {
          throw this.#error(
            request,
            'too-large',
            null,
            null,
            1,
            false,
            `The file is larger than ${String(Math.round(options.maxBytes / (1024 * 1024)))} MiB, the most Ledgerdesk reads.`,
          );
        }
        const failed = this.#networkFailure(request, error, 1);
        throw failed.ok ? new Error('unreachable') : failed.error;
      }
      const location = headerOf({ status: raw.status, headers: raw.headers, text: '' }, 'location');
      if (raw.status >= 300 && raw.status < 400 && location !== undefined && hop < 3) {
        url = new URL(location, url);
        continue;
      }
      if (raw.status >= 400) {
        const expired = raw.status === 403 || raw.status === 410;
        throw this.#error(
          request,
          raw.status === 404 ? 'not-found' : expired ? 'forbidden' : 'server-error',
          raw.status,
          `the download address answered ${String(raw.status)}`,
          1,
          expired,
          expired
            ? 'The download address was refused: it is valid only a short time. Open the document again to get a new one.'
            : 'The file could not be downloaded: try again later.',
        );
      }
      const declared = headerOf({ status: raw.status, headers: raw.headers, text: '' }, 'content-type') ?? '';
      return { bytes: raw.body, contentType: (declared.split(';')[0] ?? '').trim().toLowerCase() };
    }
  }

  /** The bank's address with the request's path and query (already encoded path; query from its parts). */
  #urlOf(request: BankRequest): string {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) query.append(name, String(value));
    }
    const search = query.toString();
    return `${this.baseUrl}${request.path}${search === '' ? '' : `?${search}`}`;
  }

  #accept(request: BankRequest, answer: ReadAnswer, attempts: number): BankAnswer {
    const text = answer.text;
    if (answer.status === 204 || text === '') return { status: answer.status, body: null, attempts };
    try {
      return { status: answer.status, body: JSON.parse(text) as unknown, attempts };
    } catch {
      throw new BankError({
        kind: 'malformed-response',
        endpoint: request.endpoint,
        profileName: this.profileName,
        status: answer.status,
        serverMessage: null,
        retryable: false,
        remedy: 'The bank answered something that is not JSON: try later, and tell the bank if it persists.',
        attempts,
        // A success status says the bank acted, whatever its body: a create made its object.
        unread: { status: answer.status, objectId: objectIdInText(text) },
      });
    }
  }

  /** A network failure in a person's words: the local sandbox not running, or the bank out of reach. */
  #forPeople(timedOut: boolean): { message: string; action: string } {
    if (this.#options.embeddedSandbox === true) {
      return timedOut
        ? { message: 'The local sandbox bank did not answer in time.', action: 'Try again in a moment.' }
        : {
            message: 'The local sandbox bank is not running.',
            action: SANDBOX_RESTART_ACTION,
          };
    }
    return timedOut
      ? {
          message: `The bank of ${this.profileName} did not answer in time.`,
          action: 'Try again in a moment; cached data stays available.',
        }
      : {
          message: `The bank of ${this.profileName} cannot be reached.`,
          action: 'Check your network connection, then try again; cached data stays available.',
        };
  }

  #error(
    request: BankRequest,
    kind: BankErrorKind,
    status: number | null,
    serverMessage: string | null,
    attempts: number,
    retryable: boolean,
    remedy: string,
    retryAfterSeconds?: number,
    forPeople?: { message: string; action: string },
  ): BankError {
    return new BankError({
      ...(forPeople === undefined ? {} : { forPeople }),
      kind,
      endpoint: request.endpoint,
      profileName: this.profileName,
      status,
      serverMessage,
      retryable,
      remedy,
      attempts,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
}

/**
 * The id an unreadable answer names, when its text still shows one: a body cut short usually
 * keeps its first fields. Only a top-level `"id"` after plain fields (no nested object before it)
 * counts, so an id inside another object is never taken for the answer's own.
 */
export function objectIdInText(text: string): string | null {
  const match =
    /^\s*\{\s*(?:"[^"\\]*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[-0-9.eE+]+|true|false|null)\s*,\s*)*"id"\s*:\s*"([A-Za-z0-9_.:-]{1,100})"/.exec(
      // The first fields are enough, and a bounded text keeps the match cheap on any body.
      text.slice(0, 4096),
    );
  return match?.[1] ?? null;
}

function headerOf(answer: ReadAnswer, name: string): string | undefined {
  const value: unknown = answer.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The BankError kind of a transport failure: the proxy's and TLS's own, apart from the bank's. */
function bankKindOf(error: TransportError): BankErrorKind {
  switch (error.kind) {
    case 'proxy-setting':
      return 'proxy-setting';
    case 'proxy-unreachable':
      return 'proxy-unreachable';
    case 'proxy-auth-required':
    case 'proxy-auth-refused':
      return 'proxy-auth';
    case 'proxy-refused':
      return 'proxy-refused';
    case 'tls-untrusted':
      return 'tls-untrusted';
    case 'timeout':
      return 'timeout';
    case 'too-large':
      return 'too-large';
    case 'cancelled':
      return 'cancelled';
    default:
      // proxy-upstream, tls-failed, unreachable, connect-timeout, connection-lost: the bank is out of reach.
      return 'unreachable';
  }
}

/** Whether trying again can help: a login, a refusal or an untrusted certificate fails the same way again. */
function retriedTransport(error: TransportError): boolean {
  return !['proxy-setting', 'proxy-auth-required', 'proxy-auth-refused', 'proxy-refused', 'tls-untrusted'].includes(
    error.kind,
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
