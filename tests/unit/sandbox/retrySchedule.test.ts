import { describe, expect, it } from 'vitest';
import { JITTER_MAX, retryDelayMs } from '../../../src/sandbox/webhooks/retrySchedule.ts';

describe('webhook retry schedule', () => {
  it('doubles from the base until the cap, jitter never hiding the growth', () => {
    for (const jitter of [0, 0.5, 0.999]) {
      const delays = Array.from({ length: 15 }, (_, attempt) => retryDelayMs(attempt, 1000, 3_600_000, () => jitter));
      expect(delays[0]).toBe(Math.round(1000 * (1 + jitter * JITTER_MAX)));
      for (let attempt = 1; attempt < 12; attempt += 1) {
        expect(delays[attempt] ?? 0).toBeGreaterThan(delays[attempt - 1] ?? 0);
      }
      expect(delays.slice(12).every((delay) => delay === Math.round(3_600_000 * (1 + jitter * JITTER_MAX)))).toBe(true);
    }
  });

  it('keeps the worst jitter of one step below the best of the next', () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect(retryDelayMs(attempt, 10, 1e9, () => 0.9999)).toBeLessThan(retryDelayMs(attempt + 1, 10, 1e9, () => 0));
    }
  });

  it('scales with the base: a 1 ms base runs the capped schedule in a fraction of a second', () => {
    const total = Array.from({ length: 15 }, (_, attempt) => retryDelayMs(attempt, 1, 64, () => 0)).reduce(
      (sum, delay) => sum + delay,
      0,
    );
    expect(total).toBe(1 + 2 + 4 + 8 + 16 + 32 + 64 * 9);
  });
});
