/**
 * `--rate-limit N`: at most N requests a second per API key, as a real bank limits its
 * clients, so a client's handling of 429 can be tested for real. A token bucket per key
 * (N tokens, refilled continuously at N a second); a request without a token is answered
 * 429 with `Retry-After`: the whole seconds until the bucket holds a token again.
 */

export interface RateLimiter {
  /** Takes a token for the key: null when allowed, else the seconds to wait (≥ 1). */
  take(keyId: string): number | null;
}

export function createRateLimiter(perSecond: number, now: () => number = () => performance.now()): RateLimiter {
  if (!Number.isFinite(perSecond) || perSecond <= 0) throw new RangeError('The rate limit must be above 0.');
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(keyId) {
      const time = now();
      const bucket = buckets.get(keyId) ?? { tokens: perSecond, at: time };
      bucket.tokens = Math.min(perSecond, bucket.tokens + ((time - bucket.at) / 1000) * perSecond);
      bucket.at = time;
      buckets.set(keyId, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return null;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    },
  };
}
