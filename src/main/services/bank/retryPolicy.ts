/**
 * When to retry a bank request, and how long to wait. Only where it is safe:
 *   - a refused connection or a 429: the bank never processed the request, so any method;
 *   - other network failures, timeouts, 502, 503, 504: only idempotent requests (GET, DELETE,
 *     and POSTs carrying an X-Idempotency-Key, which the bank deduplicates).
 * 500 and every 4xx but 429 are never retried: the same request would fail the same way; nor
 * a 429 that names an account limit, a proxy's refusal or an untrusted certificate.
 * Waits grow exponentially with "equal jitter" (half fixed, half random) so clients that
 * failed together do not retry together; a Retry-After is honoured as a minimum.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error says when to try again. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 300,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/** What went wrong with one attempt, as far as retrying is concerned. */
export type AttemptFailure =
  /** `final`: a 429 that names an account limit, which no wait fixes (accountLimit.ts). */
  | { type: 'status'; status: number; retryAfterMs: number | null; final?: boolean }
  /** `final`: a failure the same request meets again (a proxy's refusal, an untrusted certificate). */
  | { type: 'network'; code: string | null; neverSent: boolean; final?: boolean }
  | { type: 'timeout' };

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

const RETRIED_STATUSES = new Set([429, 502, 503, 504]);

/** `Retry-After` is seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * @param attempt the attempt that just failed, from 1
 * @param idempotent whether repeating the request cannot change its effect
 */
export function decideRetry(
  policy: RetryPolicy,
  failure: AttemptFailure,
  attempt: number,
  idempotent: boolean,
  random: () => number = Math.random,
): RetryDecision {
  if (attempt >= policy.maxAttempts) return { retry: false };
  if (failure.type !== 'timeout' && failure.final === true) return { retry: false };
  if (failure.type === 'status') {
    if (!RETRIED_STATUSES.has(failure.status)) return { retry: false };
    if (failure.status !== 429 && !idempotent) return { retry: false };
    if (failure.retryAfterMs === null) return { retry: true, delayMs: backoffDelay(policy, attempt, random) };
    if (failure.retryAfterMs > policy.maxRetryAfterMs) return { retry: false };
    // Never sooner than asked; a little jitter so a crowd of clients does not return at once.
    return { retry: true, delayMs: failure.retryAfterMs + Math.round((random() * policy.baseDelayMs) / 2) };
  }
  if (failure.type === 'network' && failure.neverSent) {
    return { retry: true, delayMs: backoffDelay(policy, attempt, random) };
  }
  return idempotent ? { retry: true, delayMs: backoffDelay(policy, attempt, random) } : { retry: false };
}
