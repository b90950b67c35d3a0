/** Cache migration 32. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 32,
  name: "the officer's record moved to record.sqlite",
  sql: `
      -- Run only once record.sqlite holds the copy (offlineCache.ts: the copy is marked done in
      -- the record in its own transaction first), so what is dropped here is a second copy.
      -- From now on the record's tables are found in the attached schema "record" by the same
      -- unqualified names, which is why none of them may stay in main.
      -- The one trigger across the stores is made again at each open as a TEMP trigger
      -- (record/recordAttach.ts): a trigger of main cannot name another schema's tables.
      DROP TRIGGER pending_transaction_review_unlisted;
      DROP TABLE reviews;
      DROP TABLE review_history;
      DROP TABLE review_counts;
      DROP TABLE review_days;
      DROP TABLE review_settings;
      DROP TABLE watch_rules;
      DROP TABLE watch_rule_names;
      DROP TABLE audit_log;
      DROP TABLE team_outbox;
      DROP TABLE team_acknowledged;
  `,
};
