import { describe, expect, it } from 'vitest';
import { formatMoney, signOf } from '../../../src/renderer/src/lib/money.ts';
import { parseJsonObjectText } from '../../../src/renderer/src/lib/jsonText.ts';
import { ageOf, formatDuration, formatTimestamp } from '../../../src/renderer/src/lib/time.ts';

describe('money for display', () => {
  it('groups digits without ever going through a float', () => {
    expect(formatMoney('1234567.50')).toBe('1,234,567.50');
    expect(formatMoney('-0.50')).toBe('\u22120.50');
    expect(formatMoney('0.00')).toBe('0.00');
    expect(formatMoney('-0.00')).toBe('0.00');
    // Beyond a double's precision: shown digit for digit.
    expect(formatMoney('98765432109876543.21')).toBe('98,765,432,109,876,543.21');
    expect(formatMoney('not money')).toBe('not money');
  });

  it('tells the sign for colouring', () => {
    expect(signOf('12.00')).toBe('positive');
    expect(signOf('-12.00')).toBe('negative');
    expect(signOf('-0.00')).toBe('zero');
    expect(signOf('0.00')).toBe('zero');
  });
});

describe('times', () => {
  it('says how old cached data is', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(ageOf(null, now)).toBe('never');
    expect(ageOf('2026-11-21T11:59:58Z', now)).toBe('just now');
    expect(ageOf('2026-11-21T11:57:00Z', now)).toBe('3 min ago');
    expect(ageOf('2026-11-21T07:00:00Z', now)).toBe('5 h ago');
    expect(formatTimestamp('2026-11-21T12:00:05Z')).toBe('2026-11-21 12:00:05 UTC');
    expect(formatDuration(75)).toBe('1 min 15 s');
  });
});

describe('JSON typed by a person', () => {
  it('accepts an object or nothing, and says where the text is broken', () => {
    expect(parseJsonObjectText('')).toEqual({ ok: true, value: undefined });
    expect(parseJsonObjectText('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonObjectText('[1]')).toEqual({ ok: false, message: 'Must be a JSON object, like {"key": "value"}.' });
    const broken = parseJsonObjectText('{\n  "a": 1,\n}');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.message).toMatch(/JSON/);
  });
});
