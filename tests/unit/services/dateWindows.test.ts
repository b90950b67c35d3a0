/**
 * Date windows (dateWindows.ts, windowProbe.ts, windowPlan.ts), as properties over random
 * data and random edges: whatever the edges, the windows partition the range, so a bank that
 * filters by `from_date` (inclusive) and `to_date` (exclusive) hands every record of the range
 * to exactly one window, and a walk of each window by cursor, page by page, yields every
 * record once. The bank here is a model: records with creation days and positions, filtered
 * and paged the way the interface says.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  coverageOf,
  dateOfDay,
  dayOf,
  edgesFromCounts,
  evenEdges,
  windowsOf,
  type DateWindow,
  type DayCount,
} from '../../../src/main/services/sync/dateWindows.ts';
import { probeSpan } from '../../../src/main/services/sync/windowProbe.ts';
import { planWindows } from '../../../src/main/services/sync/windowPlan.ts';

const BASE_DAY = dayOf('2024-01-01');

/** A record of the model bank: its position (list order: newest first) and creation day. */
interface ModelRecord {
  position: number;
  day: number;
}

/** Records in creation order (positions grow with time), days relative to 2024-01-01. */
const recordsArbitrary = fc
  .array(fc.integer({ min: 0, max: 400 }), { maxLength: 300 })
  .map((days) => [...days].sort((a, b) => a - b).map((day, index) => ({ position: index + 1, day: BASE_DAY + day })));

const edgeArbitrary = fc.array(
  fc.integer({ min: -30, max: 430 }).map((day) => dateOfDay(BASE_DAY + day)),
  { maxLength: 12 },
);

const rangeArbitrary: fc.Arbitrary<DateWindow> = fc
  .record({
    from: fc.option(fc.integer({ min: -10, max: 200 }), { nil: undefined }),
    length: fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
  })
  .map(({ from, length }) => ({
    ...(from === undefined ? {} : { fromDate: dateOfDay(BASE_DAY + from) }),
    ...(length === undefined ? {} : { toDate: dateOfDay(BASE_DAY + (from ?? 0) + length) }),
  }));

function inWindow(record: ModelRecord, window: DateWindow): boolean {
  return (
    (window.fromDate === undefined || record.day >= dayOf(window.fromDate)) &&
    (window.toDate === undefined || record.day < dayOf(window.toDate))
  );
}

/** The model bank's pages of a window, newest first, by position cursor. */
function walk(records: readonly ModelRecord[], window: DateWindow, pageSize: number): number[] {
  const matching = records.filter((record) => inWindow(record, window)).sort((a, b) => b.position - a.position);
  const seen: number[] = [];
  let cursor: number | null = null;
  for (;;) {
    const after: number | null = cursor;
    const page: ModelRecord[] = matching
      .filter((record) => after === null || record.position < after)
      .slice(0, pageSize);
    seen.push(...page.map((record) => record.position));
    const last: ModelRecord | undefined = page.at(-1);
    if (page.length < pageSize || last === undefined) return seen;
    cursor = last.position;
  }
}

describe('windowsOf', () => {
  it('partitions the range whatever the edges: contiguous, in order, no gap, no overlap', () => {
    fc.assert(
      fc.property(rangeArbitrary, edgeArbitrary, (range, edges) => {
        const windows = windowsOf(range, edges);
        expect(windows.length).toBeGreaterThanOrEqual(1);
        expect(windows[0]?.fromDate).toBe(range.fromDate);
        expect(windows.at(-1)?.toDate).toBe(range.toDate);
        for (let index = 0; index + 1 < windows.length; index += 1) {
          const here = windows[index];
          const next = windows[index + 1];
          expect(here?.toDate).toBeDefined();
          expect(here?.toDate).toBe(next?.fromDate);
          if (here?.fromDate !== undefined && here.toDate !== undefined) expect(here.fromDate < here.toDate).toBe(true);
        }
      }),
    );
  });

  it('hands every record of the range to exactly one window, and a walk of each window by cursor yields each once', () => {
    fc.assert(
      fc.property(
        recordsArbitrary,
        rangeArbitrary,
        edgeArbitrary,
        fc.integer({ min: 1, max: 7 }),
        (records, range, edges, pageSize) => {
          const windows = windowsOf(range, edges);
          const walked = windows.flatMap((window) => walk(records, window, pageSize));
          const expected = records.filter((record) => inWindow(record, range)).map((record) => record.position);
          expect(new Set(walked).size).toBe(walked.length);
          expect([...walked].sort((a, b) => a - b)).toEqual(expected);
        },
      ),
    );
  });

  it('drops edges outside the range, repeated or not dates at all', () => {
    expect(
      windowsOf({ fromDate: '2024-02-01', toDate: '2024-03-01' }, [
        '2024-01-15',
        '2024-02-10',
        '2024-02-10',
        'soon',
        '2024-03-01',
      ]),
    ).toEqual([
      { fromDate: '2024-02-01', toDate: '2024-02-10' },
      { fromDate: '2024-02-10', toDate: '2024-03-01' },
    ]);
    expect(windowsOf({}, [])).toEqual([{}]);
    expect(windowsOf({}, ['2024-05-01'])).toEqual([{ toDate: '2024-05-01' }, { fromDate: '2024-05-01' }]);
  });
});

describe('edges from a previous sync', () => {
  it('shares the records evenly, never more windows than asked, edges inside the days seen', () => {
    fc.assert(
      fc.property(recordsArbitrary, fc.integer({ min: 1, max: 24 }), (records, count) => {
        const byDay = new Map<string, number>();
        for (const record of records) byDay.set(dateOfDay(record.day), (byDay.get(dateOfDay(record.day)) ?? 0) + 1);
        const days: DayCount[] = [...byDay]
          .map(([date, n]) => ({ date, count: n }))
          .sort((a, b) => (a.date < b.date ? -1 : 1));
        const edges = edgesFromCounts(days, count);
        expect(edges.length).toBeLessThanOrEqual(Math.max(0, count - 1));
        expect([...edges].sort()).toEqual(edges);
        expect(new Set(edges).size).toBe(edges.length);
        for (const edge of edges) expect(byDay.has(edge)).toBe(true);
        // No window holds much more than its share, unless one day alone is bigger than a share.
        const windows = windowsOf({}, edges);
        const biggestDay = Math.max(0, ...days.map((day) => day.count));
        for (const window of windows) {
          const inside = records.filter((record) => inWindow(record, window)).length;
          expect(inside).toBeLessThanOrEqual(Math.ceil(records.length / Math.max(1, count)) + biggestDay);
        }
      }),
    );
  });

  it('cuts 1,000 records spread evenly over 100 days into windows of about 1,000 / count', () => {
    const days = Array.from({ length: 100 }, (_, index) => ({ date: dateOfDay(BASE_DAY + index), count: 10 }));
    const edges = edgesFromCounts(days, 4);
    expect(edges).toEqual([dateOfDay(BASE_DAY + 25), dateOfDay(BASE_DAY + 50), dateOfDay(BASE_DAY + 75)]);
  });
});

describe('even edges over a span', () => {
  it('stay strictly inside the span, sorted, at most count - 1', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 30 }),
        (start, length, count) => {
          const oldest = dateOfDay(BASE_DAY + start);
          const newest = dateOfDay(BASE_DAY + start + length);
          const edges = evenEdges(oldest, newest, count);
          expect(edges.length).toBeLessThanOrEqual(count - 1);
          expect([...new Set(edges)].sort()).toEqual(edges);
          for (const edge of edges) {
            expect(edge > oldest).toBe(true);
            expect(dayOf(edge)).toBeLessThanOrEqual(dayOf(newest));
          }
        },
      ),
    );
  });
});

describe('probing the bank for the span of its records', () => {
  /** The model bank's "newest record in the window" (a one-record page), counting the probes. */
  function bankOf(records: readonly ModelRecord[], honoursDates = true) {
    const asked: DateWindow[] = [];
    return {
      asked,
      newestIn: (window: DateWindow): Promise<string | null> => {
        asked.push(window);
        const matching = records.filter((record) => !honoursDates || inWindow(record, window));
        const newest = matching.at(-1);
        return Promise.resolve(newest === undefined ? null : dateOfDay(newest.day));
      },
    };
  }

  it('finds the newest record exactly and an oldest bound that is never after the real oldest', async () => {
    await fc.assert(
      fc.asyncProperty(recordsArbitrary, fc.integer({ min: 1, max: 8 }), async (records, probes) => {
        const bank = bankOf(records);
        const result = await probeSpan({}, bank.newestIn, probes);
        if (records.length === 0) {
          expect(result).toEqual({ empty: true });
          return;
        }
        if (!('span' in result)) throw new Error(`expected a span, got ${JSON.stringify(result)}`);
        expect(result.span.newest).toBe(dateOfDay(records.at(-1)?.day ?? 0));
        expect(dayOf(result.span.oldest)).toBeLessThanOrEqual(records[0]?.day ?? 0);
        // A handful of rounds, not one probe per day.
        expect(bank.asked.length).toBeLessThanOrEqual(1 + 6 * probes);
      }),
    );
  });

  it('tells a bank that ignores the date filters, so the sync walks one window instead of many copies', async () => {
    const records = Array.from({ length: 50 }, (_, index) => ({ position: index + 1, day: BASE_DAY + index * 3 }));
    expect(await probeSpan({}, bankOf(records, false).newestIn, 4)).toEqual({ unfiltered: true });
    expect(await probeSpan({ fromDate: '2024-01-01' }, bankOf(records, false).newestIn, 4)).toEqual({
      unfiltered: true,
    });
    const planned = await planWindows({
      range: {},
      count: 12,
      cachedDays: [],
      enoughCached: 1,
      newestIn: bankOf(records, false).newestIn,
      probes: 4,
      today: '2024-06-01',
    });
    expect(planned).toHaveLength(1);
  });
});

describe('planning windows', () => {
  it('uses the previous sync’s days when the cache holds enough, else probes; the windows always partition the range', async () => {
    await fc.assert(
      fc.asyncProperty(recordsArbitrary, rangeArbitrary, fc.boolean(), async (records, range, fromCache) => {
        const byDay = new Map<string, number>();
        for (const record of records) byDay.set(dateOfDay(record.day), (byDay.get(dateOfDay(record.day)) ?? 0) + 1);
        const cachedDays = [...byDay]
          .map(([date, count]) => ({ date, count }))
          .sort((a, b) => (a.date < b.date ? -1 : 1));
        let probes = 0;
        const planned = await planWindows({
          range,
          count: 9,
          cachedDays: fromCache ? cachedDays : [],
          enoughCached: 20,
          newestIn: (window) => {
            probes += 1;
            const newest = records.filter((record) => inWindow(record, window)).at(-1);
            return Promise.resolve(newest === undefined ? null : dateOfDay(newest.day));
          },
          probes: 3,
          today: '2025-03-01',
        });
        const inRange = records.filter((record) => inWindow(record, range)).length;
        if (fromCache && inRange >= 20) expect(probes).toBe(0);
        expect(planned.length).toBeLessThanOrEqual(9);
        const walked = planned.flatMap((window) => walk(records, window, 5));
        expect(new Set(walked).size).toBe(walked.length);
        expect(walked.length).toBe(inRange);
        for (const window of planned) {
          expect(window.weight).toBeGreaterThan(0);
          expect(window.spanFrom < window.spanTo).toBe(true);
        }
      }),
    );
  });
});

describe('coverage for the ETA', () => {
  it('goes from 0 to 1 as the walk reaches older days', () => {
    const window = { fromDate: '2024-01-01', toDate: '2024-01-11' };
    expect(coverageOf(window, null)).toBe(0);
    expect(coverageOf(window, '2024-01-10')).toBeCloseTo(0.1);
    expect(coverageOf(window, '2024-01-06')).toBeCloseTo(0.5);
    expect(coverageOf(window, '2024-01-01')).toBe(1);
    expect(coverageOf(window, '2023-12-01')).toBe(1);
  });
});
