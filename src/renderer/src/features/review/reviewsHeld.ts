/**
 * How many reviews the officer's record holds, for the confirmation of clearing the cache: they
 * stay (issue 34), with the watch rules and the audit log; only the bank's copies go.
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

/** The confirmation's sentence about reviews: how many stay, and how they list until the next sync. */
export function reviewsKeptSentence(count: number | null): string {
  const what =
    count === null
      ? 'every officer’s review'
      : count === 0
        ? 'no review yet'
        : `${count.toLocaleString('en-US')} ${count === 1 ? 'review' : 'reviews'}: dispositions, notes and their history`;
  return `The reviews stay — ${what} — listed with the record as reviewed until a sync brings the bank's copy back. Watch rules and the audit log are kept.`;
}
