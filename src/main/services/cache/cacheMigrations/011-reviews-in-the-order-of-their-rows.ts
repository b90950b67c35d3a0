/** Cache migration 11. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 11,
  name: 'reviews in the order of their rows',
  sql: `
      -- A list of pending transactions filtered by a review state walks the reviews of that
      -- state in the list's own order (the row's time, then its key) and joins each to its
      -- row: a page costs its own rows, however many reviews the state holds.
      CREATE INDEX reviews_by_row_time ON reviews (profile_id, kind, account_id, state, posted_at, ref);
    `,
};
