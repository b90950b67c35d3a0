/** Bank-compat migration 3. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 3,
  name: 'drift names dropped to keep the ledger bounded',
  sql: `
      -- The ledger keeps at most so many field names per profile and resource, and so many
      -- bytes of names per profile (security review of 3b75e6a, I8: drift/driftLedger.ts);
      -- the oldest go first, and a 'dropped' row (field '') counts the names let go, so the
      -- report says it. SQLite cannot widen a CHECK in place: the table is rebuilt.
      CREATE TABLE bank_drift_next (
        profile_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('read', 'missing', 'unknown', 'malformed', 'dropped')),
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
