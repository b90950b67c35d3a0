/** Record migration 1. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 1,
  name: "the officer's record, as the cache held it",
  sql: `
      -- The record's identity and its key check (recordStore.ts), and what was copied in from
      -- the cache file of a data folder made before the record had its own file (recordCopy.ts).
      CREATE TABLE record_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

      -- What only the officer made, in the shapes the cache held it at cache migration 31, so a
      -- data folder made before is copied in row for row: reviews with their history and
      -- counts, watch rules and their sealed names, review settings, the audit log, the team
      -- outbox and the notices acknowledged.
      -- table reviews
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
            , row_listed INTEGER NOT NULL DEFAULT 1 CHECK (row_listed IN (0, 1)), row_mac TEXT) STRICT;

      -- table review_history
      CREATE TABLE review_history (
              profile_id TEXT NOT NULL,
              kind TEXT NOT NULL,
              ref TEXT NOT NULL,
              version INTEGER NOT NULL,
              at TEXT NOT NULL,
              state TEXT NOT NULL,
              rule_name TEXT,
              body BLOB, row_mac TEXT,
              PRIMARY KEY (profile_id, kind, ref, version)
            ) STRICT, WITHOUT ROWID;

      -- table review_counts
      CREATE TABLE review_counts (
              profile_id TEXT NOT NULL,
              kind TEXT NOT NULL,
              account_key TEXT NOT NULL,
              state TEXT NOT NULL,
              by_rule INTEGER NOT NULL,
              row_listed INTEGER NOT NULL,
              total INTEGER NOT NULL,
              PRIMARY KEY (profile_id, kind, account_key, state, by_rule, row_listed)
            ) STRICT, WITHOUT ROWID;

      -- table review_days
      CREATE TABLE review_days (
              profile_id TEXT NOT NULL,
              date TEXT NOT NULL,
              state TEXT NOT NULL,
              n INTEGER NOT NULL,
              PRIMARY KEY (profile_id, date, state)
            ) STRICT, WITHOUT ROWID;

      -- table review_settings
      CREATE TABLE review_settings (
              name TEXT PRIMARY KEY,
              value TEXT NOT NULL
            ) STRICT;

      -- table watch_rules
      CREATE TABLE watch_rules (
              profile_id TEXT NOT NULL,
              name TEXT NOT NULL,
              kind TEXT NOT NULL,
              created_at TEXT NOT NULL,
              body BLOB NOT NULL, row_mac TEXT,
              PRIMARY KEY (profile_id, name)
            ) STRICT, WITHOUT ROWID;

      -- table watch_rule_names
      CREATE TABLE watch_rule_names (
              profile_id TEXT NOT NULL,
              ref TEXT NOT NULL,
              name BLOB NOT NULL,
              PRIMARY KEY (profile_id, ref)
            ) STRICT, WITHOUT ROWID;

      -- table audit_log
      CREATE TABLE audit_log (
              id INTEGER PRIMARY KEY,
              profile_id TEXT NOT NULL,
              profile_name TEXT NOT NULL,
              action TEXT NOT NULL,
              target TEXT NOT NULL,
              at TEXT NOT NULL,
              result TEXT NOT NULL CHECK (result IN ('ok', 'failed', 'refused')),
              detail TEXT
            , mac BLOB CHECK (mac IS NULL OR length(mac) = 32), actor TEXT) STRICT;

      -- table team_outbox
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

      -- table team_acknowledged
      CREATE TABLE team_acknowledged (
              workspace TEXT NOT NULL,
              login TEXT NOT NULL,
              sign_public BLOB NOT NULL,
              acknowledged_at TEXT NOT NULL,
              PRIMARY KEY (workspace, login)
            ) STRICT;

      -- index reviews_by_listed_state
      CREATE INDEX reviews_by_listed_state ON reviews (profile_id, kind, account_id, row_listed, state);

      -- index reviews_by_queue_part
      CREATE INDEX reviews_by_queue_part ON reviews (profile_id, kind, state, account_id, rule_name);

      -- index reviews_by_row_time
      CREATE INDEX reviews_by_row_time ON reviews (profile_id, kind, account_id, state, posted_at, ref);

      -- index reviews_by_state
      CREATE INDEX reviews_by_state ON reviews (profile_id, kind, state, updated_at, id);

      -- index reviews_by_time
      CREATE INDEX reviews_by_time ON reviews (profile_id, updated_at, id);

      -- index reviews_flagged_by_person
      CREATE INDEX reviews_flagged_by_person ON reviews (profile_id, kind, state, updated_at, id)
              WHERE rule_name IS NULL;

      -- index reviews_flagged_by_rule
      CREATE INDEX reviews_flagged_by_rule ON reviews (profile_id, kind, state, updated_at, id)
              WHERE rule_name IS NOT NULL;

      -- index reviews_identity
      CREATE UNIQUE INDEX reviews_identity ON reviews (profile_id, kind, ref);

      -- index audit_log_by_profile
      CREATE INDEX audit_log_by_profile ON audit_log (profile_id, id);

      -- index audit_log_review_items
      CREATE INDEX audit_log_review_items ON audit_log (profile_id, target, id)
              WHERE action IN ('review.cleared', 'review.flagged', 'review.escalated', 'review.changed');

      -- index audit_log_review_resets
      CREATE INDEX audit_log_review_resets ON audit_log (action, profile_id, id)
              WHERE action IN ('reviews.drop', 'cache.clear', 'cache.data-key-reset');

      -- index team_outbox_by_item
      CREATE INDEX team_outbox_by_item ON team_outbox (workspace, kind, ref, state);

      -- index team_outbox_by_state
      CREATE INDEX team_outbox_by_state ON team_outbox (workspace, state, position);

      -- trigger reviews_counted
      CREATE TRIGGER reviews_counted AFTER INSERT ON reviews BEGIN
              INSERT INTO review_counts (profile_id, kind, account_key, state, by_rule, row_listed, total)
                VALUES (new.profile_id, new.kind, coalesce(new.account_id, ''), new.state, new.rule_name IS NOT NULL,
                  new.row_listed, 1)
                ON CONFLICT DO UPDATE SET total = total + 1;
            END;

      -- trigger reviews_recounted
      CREATE TRIGGER reviews_recounted
              AFTER UPDATE OF profile_id, kind, account_id, state, rule_name, row_listed ON reviews BEGIN
              UPDATE review_counts SET total = total - 1
                WHERE profile_id = old.profile_id AND kind = old.kind AND account_key = coalesce(old.account_id, '')
                  AND state = old.state AND by_rule = (old.rule_name IS NOT NULL) AND row_listed = old.row_listed;
              INSERT INTO review_counts (profile_id, kind, account_key, state, by_rule, row_listed, total)
                VALUES (new.profile_id, new.kind, coalesce(new.account_id, ''), new.state, new.rule_name IS NOT NULL,
                  new.row_listed, 1)
                ON CONFLICT DO UPDATE SET total = total + 1;
            END;

      -- trigger reviews_uncounted
      CREATE TRIGGER reviews_uncounted AFTER DELETE ON reviews BEGIN
              UPDATE review_counts SET total = total - 1
                WHERE profile_id = old.profile_id AND kind = old.kind AND account_key = coalesce(old.account_id, '')
                  AND state = old.state AND by_rule = (old.rule_name IS NOT NULL) AND row_listed = old.row_listed;
            END;

      -- trigger review_history_day_counted
      CREATE TRIGGER review_history_day_counted AFTER INSERT ON review_history
              WHEN new.rule_name IS NULL AND new.state IN ('cleared', 'flagged', 'escalated') BEGIN
              INSERT INTO review_days (profile_id, date, state, n)
                VALUES (new.profile_id, substr(new.at, 1, 10), new.state, 1)
                ON CONFLICT DO UPDATE SET n = n + 1;
            END;

      -- trigger review_history_day_uncounted
      CREATE TRIGGER review_history_day_uncounted AFTER DELETE ON review_history
              WHEN old.rule_name IS NULL AND old.state IN ('cleared', 'flagged', 'escalated') BEGIN
              UPDATE review_days SET n = n - 1
                WHERE profile_id = old.profile_id AND date = substr(old.at, 1, 10) AND state = old.state;
            END;

      -- trigger audit_log_no_delete
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
              SELECT RAISE(ABORT, 'the audit log is append-only');
            END;

      -- trigger audit_log_no_update
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
              WHEN old.mac IS NOT NULL OR new.mac IS NULL OR new.id IS NOT old.id
                OR new.profile_id IS NOT old.profile_id OR new.profile_name IS NOT old.profile_name
                OR new.action IS NOT old.action OR new.target IS NOT old.target OR new.at IS NOT old.at
                OR new.result IS NOT old.result OR new.detail IS NOT old.detail OR new.actor IS NOT old.actor
            BEGIN
              SELECT RAISE(ABORT, 'the audit log is append-only');
            END;
  `,
};
