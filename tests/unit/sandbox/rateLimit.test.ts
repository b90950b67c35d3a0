/**
 * `--rate-limit N` (http/rateLimit.ts): N requests a second per key, refilled continuously;
 * beyond, the whole seconds until a token is back; keys limited apart; bad values refused.
 */
import { describe, expect, it } from 'vitest';
import { parseCliArguments } from '../../../src/sandbox/cliArguments.ts';
import { resolveOptions } from '../../../src/sandbox/options.ts';
import { createRateLimiter } from '../../../src/sandbox/http/rateLimit.ts';

describe('the sandbox rate limit', () => {
  it('allows N requests a second per key, then says how long to wait', () => {
    let now = 0;
    const limiter = createRateLimiter(5, () => now);
    for (let request = 0; request < 5; request += 1) expect(limiter.take('key_a')).toBeNull();
    expect(limiter.take('key_a')).toBe(1);
    // Another key has its own bucket.
    expect(limiter.take('key_b')).toBeNull();
    // 200 ms later one token is back, and only one.
    now = 200;
    expect(limiter.take('key_a')).toBeNull();
    expect(limiter.take('key_a')).toBe(1);
    // Idle for a long time: the bucket holds N again, no more.
    now = 60_000;
    for (let request = 0; request < 5; request += 1) expect(limiter.take('key_a')).toBeNull();
    expect(limiter.take('key_a')).not.toBeNull();
  });

  it('waits whole seconds, longer at low rates', () => {
    let now = 0;
    const limiter = createRateLimiter(1, () => now);
    expect(limiter.take('k')).toBeNull();
    expect(limiter.take('k')).toBe(1);
    now = 500;
    expect(limiter.take('k')).toBe(1);
  });

  it('is read from --rate-limit, and a rate that is not a whole number from 1 is refused', () => {
    expect(parseCliArguments(['--rate-limit', '20']).options).toEqual({ rateLimit: 20 });
    expect(() => parseCliArguments(['--rate-limit', 'fast'])).toThrow('--rate-limit takes a whole number, not "fast".');
    expect(() => resolveOptions({ rateLimit: 0 })).toThrow(
      'Sandbox option rateLimit must be a whole number ≥ 1, not 0.',
    );
    expect(resolveOptions({}).rateLimit).toBeUndefined();
    expect(() => createRateLimiter(0)).toThrow(/above 0/);
  });
});
