/** Cache migration 31. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 31,
  name: 'kept figures of new pending transactions added a page at a time',
  sql: `
      -- Three triggers a row (the account's count, the day's sums, the amount band's count)
      -- made a sync's writer ~3x slower: ~60 µs of its ~100 µs a record (issue 36). The cache
      -- writer now adds a page's new rows to the same figures with one statement each, in the
      -- page's transaction (keptCounts.ts, PENDING_TALLIES), so the figures never lag the
      -- rows. Deletes and updates keep their triggers: they are rare, and a sweep is small.
      DROP TRIGGER pending_transactions_counted;
      DROP TRIGGER pending_transactions_counted_by_day;
      DROP TRIGGER pending_transactions_banded;
    `,
};
