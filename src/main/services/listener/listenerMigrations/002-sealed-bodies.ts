/** Listener migration 2. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 2,
  name: 'sealed bodies',
  sql: `
      -- Whether body holds the raw bytes or them sealed (both are BLOBs). The text columns
      -- that may be sealed (headers, query, notification, snapshot, excerpt) tell by their
      -- type: a sealed value is a BLOB, a clear one TEXT.
      ALTER TABLE listener_requests ADD COLUMN body_sealed INTEGER NOT NULL DEFAULT 0;
    `,
};
