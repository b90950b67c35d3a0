/** Cache migration 21. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 21,
  name: 'flags of a person and of a rule in separate indexes',
  sql: `
      -- The queue's "flagged by a person" and "flagged by a rule" parts list the flagged reviews
      -- most recently moved first, one of them without the other. reviews_by_state holds both
      -- kinds of flags in one range, so a page of a person's flags stepped over every rule flag
      -- raised after them (a rule flags thousands at once, after each sync): 19,706 of them in
      -- the benchmark. Each part now has its own range.
      CREATE INDEX reviews_flagged_by_person ON reviews (profile_id, kind, state, updated_at, id)
        WHERE rule_name IS NULL;
      CREATE INDEX reviews_flagged_by_rule ON reviews (profile_id, kind, state, updated_at, id)
        WHERE rule_name IS NOT NULL;
    `,
};
