/** Cache migration 6. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 6,
  name: 'webhook sends by attempt number',
  sql: `
      -- "Most retried first" pages through this index instead of sorting the whole log
      -- (half a second a page at a million sends).
      CREATE INDEX webhook_sends_by_attempt ON webhook_sends (profile_id, attempt_number, created_at, send_id);
    `,
};
