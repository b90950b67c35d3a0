/** Cache migration 10. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 10,
  name: 'sync windows',
  sql: `
      -- A sync walking disjoint date windows side by side keeps one cursor per window, each
      -- advanced in the transaction that wrote the window's page (sync/windowedPages.ts).
      -- from_date/to_date NULL: the window is open on that side.
      CREATE TABLE sync_windows (
        profile_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        window_index INTEGER NOT NULL,
        from_date TEXT,
        to_date TEXT,
        -- For the ETA: the share of the job's records the planner expects here, and the days
        -- the window spans (its open ends taken at the oldest and newest records known).
        weight REAL NOT NULL,
        span_from TEXT NOT NULL,
        span_to TEXT NOT NULL,
        cursor TEXT,
        done INTEGER NOT NULL DEFAULT 0,
        fetched INTEGER NOT NULL DEFAULT 0,
        written INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (profile_id, kind, key, window_index)
      ) STRICT;
      -- A job's windows go with its checkpoint (profile removed, data key changed).
      CREATE TRIGGER sync_state_windows_forgotten AFTER DELETE ON sync_state BEGIN
        DELETE FROM sync_windows WHERE profile_id = old.profile_id AND kind = old.kind AND key = old.key;
      END;
    `,
};
