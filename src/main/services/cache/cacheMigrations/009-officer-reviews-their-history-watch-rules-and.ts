/** Cache migration 9. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 9,
  name: 'officer reviews, their history, watch rules and the reviewer',
  sql: `
      -- One review per item (kind + ref) and profile. The state, the kind, the ref and, for a
      -- pending transaction, its account and time are in clear so the list screens can filter
      -- and count by review state with an index; the note, the reviewer, the record as reviewed
      -- and what changed since are sealed in body. A watch rule's flag has no body: only the
      -- rule's name (rule_name), since no person reviewed the item.
      CREATE TABLE reviews (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('pending-transaction', 'application', 'webhook-send')),
        ref TEXT NOT NULL,
        account_id TEXT,
        posted_at TEXT,
        state TEXT NOT NULL CHECK (state IN ('cleared', 'flagged', 'escalated', 'changed')),
        rule_name TEXT,
        record_digest TEXT,
        version INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        body BLOB
      ) STRICT;
      CREATE UNIQUE INDEX reviews_identity ON reviews (profile_id, kind, ref);
      CREATE INDEX reviews_by_state ON reviews (profile_id, kind, state, updated_at, id);
      CREATE INDEX reviews_by_time ON reviews (profile_id, updated_at, id);

      -- Every disposition, change and rule flag, in order (version 1, 2, …) per item.
      CREATE TABLE review_history (
        profile_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        version INTEGER NOT NULL,
        at TEXT NOT NULL,
        state TEXT NOT NULL,
        rule_name TEXT,
        body BLOB,
        PRIMARY KEY (profile_id, kind, ref, version)
      ) STRICT, WITHOUT ROWID;

      -- Watch rules, per profile: the conditions are sealed (they may name customers).
      CREATE TABLE watch_rules (
        profile_id TEXT NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        created_at TEXT NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (profile_id, name)
      ) STRICT, WITHOUT ROWID;

      -- The reviewer's name (the OS user name until changed in Settings), and other settings.
      CREATE TABLE review_settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `,
};
