/** Cache migration 8. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 8,
  name: 'the audit log as a hash chain',
  sql: `
      -- Each entry's MAC: HMAC-SHA256(chain key, previous MAC || canonical entry bytes), see
      -- audit/auditChain.ts. Entries written before this have none until the first open chains
      -- them (the key lives in the keychain, out of reach of this SQL), so the one UPDATE the
      -- log still allows is setting a MAC where there is none, and nothing else.
      ALTER TABLE audit_log ADD COLUMN mac BLOB CHECK (mac IS NULL OR length(mac) = 32);
      DROP TRIGGER audit_log_no_update;
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        WHEN old.mac IS NOT NULL OR new.mac IS NULL OR new.id IS NOT old.id
          OR new.profile_id IS NOT old.profile_id OR new.profile_name IS NOT old.profile_name
          OR new.action IS NOT old.action OR new.target IS NOT old.target OR new.at IS NOT old.at
          OR new.result IS NOT old.result OR new.detail IS NOT old.detail
      BEGIN
        SELECT RAISE(ABORT, 'the audit log is append-only');
      END;
    `,
};
