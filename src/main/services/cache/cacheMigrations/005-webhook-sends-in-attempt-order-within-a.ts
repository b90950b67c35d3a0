/** Cache migration 5. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 5,
  name: 'webhook sends in attempt order within a second',
  sql: `
      -- created_at has second precision, so retries made within a second tied on it and came
      -- out in send-id order (random). Attempt numbers order the attempts of one notification:
      -- each time index now breaks ties by attempt number before the send id.
      DROP INDEX webhook_sends_by_time;
      DROP INDEX webhook_sends_by_status;
      DROP INDEX webhook_sends_by_webhook;
      DROP INDEX webhook_sends_by_webhook_status;
      DROP INDEX webhook_sends_by_object;
      CREATE INDEX webhook_sends_by_time ON webhook_sends (profile_id, created_at, attempt_number, send_id);
      CREATE INDEX webhook_sends_by_status ON webhook_sends (profile_id, status, created_at, attempt_number, send_id);
      CREATE INDEX webhook_sends_by_webhook ON webhook_sends (profile_id, webhook_id, created_at, attempt_number, send_id);
      CREATE INDEX webhook_sends_by_webhook_status
        ON webhook_sends (profile_id, webhook_id, status, created_at, attempt_number, send_id);
      CREATE INDEX webhook_sends_by_object ON webhook_sends (profile_id, object_id, created_at, attempt_number, send_id);
    `,
};
