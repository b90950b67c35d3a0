import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  decideRetry,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
} from '../../../src/main/services/bank/retryPolicy.ts';

const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 };
const half = (): number => 0.5;

describe('retry policy', () => {
  it('grows exponentially with jitter inside [ceiling/2, ceiling], capped', () => {
    expect(backoffDelay(policy, 1, () => 0)).toBe(50);
    expect(backoffDelay(policy, 1, () => 1)).toBe(100);
    expect(backoffDelay(policy, 3, () => 1)).toBe(400);
    expect(backoffDelay(policy, 10, () => 1)).toBe(1000);
  });

  it('retries 429 for any method, honouring Retry-After as a minimum', () => {
    const decision = decideRetry(policy, { type: 'status', status: 429, retryAfterMs: 2000 }, 1, false, half);
    expect(decision).toEqual({ retry: true, delayMs: 2025 });
  });

  it('does not wait for a Retry-After longer than the policy allows', () => {
    expect(decideRetry(policy, { type: 'status', status: 429, retryAfterMs: 120_000 }, 1, true, half)).toEqual({
      retry: false,
    });
  });

  it('retries 502, 503 and 504 only for idempotent requests', () => {
    for (const status of [502, 503, 504]) {
      expect(decideRetry(policy, { type: 'status', status, retryAfterMs: null }, 1, true, half).retry).toBe(true);
      expect(decideRetry(policy, { type: 'status', status, retryAfterMs: null }, 1, false, half).retry).toBe(false);
    }
  });

  it('never retries 500 or a 4xx other than 429', () => {
    for (const status of [400, 401, 403, 404, 409, 413, 415, 422, 500]) {
      expect(decideRetry(policy, { type: 'status', status, retryAfterMs: null }, 1, true, half).retry).toBe(false);
    }
  });

  it('retries a refused connection for any method, other network failures only when idempotent', () => {
    expect(decideRetry(policy, { type: 'network', code: 'ECONNREFUSED', neverSent: true }, 1, false, half).retry).toBe(
      true,
    );
    expect(decideRetry(policy, { type: 'network', code: 'ECONNRESET', neverSent: false }, 1, false, half).retry).toBe(
      false,
    );
    expect(decideRetry(policy, { type: 'network', code: 'ECONNRESET', neverSent: false }, 1, true, half).retry).toBe(
      true,
    );
    expect(decideRetry(policy, { type: 'timeout' }, 1, false, half).retry).toBe(false);
  });

  it('stops after maxAttempts', () => {
    expect(decideRetry(policy, { type: 'timeout' }, 4, true, half)).toEqual({ retry: false });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});
