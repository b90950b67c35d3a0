/**
 * How many reviews clearing the cache would drop, for its confirmation: reviews go with the
 * cached data they judge (the audit log and the watch rules stay).
 */
import { REVIEW_KINDS } from '../../../../shared/review/reviewTerms.ts';
import { api } from '../../lib/api.ts';

export async function reviewsHeld(profileIds: readonly string[]): Promise<number | null> {
  try {
    const counts = await Promise.all(
      profileIds.flatMap((profileId) => REVIEW_KINDS.map((kind) => api().reviews.counts({ profileId, kind }))),
    );
    return counts.reduce((sum, count) => sum + Object.values(count).reduce((all, one) => all + one, 0), 0);
  } catch {
    return null;
  }
}

/** The confirmation's sentence about reviews: how many go, and what stays. */
export function reviewsDroppedSentence(count: number | null): string {
  const what =
    count === null
      ? 'every officer’s review of it'
      : count === 0
        ? 'no review (none is kept)'
        : `${count.toLocaleString('en-US')} ${count === 1 ? 'review' : 'reviews'}: dispositions, notes and their history`;
  return `The reviews go with it — ${what} — and a sync does not bring them back. Watch rules and the audit log are kept.`;
}
