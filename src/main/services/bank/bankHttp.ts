/**
 * One bank request over axios, with the profile's Authorization header, timeouts, safe
 * retries (retryPolicy.ts) and every failure turned into a BankError. Bodies are read as
 * text and parsed here, so a malformed body is reported as such rather than as a crash.
 */
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { errorBody, parseWith } from '../../../shared/bank/index.ts';
import type { Authorization } from '../credentials/credentials.ts';
import type { AuthScheme } from '../profiles/profile.ts';
import { BankError, classifyStatus, type BankErrorKind } from './bankError.ts';
import { ConnectTimeoutHttpAgent, ConnectTimeoutHttpsAgent } from './connectTimeoutAgent.ts';
import {
  DEFAULT_RETRY_POLICY,
  decideRetry,
  neverSent,
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
}

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

type AttemptOutcome =
  | { ok: true; answer: AxiosResponse<string>; file?: { bytes: Uint8Array; contentType: string } }
  | { ok: false; failure: AttemptFailure; error: BankError };

/** axios's own words when a body passes maxContentLength. */
const OVER_LENGTH = /maxContentLength size of [0-9-]+ exceeded/;

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
  readonly #axios: AxiosInstance;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: BankHttpOptions) {
    this.#options = options;
    this.profileName = options.profileName;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#sleep = options.sleep ?? ((ms, signal) => sleepFor(ms, undefined, { signal }));
    this.#axios = axios.create({
      baseURL: this.baseUrl,
      timeout: timeouts.responseMs,
      responseType: 'text',
      // Bodies stay text: parsed below so a malformed one is named, not thrown from axios.
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      maxRedirects: 0,
      // A path is always under baseURL: `//host/x` or `https://host/x` never replaces it (review L13).
      allowAbsoluteUrls: false,
      // Never follow an environment proxy with the bank's Authorization header.
      proxy: false,
      httpAgent: new ConnectTimeoutHttpAgent(timeouts.connectMs),
      httpsAgent: new ConnectTimeoutHttpsAgent(timeouts.connectMs),
      headers: { Accept: 'application/json' },
    });
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
    let data: unknown;
    if (request.bytes !== undefined) {
      headers['Content-Type'] = request.bytes.contentType;
      data = Buffer.from(request.bytes.data.buffer, request.bytes.data.byteOffset, request.bytes.data.byteLength);
    } else if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      data = JSON.stringify(request.json);
    }
    const binary = request.binary;
    if (binary !== undefined) headers['Accept'] = binary.accept;
    let answer: AxiosResponse<string>;
    let bytes: Uint8Array | null = null;
    try {
      const raw = await this.#axios.request<unknown>({
        method: request.method,
        url: request.path,
        params: request.query,
        data,
        headers,
        ...(binary === undefined
          ? {}
          : { responseType: 'arraybuffer' as const, maxContentLength: binary.maxBytes, transformResponse: [] }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      if (binary !== undefined) {
        const received = raw.data instanceof ArrayBuffer ? new Uint8Array(raw.data) : Buffer.from(raw.data as Buffer);
        bytes = received;
        // An error answer is read as text, like any other (its JSON names the problem).
        answer = { ...raw, data: raw.status < 400 ? '' : Buffer.from(received).toString('utf8') };
      } else {
        answer = raw as AxiosResponse<string>;
      }
    } catch (error) {
      if (binary !== undefined && axios.isAxiosError(error) && OVER_LENGTH.test(error.message)) {
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
    const failure: AttemptFailure = {
      type: 'status',
      status: answer.status,
      retryAfterMs: parseRetryAfter(headerOf(answer, 'retry-after')),
    };
    const classified = classifyStatus(answer.status, this.profileName, {
      authScheme: this.#options.authScheme,
      bearerExpiredAt: authorization.expiresAt,
    });
    const parsed = parseWith(errorBody, safeJson(answer.data));
    const retryAfterSeconds = failure.retryAfterMs === null ? undefined : Math.ceil(failure.retryAfterMs / 1000);
    if (classified.kind === 'rate-limited' && retryAfterSeconds !== undefined) {
      classified.remedy = `The bank is limiting requests: try again in ${String(retryAfterSeconds)} s.`;
    }
    const error = this.#error(
      request,
      classified.kind,
      answer.status,
      parsed.ok ? parsed.value.error : null,
      attempt,
      classified.retryable,
      classified.remedy,
      retryAfterSeconds,
    );
    if (error.meansOffline) this.#options.onReachability?.(false, error);
    return { ok: false, failure, error };
  }

  #networkFailure(request: BankRequest, error: unknown, attempt: number): AttemptOutcome {
    if (request.signal?.aborted === true || axios.isCancel(error)) {
      throw this.#error(request, 'cancelled', null, null, attempt, false, 'The request was cancelled.');
    }
    const code = axios.isAxiosError(error) ? (error.code ?? null) : null;
    const cause: unknown = axios.isAxiosError(error) ? error.cause : undefined;
    const causeCode =
      typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string'
        ? cause.code
        : null;
    const systemCode = causeCode ?? code;
    const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || systemCode === 'ETIMEDOUT';
    const failure: AttemptFailure = timedOut
      ? { type: 'timeout' }
      : { type: 'network', code: systemCode, neverSent: neverSent(systemCode) };
    const described = timedOut
      ? 'the bank did not answer in time'
      : `the bank at ${this.baseUrl} cannot be reached (${systemCode ?? 'network error'})`;
    const bankError = this.#error(
      request,
      timedOut ? 'timeout' : 'unreachable',
      null,
      described,
      attempt,
      true,
      timedOut ? 'The bank is slow or unreachable: try later.' : 'Check your network connection, or try later.',
      undefined,
      this.#forPeople(timedOut),
    );
    this.#options.onReachability?.(false, bankError);
    return { ok: false, failure, error: bankError };
  }

  #accept(request: BankRequest, answer: AxiosResponse<string>, attempts: number): BankAnswer {
    const text = answer.data;
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

function headerOf(answer: AxiosResponse, name: string): string | undefined {
  const value: unknown = answer.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
