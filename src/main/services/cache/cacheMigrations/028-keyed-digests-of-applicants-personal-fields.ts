/** Cache migration 28. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 28,
  name: "keyed digests of applicants' personal fields",
  sql: `
      -- Pattern rules find applicants of different applications who share an email, a phone or
      -- an address (issue 40) without opening every sealed record: each applicant's normalised
      -- email, phone and address are kept as keyed digests (HMAC under the data key's keyed-hash
      -- key, applicantFieldDigests.ts), never in clear, written with the applicant. Applicants
      -- cached before this have none yet: the marker below asks for them to be filled once (that
      -- needs the data key, out of reach of this SQL).
      CREATE TABLE applicant_field_digests (
        profile_id TEXT NOT NULL,
        field TEXT NOT NULL CHECK (field IN ('email', 'phone', 'address')),
        digest TEXT NOT NULL,
        applicant_id TEXT NOT NULL,
        PRIMARY KEY (profile_id, field, digest, applicant_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX applicant_field_digests_by_applicant ON applicant_field_digests (profile_id, applicant_id);
      CREATE TRIGGER applicants_undigested AFTER DELETE ON applicants BEGIN
        DELETE FROM applicant_field_digests WHERE profile_id = old.profile_id AND applicant_id = old.applicant_id;
      END;
      INSERT INTO cache_meta (key, value)
        SELECT 'applicant_field_digests_pending', '1' WHERE EXISTS (SELECT 1 FROM applicants WHERE body IS NOT NULL)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value;
    `,
};
