/** Cache migration 3. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 3,
  name: 'account applications by update time',
  sql: `
      -- updated_at has been in clear since migration 1 (filled for every row); this index lets
      -- the sort by last update page by keyset like the sort by creation time.
      CREATE INDEX account_applications_by_update ON account_applications (profile_id, updated_at, application_id);
    `,
};
