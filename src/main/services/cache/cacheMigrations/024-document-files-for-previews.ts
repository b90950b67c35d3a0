/** Cache migration 24. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 24,
  name: 'document files for previews',
  sql: `
      -- The file behind a document an applicant names (issue 24), fetched once for a preview and
      -- kept sealed like every cached record: its bytes are in body, sealed with the data key and
      -- bound to the profile and document. Only what says which file it is and how to show it
      -- stays in clear (the bank's file id, its media type and size), never a byte of it.
      CREATE TABLE document_files (
        profile_id TEXT NOT NULL,
        document_id TEXT NOT NULL,
        file_id TEXT NOT NULL,
        content_type TEXT NOT NULL,
        byte_length INTEGER NOT NULL,
        fetched_at TEXT NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (profile_id, document_id)
      );
    `,
};
