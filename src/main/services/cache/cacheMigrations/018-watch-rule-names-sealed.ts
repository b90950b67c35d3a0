/** Cache migration 18. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 18,
  name: 'watch-rule names sealed',
  sql: `
      -- A rule's name may name a customer (security review of 3b75e6a, N10): watch_rules.name,
      -- reviews.rule_name and review_history.rule_name hold a keyed reference to it
      -- (cache/ruleNames.ts; the names of earlier versions are turned into references on the
      -- first open, which needs the data key), and the name is kept here, sealed under its
      -- reference. Kept after the rule is removed: the flags it raised still name it.
      CREATE TABLE watch_rule_names (
        profile_id TEXT NOT NULL,
        ref TEXT NOT NULL,
        name BLOB NOT NULL,
        PRIMARY KEY (profile_id, ref)
      ) STRICT, WITHOUT ROWID;
    `,
};
