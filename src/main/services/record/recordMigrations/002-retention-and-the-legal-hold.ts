/** Record migration 2. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 2,
  name: 'retention per profile and the legal hold',
  sql: `
      -- How many years after its review a profile's reviews are kept (issue 34, item 5). No row
      -- means the default: five years, as BSA record-keeping asks (FFIEC BSA/AML Manual, App. P).
      CREATE TABLE record_retention (
        profile_id TEXT PRIMARY KEY,
        years INTEGER NOT NULL CHECK (years BETWEEN 1 AND 100),
        updated_at TEXT NOT NULL
      ) STRICT;

      -- The legal hold: while its one row is there, nothing of the record is purged.
      CREATE TABLE record_hold (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        reason TEXT NOT NULL,
        placed_at TEXT NOT NULL
      ) STRICT;
  `,
};
