/** Cache migration 17. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 17,
  name: 'reviews counted by part of the queue',
  sql: `
      -- The officer's queue counts reviews by kind, state, who flagged (a person or a rule) and
      -- account in one grouped read; this index holds every column it reads, so the count is
      -- one walk of an index instead of a lookup of each review's row.
      CREATE INDEX reviews_by_queue_part ON reviews (profile_id, kind, state, account_id, rule_name);
    `,
};
