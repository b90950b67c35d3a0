/**
 * The review column of a page of list rows: each row gets `ref` (its stable reference) and
 * `review` (null when unreviewed), with one read of the reviews for the whole page.
 */
import type { ReviewKind } from '../../../shared/review/reviewTerms.ts';
import type { Review } from './reviewsTable.ts';
import type { ReviewService } from './reviewService.ts';

export type Reviewed<Row> = Row & { ref: string; review: Review | null };

export function withReviews<Row extends object>(
  reviews: ReviewService,
  profileId: string,
  kind: ReviewKind,
  rows: readonly Row[],
  refOf: (row: Row) => string,
): Reviewed<Row>[] {
  const found = reviews.ofRefs(profileId, kind, rows.map(refOf));
  return rows.map((row) => {
    const ref = refOf(row);
    return { ...row, ref, review: found.get(ref) ?? null };
  });
}
