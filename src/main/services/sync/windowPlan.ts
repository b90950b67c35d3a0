/**
 * Choosing a sync's date windows from what is known: the creation dates of the records a
 * previous sync left in the cache (edges at equal shares of them), or else single-record
 * probes of the bank (the span of its records, cut into equal lengths of time). Either way
 * the windows partition the range (dateWindows.ts); the choice only balances the work.
 */
import {
  dateOfDay,
  dayOf,
  edgesFromCounts,
  evenEdges,
  windowsOf,
  type DateWindow,
  type DayCount,
} from './dateWindows.ts';
import { probeSpan, type NewestIn } from './windowProbe.ts';

export interface PlannedWindow extends DateWindow {
  /** The share of the records expected in it (any unit: compared between windows). */
  weight: number;
  /** The days it spans for the ETA: its open ends closed at the oldest and newest known. */
  spanFrom: string;
  spanTo: string;
}

export interface WindowPlanInput {
  range: DateWindow;
  /** Windows wanted (fewer when the records are too few or on too few days). */
  count: number;
  /** The cache's records in the range per creation day, oldest first (empty: none). */
  cachedDays: readonly DayCount[];
  /** Below this many cached records, the bank is probed instead. */
  enoughCached: number;
  newestIn: NewestIn;
  /** Probes asked at once. */
  probes: number;
  /** Today, YYYY-MM-DD (the span's end when nothing is known). */
  today: string;
}

export async function planWindows(input: WindowPlanInput): Promise<PlannedWindow[]> {
  const inRange = input.cachedDays.filter(
    (day) =>
      (input.range.fromDate === undefined || day.date >= input.range.fromDate) &&
      (input.range.toDate === undefined || day.date < input.range.toDate),
  );
  const cached = inRange.reduce((sum, day) => sum + day.count, 0);
  if (cached >= input.enoughCached && inRange.length > 0) {
    const windows = windowsOf(input.range, edgesFromCounts(inRange, input.count));
    const span = { oldest: inRange[0]?.date ?? input.today, newest: inRange.at(-1)?.date ?? input.today };
    return windows.map((window) => ({ ...window, weight: 1, ...spanOf(window, span) }));
  }
  const probed = await probeSpan(input.range, input.newestIn, input.probes);
  if (!('span' in probed)) {
    // Nothing to share out, or a bank that ignores the date filters: one window, the range.
    return [{ ...input.range, weight: 1, ...spanOf(input.range, { oldest: input.today, newest: input.today }) }];
  }
  const span = probed.span;
  const windows = windowsOf(input.range, evenEdges(span.oldest, span.newest, input.count));
  return windows.map((window) => {
    const days = spanOf(window, span);
    return { ...window, weight: Math.max(1, dayOf(days.spanTo) - dayOf(days.spanFrom)), ...days };
  });
}

/** A window's days for the ETA, its open ends closed at the known records (never empty). */
function spanOf(window: DateWindow, known: { oldest: string; newest: string }): { spanFrom: string; spanTo: string } {
  const spanTo = window.toDate ?? dateOfDay(Math.max(dayOf(known.newest), dayOf(window.fromDate ?? known.newest)) + 1);
  let spanFrom = window.fromDate ?? known.oldest;
  if (spanFrom >= spanTo) spanFrom = dateOfDay(dayOf(spanTo) - 1);
  return { spanFrom, spanTo };
}
