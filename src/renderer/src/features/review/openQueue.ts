/**
 * Going to a list with a review filter already chosen: the list screen takes the request when
 * it opens (useReviewExtension). Used by the queue's counts and the command palette.
 */
import type { ReviewFilter, ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import type { ScreenId } from '../../lib/screens.ts';
import { useNavigationStore } from '../../stores/navigation.ts';
import { useReviewStore } from './reviewStore.ts';

const SCREEN_OF_KIND: Record<ReviewKind, ScreenId> = {
  'pending-transaction': 'pending-transactions',
  application: 'account-applications',
  'webhook-send': 'webhook-sends',
  // Hits have no list screen of their own: they are reviewed from the queue.
  'screening-hit': 'review-queue',
};

export function openListWith(kind: ReviewKind, filter: ReviewFilter): void {
  useReviewStore.getState().request(kind, filter);
  useNavigationStore.getState().navigate(SCREEN_OF_KIND[kind]);
}
