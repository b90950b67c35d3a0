/** Cache migration 14. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 14,
  name: 'who acted, in the audit log',
  sql: `
      -- The actor of each entry (audit/actor.ts): app instance or command line, OS user,
      -- reviewer. Covered by the entry's MAC (audit/auditChain.ts, v2 encoding); NULL in
      -- entries written before. The one UPDATE the log allows stays "set a missing MAC".
      ALTER TABLE audit_log ADD COLUMN actor TEXT;
      DROP TRIGGER audit_log_no_update;
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        WHEN old.mac IS NOT NULL OR new.mac IS NULL OR new.id IS NOT old.id
          OR new.profile_id IS NOT old.profile_id OR new.profile_name IS NOT old.profile_name
          OR new.action IS NOT old.action OR new.target IS NOT old.target OR new.at IS NOT old.at
          OR new.result IS NOT old.result OR new.detail IS NOT old.detail OR new.actor IS NOT old.actor
      BEGIN
        SELECT RAISE(ABORT, 'the audit log is append-only');
      END;
    `,
};
