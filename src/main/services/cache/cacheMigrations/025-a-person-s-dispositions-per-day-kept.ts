/** Cache migration 25. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 25,
  name: "a person's dispositions per day, kept with the history",
  sql: `
      -- The Overview's "dispositions per day over the last 30 days" walked the profile's review
      -- history at each read (every step of the window: 16,000 in the benchmark, growing with
      -- the officer's work). Kept here instead, per profile, UTC date and disposition, by
      -- triggers in the transaction of the history's own write; a person's steps only (a rule's
      -- flags and "changed since review" are no one's work). History rows are only inserted and
      -- deleted (a profile's reviews dropped, the data key reset), never updated.
      CREATE TABLE review_days (
        profile_id TEXT NOT NULL,
        date TEXT NOT NULL,
        state TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (profile_id, date, state)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO review_days (profile_id, date, state, n)
        SELECT profile_id, substr(at, 1, 10), state, count(*) FROM review_history
        WHERE rule_name IS NULL AND state IN ('cleared', 'flagged', 'escalated')
        GROUP BY 1, 2, 3;
      CREATE TRIGGER review_history_day_counted AFTER INSERT ON review_history
        WHEN new.rule_name IS NULL AND new.state IN ('cleared', 'flagged', 'escalated') BEGIN
        INSERT INTO review_days (profile_id, date, state, n)
          VALUES (new.profile_id, substr(new.at, 1, 10), new.state, 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER review_history_day_uncounted AFTER DELETE ON review_history
        WHEN old.rule_name IS NULL AND old.state IN ('cleared', 'flagged', 'escalated') BEGIN
        UPDATE review_days SET n = n - 1
          WHERE profile_id = old.profile_id AND date = substr(old.at, 1, 10) AND state = old.state;
      END;
    `,
};
