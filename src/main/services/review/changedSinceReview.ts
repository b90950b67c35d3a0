/**
 * After a sync: which reviewed items the bank now describes differently from the record the
 * officer reviewed. Compared by digest in SQL (a review keeps the digest of the record it was
 * given on); only the items that differ are opened, to say field by field what changed.
 *   - an application or a send: its digest in the cache differs from the review's;
 *   - a notification: a retry or a changed attempt changes the digest over its attempts;
 *   - a pending transaction: its row key is the digest of the whole record, so a different
 *     record is a different row; the reviewed one is gone when the bank no longer lists it as
 *     pending (posted or released), and that is the change.
 */
import type { DatabaseSync } from 'node:sqlite';
import { isNotificationRef, type ReviewKind } from '../../../shared/review/reviewTerms.ts';
import type { ReviewedRecords } from './reviewedRecords.ts';

/** The refs of a profile's reviews of `kind` whose record is no longer the one reviewed. */
export function changedRefs(
  database: DatabaseSync,
  records: ReviewedRecords,
  profileId: string,
  kind: ReviewKind,
): string[] {
  const standing = `r.profile_id = ? AND r.kind = ? AND r.state != 'changed' AND r.record_digest IS NOT NULL`;
  if (kind === 'pending-transaction') {
    const rows = database
      .prepare(
        `SELECT r.ref FROM reviews AS r WHERE ${standing} AND NOT EXISTS (
           SELECT 1 FROM pending_transaction_scopes AS s CROSS JOIN pending_transactions AS p
             ON p.scope = s.id AND p.posted_at = r.posted_at AND p.row_key = r.ref
           WHERE s.profile_id = r.profile_id AND s.account_id = r.account_id)`,
      )
      .all(profileId, kind) as { ref: string }[];
    return rows.map((row) => row.ref);
  }
  if (kind === 'application') {
    // An application's review covers its applicants too (applicationSnapshot.ts): the digest is
    // recomputed from the stored digests of the application and of each applicant it names.
    const rows = database
      .prepare(
        `SELECT r.ref, r.record_digest, a.body_digest FROM reviews AS r JOIN account_applications AS a
           ON a.profile_id = r.profile_id AND a.application_id = r.ref
         WHERE ${standing}`,
      )
      .all(profileId, kind) as { ref: string; record_digest: string; body_digest: string }[];
    const now = records.applicationDigests(profileId, new Map(rows.map((row) => [row.ref, row.body_digest])));
    // A review given before applicants were covered holds the application's digest alone.
    return rows
      .filter((row) => row.record_digest !== row.body_digest && row.record_digest !== now.get(row.ref))
      .map((row) => row.ref);
  }
  const sends = database
    .prepare(
      `SELECT r.ref FROM reviews AS r JOIN webhook_sends AS w ON w.profile_id = r.profile_id AND w.send_id = r.ref
       WHERE ${standing} AND w.body_digest != r.record_digest`,
    )
    .all(profileId, kind) as { ref: string }[];
  const notifications = database
    .prepare(`SELECT r.ref, r.record_digest FROM reviews AS r WHERE ${standing} AND r.ref LIKE 'notification/%'`)
    .all(profileId, kind) as { ref: string; record_digest: string }[];
  const digests = records.notificationDigests(profileId, notifications.map((row) => row.ref).filter(isNotificationRef));
  const changedNotifications = notifications.filter((row) => {
    const now = digests.get(row.ref);
    return now !== undefined && now !== row.record_digest;
  });
  return [...sends.map((row) => row.ref), ...changedNotifications.map((row) => row.ref)];
}
