/**
 * A review at a glance: a person's disposition as a badge, a watch rule's flag apart from it
 * (outlined, naming the rule), "changed" with what it was, and a mark when a note is kept.
 */
import { Badge } from '../../components/Badge.tsx';
import { reviewSentence, STATE_TONES, type ReviewSummary } from './reviewWords.ts';

export function ReviewBadge({ review }: { review: ReviewSummary | null }) {
  if (review === null) return <span className="muted review-none">unreviewed</span>;
  const sentence = reviewSentence(review);
  if (review.byRule !== null) {
    return (
      <span className="review-rule" title={sentence}>
        <span aria-hidden="true">⚑</span> rule: {review.byRule}
      </span>
    );
  }
  return (
    <span className="review-badge" title={`${sentence}${review.note === null ? '' : ` — ${review.note}`}`}>
      <Badge tone={STATE_TONES[review.state]}>{review.state === 'changed' ? 'changed' : review.state}</Badge>
      {review.note === null ? null : (
        <span className="review-note-mark" aria-label="with a note">
          ✎
        </span>
      )}
    </span>
  );
}
