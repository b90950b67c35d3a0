/** Cache migration 7. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 7,
  name: 'webhook sends still retrying',
  sql: `
      -- "Still retrying" in a log of mostly delivered attempts: a partial index holds only the
      -- retrying ones (few), so that filter no longer walks the whole log.
      CREATE INDEX webhook_sends_retrying ON webhook_sends (profile_id, created_at, attempt_number, send_id)
        WHERE will_retry = 1;
    `,
};
