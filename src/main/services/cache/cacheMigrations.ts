/**
 * The cache's tables. Every bank record's body is a sealed BLOB (sealing.ts); the columns
 * beside it are the ones reads filter and sort on, kept in clear so SQLite can index them:
 * ids, statuses, types, dates and amounts. Descriptions, names, URLs, userdata and every
 * other field stay sealed. Text search uses keyed token hashes, never the words (searchTokens.ts).
 */
import type { Migration } from './migrations.ts';

export const CACHE_MIGRATIONS_TABLE = 'cache_migrations';

export const CACHE_MIGRATIONS: readonly Migration[] = [
  {
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
  },
  {
    version: 2,
    name: 'type_source of pending transactions, for filtering',
    sql: `
      -- type_source lives in the sealed body. Filtering on it in SQL needs it in clear beside
      -- the row: one facet row per pending transaction, keyed by its rowid, filled after the
      -- rows are written (pendingTransactionFacets.ts), so the sync's insert path is unchanged.
      -- A missing facet row means "not indexed yet"; type_source NULL means the bank sent null.
      CREATE TABLE pending_transaction_facets (
        id INTEGER PRIMARY KEY,
        type_source TEXT
      ) STRICT;
      CREATE TRIGGER pending_transactions_unfacet AFTER DELETE ON pending_transactions BEGIN
        DELETE FROM pending_transaction_facets WHERE id = old.id;
      END;
    `,
  },
  {
    version: 3,
    name: 'account applications by update time',
    sql: `
      -- updated_at has been in clear since migration 1 (filled for every row); this index lets
      -- the sort by last update page by keyset like the sort by creation time.
      CREATE INDEX account_applications_by_update ON account_applications (profile_id, updated_at, application_id);
    `,
  },
  {
    version: 4,
    name: 'pending transactions by scope, with record digests as row keys',
    sql: `
      -- A bulk sync's cost is mostly the index entries of each row. Keying the rows by a small
      -- integer scope (one per profile and account) instead of two text columns shrinks both
      -- index keys from ~70 bytes to a few, which cuts the writer's work per row by about a
      -- quarter. Row keys are now record digests (sealing.ts), so rows cached by earlier
      -- builds could not be matched again: they are dropped with their checkpoints, and the
      -- next sync of each account fetches them afresh (the bank has them all).
      DROP TRIGGER pending_transactions_unindex;
      DROP TRIGGER pending_transactions_unfacet;
      DROP TABLE pending_transaction_search;
      DROP TABLE pending_transaction_facets;
      DROP TABLE pending_transactions;
      DELETE FROM sync_state WHERE kind = 'pending-transactions';

      CREATE TABLE pending_transaction_scopes (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        UNIQUE (profile_id, account_id)
      ) STRICT;
      -- scope is not declared a foreign key: with foreign_keys on, that would add a lookup to
      -- every insert of a sync. Scopes are removed only with their profile (dropProfile).
      CREATE TABLE pending_transactions (
        id INTEGER PRIMARY KEY,
        scope INTEGER NOT NULL,
        row_key TEXT NOT NULL,
        posted_at TEXT NOT NULL,
        date TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        type TEXT,
        type_source TEXT,
        seen_generation INTEGER NOT NULL,
        body BLOB NOT NULL
      ) STRICT;
      -- type_source (the rail: card, ach, wire…) is in clear beside type, written with the row:
      -- it replaces migration 2's facet table, which was filled lazily by opening the rows.
      -- The time index is also the identity (a record's time is part of it): a sync writes it
      -- near one end. The amount index breaks ties by rowid, which every index entry holds.
      CREATE UNIQUE INDEX pending_transactions_by_time ON pending_transactions (scope, posted_at, row_key);
      CREATE INDEX pending_transactions_by_amount ON pending_transactions (scope, amount_cents);

      CREATE VIRTUAL TABLE pending_transaction_search USING fts5(
        tokens, content = '', contentless_delete = 1, detail = 'none', tokenize = 'ascii'
      );
      CREATE TRIGGER pending_transactions_unindex AFTER DELETE ON pending_transactions BEGIN
        DELETE FROM pending_transaction_search WHERE rowid = old.id;
      END;
    `,
  },
  {
    version: 5,
    name: 'webhook sends in attempt order within a second',
    sql: `
      -- created_at has second precision, so retries made within a second tied on it and came
      -- out in send-id order (random). Attempt numbers order the attempts of one notification:
      -- each time index now breaks ties by attempt number before the send id.
      DROP INDEX webhook_sends_by_time;
      DROP INDEX webhook_sends_by_status;
      DROP INDEX webhook_sends_by_webhook;
      DROP INDEX webhook_sends_by_webhook_status;
      DROP INDEX webhook_sends_by_object;
      CREATE INDEX webhook_sends_by_time ON webhook_sends (profile_id, created_at, attempt_number, send_id);
      CREATE INDEX webhook_sends_by_status ON webhook_sends (profile_id, status, created_at, attempt_number, send_id);
      CREATE INDEX webhook_sends_by_webhook ON webhook_sends (profile_id, webhook_id, created_at, attempt_number, send_id);
      CREATE INDEX webhook_sends_by_webhook_status
        ON webhook_sends (profile_id, webhook_id, status, created_at, attempt_number, send_id);
      CREATE INDEX webhook_sends_by_object ON webhook_sends (profile_id, object_id, created_at, attempt_number, send_id);
    `,
  },
  {
    version: 6,
    name: 'webhook sends by attempt number',
    sql: `
      -- "Most retried first" pages through this index instead of sorting the whole log
      -- (half a second a page at a million sends).
      CREATE INDEX webhook_sends_by_attempt ON webhook_sends (profile_id, attempt_number, created_at, send_id);
    `,
  },
  {
    version: 7,
    name: 'webhook sends still retrying',
    sql: `
      -- "Still retrying" in a log of mostly delivered attempts: a partial index holds only the
      -- retrying ones (few), so that filter no longer walks the whole log.
      CREATE INDEX webhook_sends_retrying ON webhook_sends (profile_id, created_at, attempt_number, send_id)
        WHERE will_retry = 1;
    `,
  },
  {
    version: 8,
    name: 'the audit log as a hash chain',
    sql: `
      -- Each entry's MAC: HMAC-SHA256(chain key, previous MAC || canonical entry bytes), see
      -- audit/auditChain.ts. Entries written before this have none until the first open chains
      -- them (the key lives in the keychain, out of reach of this SQL), so the one UPDATE the
      -- log still allows is setting a MAC where there is none, and nothing else.
      ALTER TABLE audit_log ADD COLUMN mac BLOB CHECK (mac IS NULL OR length(mac) = 32);
      DROP TRIGGER audit_log_no_update;
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        WHEN old.mac IS NOT NULL OR new.mac IS NULL OR new.id IS NOT old.id
          OR new.profile_id IS NOT old.profile_id OR new.profile_name IS NOT old.profile_name
          OR new.action IS NOT old.action OR new.target IS NOT old.target OR new.at IS NOT old.at
          OR new.result IS NOT old.result OR new.detail IS NOT old.detail
      BEGIN
        SELECT RAISE(ABORT, 'the audit log is append-only');
      END;
    `,
  },
  {
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
  },
  {
    version: 10,
    name: 'sync windows',
    sql: `
      -- A sync walking disjoint date windows side by side keeps one cursor per window, each
      -- advanced in the transaction that wrote the window's page (sync/windowedPages.ts).
      -- from_date/to_date NULL: the window is open on that side.
      CREATE TABLE sync_windows (
        profile_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        key TEXT NOT NULL,
        window_index INTEGER NOT NULL,
        from_date TEXT,
        to_date TEXT,
        -- For the ETA: the share of the job's records the planner expects here, and the days
        -- the window spans (its open ends taken at the oldest and newest records known).
        weight REAL NOT NULL,
        span_from TEXT NOT NULL,
        span_to TEXT NOT NULL,
        cursor TEXT,
        done INTEGER NOT NULL DEFAULT 0,
        fetched INTEGER NOT NULL DEFAULT 0,
        written INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (profile_id, kind, key, window_index)
      ) STRICT;
      -- A job's windows go with its checkpoint (profile removed, data key changed).
      CREATE TRIGGER sync_state_windows_forgotten AFTER DELETE ON sync_state BEGIN
        DELETE FROM sync_windows WHERE profile_id = old.profile_id AND kind = old.kind AND key = old.key;
      END;
    `,
  },
  {
    version: 11,
    name: 'reviews in the order of their rows',
    sql: `
      -- A list of pending transactions filtered by a review state walks the reviews of that
      -- state in the list's own order (the row's time, then its key) and joins each to its
      -- row: a page costs its own rows, however many reviews the state holds.
      CREATE INDEX reviews_by_row_time ON reviews (profile_id, kind, account_id, state, posted_at, ref);
    `,
  },
  {
    version: 12,
    name: 'reviews that know whether their row is cached',
    sql: `
      -- A pending transaction's review outlives its row (posted or released, the bank no longer
      -- lists it), and such a review is not one of the list's rows. row_listed says which
      -- reviews still have their row, so the count behind a review filter is one range of an
      -- index instead of a probe of a million-row index per review (about 3 µs each, 100 ms at
      -- 34,000 reviews). Other kinds are always 1. Kept true by: the trigger below when a row
      -- goes; the review's own write when it is given; and after each sync, for a row the
      -- bank lists again (ReviewsTable.relistPendingTransactions).
      ALTER TABLE reviews ADD COLUMN row_listed INTEGER NOT NULL DEFAULT 1 CHECK (row_listed IN (0, 1));
      UPDATE reviews SET row_listed = 0
        WHERE kind = 'pending-transaction' AND NOT EXISTS (
          SELECT 1 FROM pending_transaction_scopes AS s CROSS JOIN pending_transactions AS p
            ON p.scope = s.id AND p.posted_at = reviews.posted_at AND p.row_key = reviews.ref
          WHERE s.profile_id = reviews.profile_id AND s.account_id = reviews.account_id);
      CREATE INDEX reviews_by_listed_state ON reviews (profile_id, kind, account_id, row_listed, state);
      CREATE TRIGGER pending_transaction_review_unlisted AFTER DELETE ON pending_transactions BEGIN
        UPDATE reviews SET row_listed = 0
          WHERE profile_id = (SELECT profile_id FROM pending_transaction_scopes WHERE id = old.scope)
            AND kind = 'pending-transaction' AND ref = old.row_key AND row_listed = 1;
      END;
    `,
  },
  {
    version: 13,
    name: 'authenticated clear columns of reviews and watch rules',
    sql: `
      -- A MAC over every clear column the app reads and the sealed body's tag (cache/rowMacs.ts),
      -- under a key derived from the data key: a state, rule, version or time changed in the
      -- file is found when read and by audit verify. Filled for earlier rows on the first open.
      ALTER TABLE reviews ADD COLUMN row_mac TEXT;
      ALTER TABLE review_history ADD COLUMN row_mac TEXT;
      ALTER TABLE watch_rules ADD COLUMN row_mac TEXT;
    `,
  },
  {
    version: 14,
    name: 'who acted, in the audit log',
    sql: `
      -- The actor of each entry (audit/actor.ts): app instance or command line, OS user,
      -- reviewer. Covered by the entry's MAC (audit/auditChain.ts, v2 encoding); NULL in
      -- entries written before. The one UPDATE the log allows stays "set a missing MAC".
      ALTER TABLE audit_log ADD COLUMN actor TEXT;
      DROP TRIGGER audit_log_no_update;
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        WHEN old.mac IS NOT NULL OR new.mac IS NULL OR new.id IS NOT old.id
          OR new.profile_id IS NOT old.profile_id OR new.profile_name IS NOT old.profile_name
          OR new.action IS NOT old.action OR new.target IS NOT old.target OR new.at IS NOT old.at
          OR new.result IS NOT old.result OR new.detail IS NOT old.detail OR new.actor IS NOT old.actor
      BEGIN
        SELECT RAISE(ABORT, 'the audit log is append-only');
      END;
    `,
  },
  {
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
  },
  {
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
  },
  {
    version: 17,
    name: 'reviews counted by part of the queue',
    sql: `
      -- The officer's queue counts reviews by kind, state, who flagged (a person or a rule) and
      -- account in one grouped read; this index holds every column it reads, so the count is
      -- one walk of an index instead of a lookup of each review's row.
      CREATE INDEX reviews_by_queue_part ON reviews (profile_id, kind, state, account_id, rule_name);
    `,
  },
  {
    version: 18,
    name: 'watch-rule names sealed',
    sql: `
      -- A rule's name may name a customer (security review of 3b75e6a, N10): watch_rules.name,
      -- reviews.rule_name and review_history.rule_name hold a keyed reference to it
      -- (cache/ruleNames.ts; the names of earlier versions are turned into references on the
      -- first open, which needs the data key), and the name is kept here, sealed under its
      -- reference. Kept after the rule is removed: the flags it raised still name it.
      CREATE TABLE watch_rule_names (
        profile_id TEXT NOT NULL,
        ref TEXT NOT NULL,
        name BLOB NOT NULL,
        PRIMARY KEY (profile_id, ref)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 19,
    name: 'pending transactions by bank date, for the overview',
    sql: `
      -- The Overview's volume by day (per account; credits, debits and holds apart) groups the
      -- days of one window by the columns kept in clear. This index holds every column that
      -- read uses, in the order it groups, so a month of a million-row cache is one walk of
      -- an index range per account, never a lookup of each row (nor an opened, sealed body).
      CREATE INDEX pending_transactions_by_day ON pending_transactions (scope, date, type, amount_cents);
    `,
  },
  {
    version: 20,
    name: 'counts kept with the rows and reviews they count',
    sql: `
      -- The officer's queue and the Overview ask "how many" of every account at once: counting
      -- a million-row cache at each read cost one index range per account (1.6 s for the queue
      -- counts, 3.5 s for the Overview under load, docs/officer-desk.md). These tables keep the
      -- counts instead, written by triggers in the transaction of the very write they count (a
      -- sync's page, a disposition, a rule's flags, a row the bank stopped listing), so a count
      -- is never behind the rows, and a read of the counts is a few dozen rows.
      CREATE TABLE pending_transaction_counts (
        scope INTEGER PRIMARY KEY,
        total INTEGER NOT NULL
      ) STRICT;
      INSERT INTO pending_transaction_counts (scope, total)
        SELECT scope, count(*) FROM pending_transactions GROUP BY scope;
      CREATE TRIGGER pending_transactions_counted AFTER INSERT ON pending_transactions BEGIN
        INSERT INTO pending_transaction_counts (scope, total) VALUES (new.scope, 1)
          ON CONFLICT (scope) DO UPDATE SET total = total + 1;
      END;
      CREATE TRIGGER pending_transactions_uncounted AFTER DELETE ON pending_transactions BEGIN
        UPDATE pending_transaction_counts SET total = total - 1 WHERE scope = old.scope;
      END;
      CREATE TRIGGER pending_transaction_scopes_uncounted AFTER DELETE ON pending_transaction_scopes BEGIN
        DELETE FROM pending_transaction_counts WHERE scope = old.id;
        DELETE FROM pending_transaction_days WHERE scope = old.id;
      END;

      -- The Overview's volume by day: per account and bank date, credits, debits and holds
      -- (holds and their releases are money set aside, whatever their sign) counted and summed.
      -- It replaces migration 19's index, which only that read used: a sync writes one small
      -- row per day here instead of an index entry per transaction.
      DROP INDEX pending_transactions_by_day;
      CREATE TABLE pending_transaction_days (
        scope INTEGER NOT NULL,
        date TEXT NOT NULL,
        flow TEXT NOT NULL CHECK (flow IN ('credits', 'debits', 'holds')),
        n INTEGER NOT NULL,
        cents INTEGER NOT NULL,
        PRIMARY KEY (scope, date, flow)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO pending_transaction_days (scope, date, flow, n, cents)
        SELECT scope, date,
          CASE WHEN type IN ('hold', 'hold_release') THEN 'holds' WHEN amount_cents >= 0 THEN 'credits' ELSE 'debits' END,
          count(*), sum(amount_cents)
        FROM pending_transactions GROUP BY 1, 2, 3;
      CREATE TRIGGER pending_transactions_counted_by_day AFTER INSERT ON pending_transactions BEGIN
        INSERT INTO pending_transaction_days (scope, date, flow, n, cents)
          VALUES (new.scope, new.date,
            CASE WHEN new.type IN ('hold', 'hold_release') THEN 'holds' WHEN new.amount_cents >= 0 THEN 'credits' ELSE 'debits' END,
            1, new.amount_cents)
          ON CONFLICT DO UPDATE SET n = n + 1, cents = cents + excluded.cents;
      END;
      CREATE TRIGGER pending_transactions_uncounted_by_day AFTER DELETE ON pending_transactions BEGIN
        UPDATE pending_transaction_days SET n = n - 1, cents = cents - old.amount_cents
          WHERE scope = old.scope AND date = old.date
            AND flow = CASE WHEN old.type IN ('hold', 'hold_release') THEN 'holds'
              WHEN old.amount_cents >= 0 THEN 'credits' ELSE 'debits' END;
      END;
      -- A row's scope, date, type and amount are never rewritten today (a changed record is a
      -- new row); should one be, it moves between the counts all the same.
      CREATE TRIGGER pending_transactions_recounted
        AFTER UPDATE OF scope, date, type, amount_cents ON pending_transactions BEGIN
        UPDATE pending_transaction_counts SET total = total - 1 WHERE scope = old.scope;
        INSERT INTO pending_transaction_counts (scope, total) VALUES (new.scope, 1)
          ON CONFLICT (scope) DO UPDATE SET total = total + 1;
        UPDATE pending_transaction_days SET n = n - 1, cents = cents - old.amount_cents
          WHERE scope = old.scope AND date = old.date
            AND flow = CASE WHEN old.type IN ('hold', 'hold_release') THEN 'holds'
              WHEN old.amount_cents >= 0 THEN 'credits' ELSE 'debits' END;
        INSERT INTO pending_transaction_days (scope, date, flow, n, cents)
          VALUES (new.scope, new.date,
            CASE WHEN new.type IN ('hold', 'hold_release') THEN 'holds' WHEN new.amount_cents >= 0 THEN 'credits' ELSE 'debits' END,
            1, new.amount_cents)
          ON CONFLICT DO UPDATE SET n = n + 1, cents = cents + excluded.cents;
      END;

      -- Reviews by what the queue and the Overview group them by. account_key is the account
      -- of a pending transaction's review, '' for the other kinds (a key column cannot be NULL).
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
      INSERT INTO review_counts (profile_id, kind, account_key, state, by_rule, row_listed, total)
        SELECT profile_id, kind, coalesce(account_id, ''), state, rule_name IS NOT NULL, row_listed, count(*)
        FROM reviews GROUP BY 1, 2, 3, 4, 5, 6;
      CREATE TRIGGER reviews_counted AFTER INSERT ON reviews BEGIN
        INSERT INTO review_counts (profile_id, kind, account_key, state, by_rule, row_listed, total)
          VALUES (new.profile_id, new.kind, coalesce(new.account_id, ''), new.state, new.rule_name IS NOT NULL,
            new.row_listed, 1)
          ON CONFLICT DO UPDATE SET total = total + 1;
      END;
      CREATE TRIGGER reviews_uncounted AFTER DELETE ON reviews BEGIN
        UPDATE review_counts SET total = total - 1
          WHERE profile_id = old.profile_id AND kind = old.kind AND account_key = coalesce(old.account_id, '')
            AND state = old.state AND by_rule = (old.rule_name IS NOT NULL) AND row_listed = old.row_listed;
      END;
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
    `,
  },
  {
    version: 21,
    name: 'flags of a person and of a rule in separate indexes',
    sql: `
      -- The queue's "flagged by a person" and "flagged by a rule" parts list the flagged reviews
      -- most recently moved first, one of them without the other. reviews_by_state holds both
      -- kinds of flags in one range, so a page of a person's flags stepped over every rule flag
      -- raised after them (a rule flags thousands at once, after each sync): 19,706 of them in
      -- the benchmark. Each part now has its own range.
      CREATE INDEX reviews_flagged_by_person ON reviews (profile_id, kind, state, updated_at, id)
        WHERE rule_name IS NULL;
      CREATE INDEX reviews_flagged_by_rule ON reviews (profile_id, kind, state, updated_at, id)
        WHERE rule_name IS NOT NULL;
    `,
  },
  {
    version: 22,
    name: 'audit entries of each reviewed item, for the rollback check',
    sql: `
      -- A review row put back to an earlier version of itself still has a matching row MAC (it
      -- was one once). The chained audit log holds, per item, the entry of its latest move with
      -- the version it made (reviewRollbacks.ts); these two partial indexes find that entry,
      -- and the entries after which a review may be gone (its profile's reviews dropped, the
      -- cache cleared, the data key reset), without a walk of the log. Only those entries are
      -- indexed, so an append of any other entry costs nothing more.
      CREATE INDEX audit_log_review_items ON audit_log (profile_id, target, id)
        WHERE action IN ('review.cleared', 'review.flagged', 'review.escalated', 'review.changed');
      CREATE INDEX audit_log_review_resets ON audit_log (action, profile_id, id)
        WHERE action IN ('reviews.drop', 'cache.clear', 'cache.data-key-reset');
    `,
  },
  {
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
  },
  {
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
  },
  {
    version: 25,
    name: "a person's dispositions per day, kept with the history",
    sql: `
      -- The Overview's "dispositions per day over the last 30 days" walked the profile's review
      -- history at each read (every step of the window: 16,000 in the benchmark, growing with
      -- the officer's work). Kept here instead, per profile, UTC date and disposition, by
      -- triggers in the transaction of the history's own write; a person's steps only (a rule's
      -- flags and "changed since review" are no one's work). History rows are only inserted and
      -- deleted (a profile's reviews dropped, the data key reset), never updated.
      CREATE TABLE review_days (
        profile_id TEXT NOT NULL,
        date TEXT NOT NULL,
        state TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (profile_id, date, state)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO review_days (profile_id, date, state, n)
        SELECT profile_id, substr(at, 1, 10), state, count(*) FROM review_history
        WHERE rule_name IS NULL AND state IN ('cleared', 'flagged', 'escalated')
        GROUP BY 1, 2, 3;
      CREATE TRIGGER review_history_day_counted AFTER INSERT ON review_history
        WHEN new.rule_name IS NULL AND new.state IN ('cleared', 'flagged', 'escalated') BEGIN
        INSERT INTO review_days (profile_id, date, state, n)
          VALUES (new.profile_id, substr(new.at, 1, 10), new.state, 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER review_history_day_uncounted AFTER DELETE ON review_history
        WHEN old.rule_name IS NULL AND old.state IN ('cleared', 'flagged', 'escalated') BEGIN
        UPDATE review_days SET n = n - 1
          WHERE profile_id = old.profile_id AND date = substr(old.at, 1, 10) AND state = old.state;
      END;
    `,
  },
  {
    version: 26,
    name: 'pending transactions counted by amount band',
    sql: `
      -- The queue's counts under an amount filter ("at least 1,000.00") walked every matching
      -- entry of the amount index: 1.96 s over 1,000,000 rows on a quiet machine. Kept here, per
      -- account (scope) and amount band, by triggers in the transaction of the write: a band is
      -- the amount's sign, its number of digits and its two leading digits (services/cache/
      -- amountBands.ts), so a range of amounts is the bands wholly inside it plus two short
      -- walks of the amount index at its ends. The band of x, in cents, is
      --   sign(x) * (|x| < 100 ? |x| : (digits(|x|) - 2) * 100 + leading two digits of |x|).
      CREATE TABLE pending_transaction_amounts (
        scope INTEGER NOT NULL,
        band INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (scope, band)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO pending_transaction_amounts (scope, band, n)
        SELECT scope, (CASE WHEN amount_cents < 0 THEN -(CASE WHEN abs(amount_cents) < 100 THEN abs(amount_cents) ELSE (length(abs(amount_cents)) - 2) * 100 + CAST(substr(abs(amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(amount_cents) < 100 THEN abs(amount_cents) ELSE (length(abs(amount_cents)) - 2) * 100 + CAST(substr(abs(amount_cents), 1, 2) AS INTEGER) END) END), count(*)
        FROM pending_transactions GROUP BY 1, 2;
      CREATE TRIGGER pending_transactions_banded AFTER INSERT ON pending_transactions BEGIN
        INSERT INTO pending_transaction_amounts (scope, band, n)
          VALUES (new.scope, (CASE WHEN new.amount_cents < 0 THEN -(CASE WHEN abs(new.amount_cents) < 100 THEN abs(new.amount_cents) ELSE (length(abs(new.amount_cents)) - 2) * 100 + CAST(substr(abs(new.amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(new.amount_cents) < 100 THEN abs(new.amount_cents) ELSE (length(abs(new.amount_cents)) - 2) * 100 + CAST(substr(abs(new.amount_cents), 1, 2) AS INTEGER) END) END), 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER pending_transactions_unbanded AFTER DELETE ON pending_transactions BEGIN
        UPDATE pending_transaction_amounts SET n = n - 1
          WHERE scope = old.scope AND band = (CASE WHEN old.amount_cents < 0 THEN -(CASE WHEN abs(old.amount_cents) < 100 THEN abs(old.amount_cents) ELSE (length(abs(old.amount_cents)) - 2) * 100 + CAST(substr(abs(old.amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(old.amount_cents) < 100 THEN abs(old.amount_cents) ELSE (length(abs(old.amount_cents)) - 2) * 100 + CAST(substr(abs(old.amount_cents), 1, 2) AS INTEGER) END) END);
      END;
      CREATE TRIGGER pending_transactions_rebanded AFTER UPDATE OF scope, amount_cents ON pending_transactions
        WHEN old.scope IS NOT new.scope OR old.amount_cents IS NOT new.amount_cents BEGIN
        UPDATE pending_transaction_amounts SET n = n - 1
          WHERE scope = old.scope AND band = (CASE WHEN old.amount_cents < 0 THEN -(CASE WHEN abs(old.amount_cents) < 100 THEN abs(old.amount_cents) ELSE (length(abs(old.amount_cents)) - 2) * 100 + CAST(substr(abs(old.amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(old.amount_cents) < 100 THEN abs(old.amount_cents) ELSE (length(abs(old.amount_cents)) - 2) * 100 + CAST(substr(abs(old.amount_cents), 1, 2) AS INTEGER) END) END);
        INSERT INTO pending_transaction_amounts (scope, band, n)
          VALUES (new.scope, (CASE WHEN new.amount_cents < 0 THEN -(CASE WHEN abs(new.amount_cents) < 100 THEN abs(new.amount_cents) ELSE (length(abs(new.amount_cents)) - 2) * 100 + CAST(substr(abs(new.amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(new.amount_cents) < 100 THEN abs(new.amount_cents) ELSE (length(abs(new.amount_cents)) - 2) * 100 + CAST(substr(abs(new.amount_cents), 1, 2) AS INTEGER) END) END), 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END;
    `,
  },
  {
    version: 27,
    name: 'account applications kept as received',
    sql: `
      -- An application the bank sent malformed (a status this client does not know, a field of
      -- the wrong type) is kept as received instead of failing its page and the book sync with
      -- it (issue 24): body holds it as it came, and problem names what is wrong with it (field
      -- names and rules, never a value), NULL for a well-formed application.
      ALTER TABLE account_applications ADD COLUMN problem TEXT;
    `,
  },
  {
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
  },
  {
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
  },
  {
    version: 30,
    name: 'accounts named',
    sql: `
      -- The bank's accounts as last listed (issue 38: names first, ids second): each account's
      -- record sealed, so the queue, the Overview and the report name an account ("Card
      -- settlement ••0880") offline, from the cache, instead of showing its id.
      CREATE TABLE accounts (
        profile_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (profile_id, account_id)
      ) STRICT;
    `,
  },
  {
    version: 31,
    name: 'kept figures of new pending transactions added a page at a time',
    sql: `
      -- Three triggers a row (the account's count, the day's sums, the amount band's count)
      -- made a sync's writer ~3x slower: ~60 µs of its ~100 µs a record (issue 36). The cache
      -- writer now adds a page's new rows to the same figures with one statement each, in the
      -- page's transaction (keptCounts.ts, PENDING_TALLIES), so the figures never lag the
      -- rows. Deletes and updates keep their triggers: they are rare, and a sweep is small.
      DROP TRIGGER pending_transactions_counted;
      DROP TRIGGER pending_transactions_counted_by_day;
      DROP TRIGGER pending_transactions_banded;
    `,
  },
];

/** Tables whose rows are sealed with the data key: emptied when the key is lost or changed. */
export const SEALED_TABLES = [
  'pending_transactions',
  'accounts',
  'webhook_sends',
  'account_applications',
  'account_application_versions',
  'applicants',
  'application_applicants',
  'webhooks',
  'documents',
  'card_art_uploads',
  'reviews',
  'review_history',
  'watch_rules',
  'watch_rule_names',
  'review_settings',
  'document_files',
  'applicant_field_digests',
] as const;
