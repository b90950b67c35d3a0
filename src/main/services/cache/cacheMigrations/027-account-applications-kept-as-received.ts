/** Cache migration 27. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 27,
  name: 'account applications kept as received',
  sql: `
      -- An application the bank sent malformed (a status this client does not know, a field of
      -- the wrong type) is kept as received instead of failing its page and the book sync with
      -- it (issue 24): body holds it as it came, and problem names what is wrong with it (field
      -- names and rules, never a value), NULL for a well-formed application.
      ALTER TABLE account_applications ADD COLUMN problem TEXT;
    `,
};
