/** Cache migration 22. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 22,
  name: 'audit entries of each reviewed item, for the rollback check',
  sql: `
      -- A review row put back to an earlier version of itself still has a matching row MAC (it
      -- was one once). The chained audit log holds, per item, the entry of its latest move with
      -- the version it made (reviewRollbacks.ts); these two partial indexes find that entry,
      -- and the entries after which a review may be gone (its profile's reviews dropped, the
      -- cache cleared, the data key reset), without a walk of the log. Only those entries are
      -- indexed, so an append of any other entry costs nothing more.
      CREATE INDEX audit_log_review_items ON audit_log (profile_id, target, id)
        WHERE action IN ('review.cleared', 'review.flagged', 'review.escalated', 'review.changed');
      CREATE INDEX audit_log_review_resets ON audit_log (action, profile_id, id)
        WHERE action IN ('reviews.drop', 'cache.clear', 'cache.data-key-reset');
    `,
};
