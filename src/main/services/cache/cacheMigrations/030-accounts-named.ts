/** Cache migration 30. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 30,
  name: 'accounts named',
  sql: `
      -- The bank's accounts as last listed (issue 38: names first, ids second): each account's
      -- record sealed, so the queue, the Overview and the report name an account ("Card
      -- settlement ••0880") offline, from the cache, instead of showing its id.
      CREATE TABLE accounts (
        profile_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (profile_id, account_id)
      ) STRICT;
    `,
};
