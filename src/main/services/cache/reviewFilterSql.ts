/**
 * The review filter of a list read, in SQL: the rows with no review, or those whose review is
 * in a state. Each row's review is found by its ref through the unique index of reviews
 * (profile, kind, ref), so a page of a million-row list checks only the rows it walks.
 * `reviewed` (any state) is for counting the unreviewed as all rows minus the reviewed ones.
 */
import type { ReviewFilter, ReviewKind } from '../../../shared/review/reviewTerms.ts';

export type ReviewSelection = ReviewFilter | 'reviewed';

export function reviewClause(
  profileId: string,
  kind: ReviewKind,
  selection: ReviewSelection,
  refColumn: string,
): { clause: string; parameters: string[] } {
  const same = `r.profile_id = ? AND r.kind = '${kind}' AND r.ref = ${refColumn}`;
  if (selection === 'unreviewed') {
    return { clause: `NOT EXISTS (SELECT 1 FROM reviews AS r WHERE ${same})`, parameters: [profileId] };
  }
  if (selection === 'reviewed') {
    return { clause: `EXISTS (SELECT 1 FROM reviews AS r WHERE ${same})`, parameters: [profileId] };
  }
  return {
    clause: `EXISTS (SELECT 1 FROM reviews AS r WHERE ${same} AND r.state = ?)`,
    parameters: [profileId, selection],
  };
}
