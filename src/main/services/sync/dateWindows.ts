/**
 * Date windows: a sync's date range cut into disjoint pieces that can be walked side by side.
 * The bank's list filters are `from_date` (created on that day or later) and `to_date`
 * (created before that day), so windows that share their edges — [a, b), [b, c), … — hold
 * every record of the range exactly once, whatever the data. The outer windows stay open
 * where the range is open (no `from_date` below the first edge, no `to_date` above the last),
 * so a record older or newer than anything the planner knew of still has a window.
 * Where the edges fall only decides how evenly the work is shared, never what is fetched.
 */

/** One window: YYYY-MM-DD bounds, `fromDate` inclusive, `toDate` exclusive; absent = open. */
export interface DateWindow {
  fromDate?: string;
  toDate?: string;
}

const DAY_MS = 86_400_000;
const ISO_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

function isIsoDate(value: string): boolean {
  return ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

/** Days since the epoch of a YYYY-MM-DD date (UTC). */
export function dayOf(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

/** The YYYY-MM-DD date of a day since the epoch. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The windows of `range` cut at `edges`: edges outside the range, repeated or unsorted are
 * dropped, so the windows are always disjoint, in order and cover the range.
 */
export function windowsOf(range: DateWindow, edges: readonly string[]): DateWindow[] {
  const inside = [...new Set(edges)]
    .filter((edge) => isIsoDate(edge))
    .filter(
      (edge) =>
        (range.fromDate === undefined || edge > range.fromDate) && (range.toDate === undefined || edge < range.toDate),
    )
    .sort();
  const bounds: (string | undefined)[] = [range.fromDate, ...inside, range.toDate];
  const windows: DateWindow[] = [];
  for (let index = 0; index + 1 < bounds.length; index += 1) {
    const fromDate = bounds[index];
    const toDate = bounds[index + 1];
    windows.push({ ...(fromDate === undefined ? {} : { fromDate }), ...(toDate === undefined ? {} : { toDate }) });
  }
  return windows;
}

/** How many records a day holds (creation dates, UTC), as a previous sync left them. */
export interface DayCount {
  date: string;
  count: number;
}

/**
 * Edges that share the records of a previous sync evenly: each edge is the day on which the
 * running count passes another 1/count of the total (days sorted oldest first). A day is
 * never split, so a day with many records may leave fewer windows than asked.
 */
export function edgesFromCounts(days: readonly DayCount[], count: number): string[] {
  const total = days.reduce((sum, day) => sum + day.count, 0);
  if (count < 2 || total === 0) return [];
  const edges: string[] = [];
  let running = 0;
  let next = 1;
  for (const day of days) {
    // The day starts a new window once the records before it reach the next share.
    while (next < count && running >= (total * next) / count) {
      if (running > 0 && edges.at(-1) !== day.date) edges.push(day.date);
      next += 1;
    }
    running += day.count;
  }
  return edges;
}

/**
 * Edges that cut [oldest, newest] (days, inclusive) into `count` spans of equal length: when
 * only the extremes are known, records are assumed spread evenly over time.
 */
export function evenEdges(oldest: string, newest: string, count: number): string[] {
  const first = dayOf(oldest);
  const last = dayOf(newest) + 1;
  if (count < 2 || last - first < 2) return [];
  const edges: string[] = [];
  for (let index = 1; index < count; index += 1) {
    const day = first + Math.round(((last - first) * index) / count);
    const date = dateOfDay(day);
    if (day > first && day < last && edges.at(-1) !== date) edges.push(date);
  }
  return edges;
}

/**
 * How far a bounded window walked newest first has got, 0 to 1, by days: from its end down
 * to the oldest creation date seen.
 */
export function coverageOf(window: Required<DateWindow>, oldestSeen: string | null): number {
  if (oldestSeen === null) return 0;
  const start = dayOf(window.fromDate);
  const end = dayOf(window.toDate);
  if (!(end > start)) return 0;
  return Math.min(1, Math.max(0, (end - dayOf(oldestSeen)) / (end - start)));
}
