/** Cache migration 12. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 12,
  name: 'reviews that know whether their row is cached',
  sql: `
      -- A pending transaction's review outlives its row (posted or released, the bank no longer
      -- lists it), and such a review is not one of the list's rows. row_listed says which
      -- reviews still have their row, so the count behind a review filter is one range of an
      -- index instead of a probe of a million-row index per review (about 3 µs each, 100 ms at
      -- 34,000 reviews). Other kinds are always 1. Kept true by: the trigger below when a row
      -- goes; the review's own write when it is given; and after each sync, for a row the
      -- bank lists again (ReviewsTable.relistPendingTransactions).
      ALTER TABLE reviews ADD COLUMN row_listed INTEGER NOT NULL DEFAULT 1 CHECK (row_listed IN (0, 1));
      UPDATE reviews SET row_listed = 0
        WHERE kind = 'pending-transaction' AND NOT EXISTS (
          SELECT 1 FROM pending_transaction_scopes AS s CROSS JOIN pending_transactions AS p
            ON p.scope = s.id AND p.posted_at = reviews.posted_at AND p.row_key = reviews.ref
          WHERE s.profile_id = reviews.profile_id AND s.account_id = reviews.account_id);
      CREATE INDEX reviews_by_listed_state ON reviews (profile_id, kind, account_id, row_listed, state);
      CREATE TRIGGER pending_transaction_review_unlisted AFTER DELETE ON pending_transactions BEGIN
        UPDATE reviews SET row_listed = 0
          WHERE profile_id = (SELECT profile_id FROM pending_transaction_scopes WHERE id = old.scope)
            AND kind = 'pending-transaction' AND ref = old.row_key AND row_listed = 1;
      END;
    `,
};
