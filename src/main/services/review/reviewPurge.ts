/**
 * The purge of reviews that have outlived their retention (issue 34, item 5): each review whose
 * last disposition is older than the cutoff goes with its whole history, in the caller's
 * transaction. The caller checks the legal hold and writes the audit entry with it.
 */
import type { DatabaseSync } from 'node:sqlite';

/** Deletes the profile's reviews last given before `cutoff` (ISO 8601), with their history; returns how many. */
export function purgeReviews(database: DatabaseSync, profileId: string, cutoff: string): number {
  database
    .prepare(
      `DELETE FROM review_history WHERE profile_id = ? AND (kind, ref) IN
         (SELECT kind, ref FROM reviews WHERE profile_id = ? AND updated_at < ?)`,
    )
    .run(profileId, profileId, cutoff);
  return Number(
    database.prepare('DELETE FROM reviews WHERE profile_id = ? AND updated_at < ?').run(profileId, cutoff).changes,
  );
}
