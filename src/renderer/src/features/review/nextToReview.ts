/**
 * Where the keyboard goes after a disposition: the next row below that still needs a person
 * (never reviewed, flagged only by a rule, or changed since its review), among the rows
 * loaded; past them, simply the next row (its page loads as the list scrolls to it).
 */
import { needsPerson, type ReviewSummary } from './reviewWords.ts';

export interface RowsAround<Row> {
  count: number;
  rowAt: (index: number) => Row | undefined;
}

export function nextToReview<Row>(
  rows: RowsAround<Row>,
  after: number,
  reviewOf: (row: Row) => ReviewSummary | null | undefined,
): number {
  for (let index = after + 1; index < rows.count; index += 1) {
    const row = rows.rowAt(index);
    if (row === undefined) return index;
    if (needsPerson(reviewOf(row))) return index;
  }
  // Nothing below needs a person: stay on the last row reviewed.
  return Math.min(after, Math.max(0, rows.count - 1));
}
