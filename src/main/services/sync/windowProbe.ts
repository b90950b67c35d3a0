/**
 * Where a list's records lie in time, when nothing was synced before: single-record pages
 * ("the newest record before this date") asked several at a time. The newest record's date
 * comes from one probe of the whole range; the oldest, when the range has no start, by
 * narrowing a century down to a few days in a handful of rounds of parallel probes. A probe
 * reads one record and keeps nothing: what it learns only places the window edges.
 */
import { dateOfDay, dayOf, type DateWindow } from './dateWindows.ts';

/** The creation date (YYYY-MM-DD) of the newest record in the window, or null when it holds none. */
export type NewestIn = (window: DateWindow) => Promise<string | null>;

/** How far back the oldest record is looked for when the range has no start. */
const SEARCH_DAYS = 36_525;
/** Rounds of narrowing at most; each cuts the span by `probes + 1`. */
const ROUNDS = 6;
/** Narrowing stops when the oldest record is known to within this many days. */
const CLOSE_ENOUGH_DAYS = 7;

interface RecordSpan {
  oldest: string;
  newest: string;
}

/**
 * What the probes found: the span of the range's records; nothing (the range is empty); or
 * that the bank ignores the date filters (a record from after a `to_date` came back), when
 * windows would each fetch the whole list and only one walk makes sense.
 */
export type ProbeResult = { span: RecordSpan } | { empty: true } | { unfiltered: true };

/** A record dated up to a day after a `to_date` may be the bank's own time zone, not a filter ignored. */
const TIME_ZONE_SLACK_DAYS = 1;

function honours(toDay: number, answer: string | null): boolean {
  return answer === null || dayOf(answer) < toDay + TIME_ZONE_SLACK_DAYS;
}

/**
 * The span of the range's records (creation dates), or that there is none to find.
 * @param probes single-record probes asked at once in each round (≥ 1)
 */
export async function probeSpan(range: DateWindow, newestIn: NewestIn, probes: number): Promise<ProbeResult> {
  const newest = await newestIn(range);
  if (newest === null) return { empty: true };
  if (range.toDate !== undefined && !honours(dayOf(range.toDate), newest)) return { unfiltered: true };
  if (range.fromDate !== undefined) {
    // One probe below the newest record tells whether the bank honours to_date at all.
    const checkDay = dayOf(newest) - 2 * TIME_ZONE_SLACK_DAYS;
    if (checkDay > dayOf(range.fromDate)) {
      const answer = await newestIn({ fromDate: range.fromDate, toDate: dateOfDay(checkDay) });
      if (!honours(checkDay, answer)) return { unfiltered: true };
    }
    return { span: { oldest: range.fromDate, newest } };
  }
  // The oldest record lies in [low, high] (days); probes ask "is there any record before day c?".
  let low = dayOf(newest) - SEARCH_DAYS;
  let high = dayOf(newest);
  const cuts = Math.max(1, probes);
  for (let round = 0; round < ROUNDS && high - low > CLOSE_ENOUGH_DAYS; round += 1) {
    const points: number[] = [];
    for (let index = 1; index <= cuts; index += 1) {
      const point = low + Math.round(((high - low) * index) / (cuts + 1));
      if (point > low && point <= high && points.at(-1) !== point) points.push(point);
    }
    if (points.length === 0) break;
    const answers = await Promise.all(points.map((point) => newestIn({ toDate: dateOfDay(point) })));
    if (answers.some((answer, index) => !honours(points[index] ?? 0, answer))) return { unfiltered: true };
    // The first cut with a record before it bounds the oldest from above; the cut before, from below.
    const firstHit = answers.findIndex((answer) => answer !== null);
    if (firstHit === -1) {
      low = points.at(-1) ?? low;
    } else {
      // The record that answered is itself no older than the oldest.
      const seen = answers[firstHit];
      high = Math.min(high, (points[firstHit] ?? high) - 1, seen === null || seen === undefined ? high : dayOf(seen));
      if (firstHit > 0) low = points[firstHit - 1] ?? low;
    }
  }
  return { span: { oldest: dateOfDay(low), newest } };
}
