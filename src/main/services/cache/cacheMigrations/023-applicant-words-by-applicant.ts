/** Cache migration 23. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 23,
  name: 'applicant words by applicant',
  sql: `
      -- Rewriting an applicant drops its old words first (and a dropped applicant's go by
      -- trigger), by profile and applicant: the primary key leads with the token, so each such
      -- delete read every word of the profile, and a book sync of 24,000 records slowed as the
      -- cache grew (12,000 records in 51 s, 24,000 in 126-166 s). This index makes each one a
      -- lookup.
      CREATE INDEX applicant_words_by_applicant ON applicant_words (profile_id, applicant_id);
    `,
};
