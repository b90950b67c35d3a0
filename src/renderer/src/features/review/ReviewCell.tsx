/**
 * The review column's cell. It follows the reviews given in this window (reviewStore), so a
 * row's review changes the moment a key is pressed, without the list being read again.
 */
import type { ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import { ReviewBadge } from './ReviewBadge.tsx';
import { useReviewStore } from './reviewStore.ts';
import type { ReviewSummary } from './reviewWords.ts';

export function ReviewCell({
  profileId,
  kind,
  reference,
  read,
}: {
  profileId: string;
  kind: ReviewKind;
  reference: string | undefined;
  read: ReviewSummary | null | undefined;
}) {
  const review = useReviewStore((state) =>
    reference === undefined ? (read ?? null) : state.current(profileId, kind, reference, read),
  );
  return <ReviewBadge review={review} />;
}
