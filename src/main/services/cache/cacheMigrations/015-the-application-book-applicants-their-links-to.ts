/** Cache migration 15. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 15,
  name: 'the application book: applicants, their links to applications, their search words',
  sql: `
      -- Every person and business application an account application names, kept once per
      -- profile however many applications name it. The record is sealed as received (a
      -- malformed one too, with the names of its faulty fields in problem, never a value);
      -- one the bank did not return (404) is a row with no body, state 'not-returned'.
      CREATE TABLE applicants (
        profile_id TEXT NOT NULL,
        applicant_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('person', 'business')),
        state TEXT NOT NULL CHECK (state IN ('received', 'malformed', 'not-returned')),
        problem TEXT,
        created_at TEXT,
        updated_at TEXT,
        fetched_at TEXT NOT NULL,
        body_digest TEXT,
        body BLOB,
        PRIMARY KEY (profile_id, applicant_id)
      ) STRICT, WITHOUT ROWID;

      -- Who each application names, with their roles (owner, signer, control_person: the
      -- bank's words, no personal data), both ways.
      CREATE TABLE application_applicants (
        profile_id TEXT NOT NULL,
        application_id TEXT NOT NULL,
        applicant_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('person', 'business')),
        roles TEXT NOT NULL,
        PRIMARY KEY (profile_id, application_id, applicant_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX application_applicants_by_applicant ON application_applicants (profile_id, applicant_id, application_id);

      -- Keyed hashes of an applicant's name, email and business name words (searchTokens.ts):
      -- finding an application by its applicant opens no sealed record.
      CREATE TABLE applicant_words (
        profile_id TEXT NOT NULL,
        token TEXT NOT NULL,
        applicant_id TEXT NOT NULL,
        PRIMARY KEY (profile_id, token, applicant_id)
      ) STRICT, WITHOUT ROWID;
      CREATE TRIGGER applicants_unindexed AFTER DELETE ON applicants BEGIN
        DELETE FROM applicant_words WHERE profile_id = old.profile_id AND applicant_id = old.applicant_id;
      END;
    `,
};
