/** Cache migration 16. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 16,
  name: 'team mode: the verified mirror of the team history and the outbox',
  sql: `
      -- Team mode (src/main/services/team). The server's history is the team's record; these
      -- tables are this laptop's verified copy of it and the actions not yet pushed. Notes and
      -- reviewed records arrive and leave sealed with the team key; the columns in clear are
      -- the ones the server itself holds in clear. Dropping them loses nothing of the team's.
      CREATE TABLE team_workspaces (
        workspace TEXT PRIMARY KEY,
        login TEXT NOT NULL,
        profile_id TEXT,
        cursor_seq INTEGER NOT NULL DEFAULT 0,
        head_hash BLOB NOT NULL,
        key_version INTEGER NOT NULL DEFAULT 1,
        pulled_at TEXT
      ) STRICT;
      CREATE TABLE team_keys (
        workspace TEXT NOT NULL,
        key_version INTEGER NOT NULL,
        wrapped BLOB NOT NULL,
        PRIMARY KEY (workspace, key_version)
      ) STRICT;
      -- The officers' public keys as first seen: a key the server later swaps is noticed.
      CREATE TABLE team_officer_keys (
        workspace TEXT NOT NULL,
        role_name TEXT NOT NULL,
        display_name TEXT NOT NULL,
        sign_public BLOB NOT NULL,
        box_public BLOB NOT NULL,
        pinned_at TEXT NOT NULL,
        PRIMARY KEY (workspace, role_name)
      ) STRICT;
      CREATE TABLE team_events (
        workspace TEXT NOT NULL,
        seq INTEGER NOT NULL,
        event_id TEXT NOT NULL UNIQUE,
        officer TEXT NOT NULL,
        at TEXT NOT NULL,
        client_at TEXT NOT NULL,
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        action TEXT NOT NULL,
        disposition TEXT,
        assignee TEXT,
        base_version INTEGER,
        key_version INTEGER,
        result TEXT NOT NULL,
        detail TEXT,
        new_version INTEGER,
        new_state TEXT,
        sealed BLOB,
        signature BLOB NOT NULL,
        prev_hash BLOB NOT NULL,
        hash BLOB NOT NULL,
        PRIMARY KEY (workspace, seq)
      ) STRICT;
      CREATE INDEX team_events_by_item ON team_events (workspace, kind, ref, seq);
      CREATE TABLE team_reviews (
        workspace TEXT NOT NULL,
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        state TEXT NOT NULL,
        prior_state TEXT,
        proposed_disposition TEXT,
        proposed_by TEXT,
        proposed_at TEXT,
        approved_by TEXT,
        approved_at TEXT,
        assignee TEXT,
        version INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        PRIMARY KEY (workspace, kind, ref)
      ) STRICT;
      CREATE INDEX team_reviews_by_assignee ON team_reviews (workspace, assignee, state);
      CREATE INDEX team_reviews_by_state ON team_reviews (workspace, state);
      -- Actions made on this laptop, in order, until the server answers; a conflict or a
      -- refusal stays here (with the server's sentence) until the officer has seen it.
      CREATE TABLE team_outbox (
        position INTEGER PRIMARY KEY,
        event_id TEXT NOT NULL UNIQUE,
        workspace TEXT NOT NULL,
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        action TEXT NOT NULL,
        payload TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('queued', 'ok', 'conflict', 'refused')),
        seq INTEGER,
        detail TEXT,
        queued_at TEXT NOT NULL,
        answered_at TEXT,
        acknowledged INTEGER NOT NULL DEFAULT 0 CHECK (acknowledged IN (0, 1))
      ) STRICT;
      CREATE INDEX team_outbox_by_state ON team_outbox (workspace, state, position);
      -- The base version of a new action counts the officer's queued moves on that item.
      CREATE INDEX team_outbox_by_item ON team_outbox (workspace, kind, ref, state);
    `,
};
