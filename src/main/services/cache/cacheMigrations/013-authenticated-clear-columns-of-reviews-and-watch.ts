/** Cache migration 13. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 13,
  name: 'authenticated clear columns of reviews and watch rules',
  sql: `
      -- A MAC over every clear column the app reads and the sealed body's tag (cache/rowMacs.ts),
      -- under a key derived from the data key: a state, rule, version or time changed in the
      -- file is found when read and by audit verify. Filled for earlier rows on the first open.
      ALTER TABLE reviews ADD COLUMN row_mac TEXT;
      ALTER TABLE review_history ADD COLUMN row_mac TEXT;
      ALTER TABLE watch_rules ADD COLUMN row_mac TEXT;
    `,
};
