/** Cache migration 29. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 29,
  name: 'team mode: reviews as the rules decide them, the history root, acknowledged members',
  sql: `
      -- Issue 35: each laptop re-decides every team event by the team's rules, so a review keeps
      -- what the next decision needs (the last move, by whom, of what, and the proposal an
      -- approval must name). Rows of earlier builds are rebuilt from the verified events when the
      -- workspace is next opened (rules_version 0 -> 1) and re-decided at the next pull (-> 2);
      -- nothing of the officer's own is touched (the outbox, keys, pins, anchor stay).
      ALTER TABLE team_reviews ADD COLUMN last_action TEXT;
      ALTER TABLE team_reviews ADD COLUMN last_by TEXT;
      ALTER TABLE team_reviews ADD COLUMN last_disposition TEXT;
      ALTER TABLE team_reviews ADD COLUMN proposal_hash TEXT;
      ALTER TABLE team_workspaces ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 0;
      -- The first event of the history, as the invite named it: a server that shows another is refused.
      ALTER TABLE team_workspaces ADD COLUMN root_hash BLOB;
      -- Who the server said leads, pinned with the key (histories from before the roster only).
      ALTER TABLE team_officer_keys ADD COLUMN role TEXT;
      -- Members this officer acknowledged after comparing fingerprints (and the key compared).
      CREATE TABLE team_acknowledged (
        workspace TEXT NOT NULL,
        login TEXT NOT NULL,
        sign_public BLOB NOT NULL,
        acknowledged_at TEXT NOT NULL,
        PRIMARY KEY (workspace, login)
      ) STRICT;
    `,
};
