/** Paging by date when the bank sends no page_next for records without ids (datePaging.ts). */
import { describe, expect, it } from 'vitest';
import { decodeDateStep, encodeDateStep, requestOfStep, walkOn } from '../../../src/main/services/bank/datePaging.ts';
import { PAGE_SIZE_MAX } from '../../../src/shared/bank/index.ts';

interface Row {
  day: string | null;
  n: number;
}
const dateOf = (row: Row) => row.day;
const rows = (...days: (string | null)[]) => days.map((day, n) => ({ day, n }));

describe('date steps', () => {
  it('round-trip as cursors, and a bank cursor is not one', () => {
    const day = { kind: 'day', date: '2025-03-04', skip: 0 } as const;
    expect(decodeDateStep(encodeDateStep(day))).toEqual(day);
    const skipping = { kind: 'day', date: '2025-03-04', skip: 7 } as const;
    expect(decodeDateStep(encodeDateStep(skipping))).toEqual(skipping);
    expect(decodeDateStep(encodeDateStep({ kind: 'before', date: '2025-03-04' }))).toEqual({
      kind: 'before',
      date: '2025-03-04',
    });
    expect(decodeDateStep('cHQxOmFjY3Q.abc')).toBeNull();
    expect(decodeDateStep(null)).toBeNull();
  });

  it('refuses a damaged cursor of ours by name', () => {
    expect(() => decodeDateStep('ledgerdesk-by-date:day:2025-3-4')).toThrow(/Not a date cursor/);
  });

  it('ask for a whole day at the largest page size, or for what comes before a day within the range', () => {
    expect(requestOfStep(null, { fromDate: '2025-01-01' }, 100)).toEqual({
      range: { fromDate: '2025-01-01' },
      pageSize: 100,
    });
    expect(requestOfStep({ kind: 'day', date: '2025-02-28', skip: 0 }, { fromDate: '2025-01-01' }, 100)).toEqual({
      range: { fromDate: '2025-02-28', toDate: '2025-03-01' },
      pageSize: PAGE_SIZE_MAX,
    });
    expect(
      requestOfStep({ kind: 'before', date: '2025-02-28' }, { fromDate: '2025-01-01', toDate: '2025-06-01' }, 100),
    ).toEqual({ range: { fromDate: '2025-01-01', toDate: '2025-02-28' }, pageSize: 100 });
  });
});

describe('walkOn', () => {
  it('ends at a short page', () => {
    expect(walkOn(rows('2025-01-03', '2025-01-02'), false, null, {}, dateOf)).toEqual({
      ok: true,
      items: rows('2025-01-03', '2025-01-02'),
      next: null,
    });
  });

  it('keeps the complete days of a full page and leaves its oldest day for a page of its own', () => {
    const page = rows('2025-01-03', '2025-01-03', '2025-01-02', '2025-01-02');
    const walk = walkOn(page, true, null, {}, dateOf);
    expect(walk).toEqual({ ok: true, items: page.slice(0, 2), next: { kind: 'day', date: '2025-01-02', skip: 0 } });
  });

  it('keeps a full page of one day whole (a page of one record), and skips as many when the day comes', () => {
    const page = rows('2025-01-02');
    expect(walkOn(page, true, null, {}, dateOf)).toEqual({
      ok: true,
      items: page,
      next: { kind: 'day', date: '2025-01-02', skip: 1 },
    });
    const day = rows('2025-01-02', '2025-01-02', '2025-01-02');
    expect(walkOn(day, false, { kind: 'day', date: '2025-01-02', skip: 1 }, {}, dateOf)).toEqual({
      ok: true,
      items: day.slice(1),
      next: { kind: 'before', date: '2025-01-02' },
    });
  });

  it('after a whole day, goes on before it, unless the range starts that day', () => {
    const day = { kind: 'day', date: '2025-01-02', skip: 0 } as const;
    expect(walkOn(rows('2025-01-02'), false, day, {}, dateOf)).toEqual({
      ok: true,
      items: rows('2025-01-02'),
      next: { kind: 'before', date: '2025-01-02' },
    });
    expect(walkOn(rows('2025-01-02'), false, day, { fromDate: '2025-01-02' }, dateOf)).toEqual({
      ok: true,
      items: rows('2025-01-02'),
      next: null,
    });
  });

  it('fails, naming the day, when one day holds more than the largest page', () => {
    const walk = walkOn(rows('2025-01-02'), true, { kind: 'day', date: '2025-01-02', skip: 0 }, {}, dateOf);
    expect(walk).toEqual({
      ok: false,
      problem: expect.stringMatching(/more than 1000 records on 2025-01-02/) as string,
    });
  });

  it('fails when the last record of a full page has no date to page by', () => {
    expect(walkOn(rows('2025-01-02', null), true, null, {}, dateOf).ok).toBe(false);
  });
});
