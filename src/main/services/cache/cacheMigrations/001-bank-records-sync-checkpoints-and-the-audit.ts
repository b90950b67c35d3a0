/** Cache migration 1. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 1,
  name: 'bank records, sync checkpoints and the audit log',
  sql: `
      CREATE TABLE cache_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

      -- One row per sync job key: where to resume, and when the data was last complete.
      CREATE TABLE sync_state (
        profile_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        scope TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'done', 'cancelled', 'failed')),
        cursor TEXT,
        generation INTEGER NOT NULL,
        fetched INTEGER NOT NULL DEFAULT 0,
        written INTEGER NOT NULL DEFAULT 0,
        started_at TEXT NOT NULL,
        checkpoint_at TEXT,
        finished_at TEXT,
        last_success_at TEXT,
        last_success_scope TEXT,
        error TEXT,
        PRIMARY KEY (profile_id, kind, key)
      ) STRICT;

      -- Pending transactions have no id: row_key is a keyed hash of the record. Rows get
      -- sequential rowids, so a bulk sync appends to the table instead of scattering writes.
      CREATE TABLE pending_transactions (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        row_key TEXT NOT NULL,
        posted_at TEXT NOT NULL,
        date TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        type TEXT,
        seen_generation INTEGER NOT NULL,
        body BLOB NOT NULL
      ) STRICT;
      -- Few indexes: each one costs every insert of a bulk sync. A type filter walks the time
      -- index (a page of one type is found within a few hundred rows).
      -- The time index is also the identity (a record's time is part of it): a sync writes it
      -- near one end, where an index on the hash alone would dirty pages all over.
      CREATE UNIQUE INDEX pending_transactions_by_time ON pending_transactions (profile_id, account_id, posted_at, row_key);
      CREATE INDEX pending_transactions_by_amount ON pending_transactions (profile_id, account_id, amount_cents, row_key);

      -- Keyed hashes of the words of desc and summary; rowid = pending_transactions.id.
      CREATE VIRTUAL TABLE pending_transaction_search USING fts5(
        tokens, content = '', contentless_delete = 1, detail = 'none', tokenize = 'ascii'
      );
      CREATE TRIGGER pending_transactions_unindex AFTER DELETE ON pending_transactions BEGIN
        DELETE FROM pending_transaction_search WHERE rowid = old.id;
      END;

      -- Sequential rowids (sends arrive newest first) keep bulk inserts local; the send id is
      -- a unique index.
      CREATE TABLE webhook_sends (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        send_id TEXT NOT NULL,
        webhook_id TEXT NOT NULL,
        object_id TEXT NOT NULL,
        event TEXT,
        status TEXT NOT NULL,
        attempt_number INTEGER NOT NULL,
        will_retry INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        body_digest TEXT NOT NULL,
        body BLOB NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX webhook_sends_identity ON webhook_sends (profile_id, send_id);
      CREATE INDEX webhook_sends_by_time ON webhook_sends (profile_id, created_at, send_id);
      CREATE INDEX webhook_sends_by_status ON webhook_sends (profile_id, status, created_at, send_id);
      CREATE INDEX webhook_sends_by_webhook ON webhook_sends (profile_id, webhook_id, created_at, send_id);
      CREATE INDEX webhook_sends_by_webhook_status ON webhook_sends (profile_id, webhook_id, status, created_at, send_id);
      CREATE INDEX webhook_sends_by_object ON webhook_sends (profile_id, object_id, created_at, send_id);

      CREATE TABLE account_applications (
        profile_id TEXT NOT NULL,
        application_id TEXT NOT NULL,
        status TEXT NOT NULL,
        ownership_type TEXT NOT NULL,
        account_product_id TEXT NOT NULL,
        account_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        body_digest TEXT NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (profile_id, application_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX account_applications_by_time ON account_applications (profile_id, created_at, application_id);
      CREATE INDEX account_applications_by_status ON account_applications (profile_id, status, created_at, application_id);

      -- Every distinct version fetched, for the status history.
      CREATE TABLE account_application_versions (
        profile_id TEXT NOT NULL,
        application_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        status TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (profile_id, application_id, version)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE webhooks (
        profile_id TEXT NOT NULL,
        webhook_id TEXT NOT NULL,
        event TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        seen_generation INTEGER NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (profile_id, webhook_id)
      ) STRICT, WITHOUT ROWID;

      -- Documents and card-art uploads made from this app.
      CREATE TABLE documents (
        profile_id TEXT NOT NULL,
        document_id TEXT NOT NULL,
        type TEXT NOT NULL,
        created_at TEXT NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (profile_id, document_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX documents_by_time ON documents (profile_id, created_at, document_id);

      CREATE TABLE card_art_uploads (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        card_product_id TEXT NOT NULL,
        asset_type TEXT NOT NULL,
        uploaded_at TEXT NOT NULL,
        body BLOB NOT NULL
      ) STRICT;
      CREATE INDEX card_art_uploads_by_time ON card_art_uploads (profile_id, uploaded_at, id);

      -- Append-only: every write the user made. Not sealed, so it survives a lost data key;
      -- it holds ids and outcomes, never a secret or a record's body.
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        profile_name TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        at TEXT NOT NULL,
        result TEXT NOT NULL CHECK (result IN ('ok', 'failed', 'refused')),
        detail TEXT
      ) STRICT;
      CREATE INDEX audit_log_by_profile ON audit_log (profile_id, id);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
        SELECT RAISE(ABORT, 'the audit log is append-only');
      END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
        SELECT RAISE(ABORT, 'the audit log is append-only');
      END;
    `,
};
