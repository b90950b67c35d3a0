/** Bank-compat migration 2. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 2,
  name: 'drift counts of malformed records',
  sql: `
      -- A person or business application that does not fit its schema is kept as received
      -- (issue 24); the ledger counts, per field, the records that carried it malformed.
      -- SQLite cannot widen a CHECK in place: the table is rebuilt with its rows.
      CREATE TABLE bank_drift_next (
        profile_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('read', 'missing', 'unknown', 'malformed')),
        field TEXT NOT NULL,
        count INTEGER NOT NULL,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        PRIMARY KEY (profile_id, resource, kind, field)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO bank_drift_next SELECT profile_id, resource, kind, field, count, first_seen, last_seen FROM bank_drift;
      DROP TABLE bank_drift;
      ALTER TABLE bank_drift_next RENAME TO bank_drift;
    `,
};
