import { describe, expect, it } from 'vitest';
import { MONEY_PATTERN } from '../../../src/shared/bank/index.ts';
import { dateAt, preciseTimestampOf, secondsTimestampOf } from '../../../src/sandbox/seed/clock.ts';
import { centsOf, moneyOf } from '../../../src/sandbox/seed/money.ts';

describe('money and clock formats', () => {
  it('writes cents as the spec money pattern and reads them back', () => {
    for (const cents of [0, 5, -5, 99, -100, 123_456, -7_000_001]) {
      const text = moneyOf(cents);
      expect(text).toMatch(MONEY_PATTERN);
      expect(centsOf(text)).toBe(cents);
    }
    expect(moneyOf(-50)).toBe('-0.50');
  });

  it('writes timestamps at second, millisecond and microsecond precision, and bank dates at an offset', () => {
    const micros = Date.UTC(2025, 2, 1, 3, 4, 5) * 1000 + 123_456;
    expect(secondsTimestampOf(micros)).toBe('2025-03-01T03:04:05Z');
    expect(preciseTimestampOf(micros, 'milliseconds')).toBe('2025-03-01T03:04:05.123Z');
    expect(preciseTimestampOf(micros, 'microseconds')).toBe('2025-03-01T03:04:05.123456Z');
    expect(dateAt(micros, 0)).toBe('2025-03-01');
    expect(dateAt(micros, -5)).toBe('2025-02-28');
  });
});
