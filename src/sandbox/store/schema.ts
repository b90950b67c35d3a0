/**
 * The sandbox's tables. Most resources are small and live in one `record` table as the JSON
 * the API serves; the two that grow without bound (pending transactions, webhook sends) and
 * the delivery queue have their own tables and indexes.
 */
export const SCHEMA_VERSION = 1;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Every small resource: accounts, ACHs, documents, files, card products, account
-- applications, webhooks. seq orders lists newest first; body is the served JSON.
CREATE TABLE IF NOT EXISTS record (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  id TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS record_by_kind ON record (kind, seq);

-- File bytes, apart from their metadata record so lists never read them.
CREATE TABLE IF NOT EXISTS file_content (
  file_id TEXT PRIMARY KEY,
  bytes BLOB NOT NULL
);

-- A webhook's basic_secret: stored for delivery (sealed: store/webhookSecrets.ts), never served.
CREATE TABLE IF NOT EXISTS webhook_credential (
  webhook_id TEXT PRIMARY KEY,
  basic_secret TEXT NOT NULL
);

-- Failures that count toward moving a webhook to error are those since this moment: its
-- creation, or the PATCH that last enabled it (which resets it, spec §3.2).
CREATE TABLE IF NOT EXISTS webhook_health (
  webhook_id TEXT PRIMARY KEY,
  failures_since_ms INTEGER NOT NULL
);

-- Pending transactions have no id. position grows with extended_timestamp_precise within an
-- account (enforced on insert), so it is both the order of the list and the cursor.
CREATE TABLE IF NOT EXISTS pending_transaction (
  account_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  created_us INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (account_id, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS pending_transaction_by_time ON pending_transaction (account_id, created_us);

CREATE TABLE IF NOT EXISTS webhook_send (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  webhook_id TEXT NOT NULL,
  object_id TEXT NOT NULL,
  event TEXT NOT NULL,
  operation TEXT NOT NULL,
  status TEXT NOT NULL,
  attempt_number INTEGER NOT NULL,
  will_retry INTEGER NOT NULL,
  error TEXT,
  created_at TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_send_by_webhook ON webhook_send (webhook_id, seq);
CREATE INDEX IF NOT EXISTS webhook_send_by_object ON webhook_send (object_id, seq);
CREATE INDEX IF NOT EXISTS webhook_send_failures ON webhook_send (webhook_id, status, created_ms);

-- Deliveries still owed: the first attempt of a fresh event or a scheduled retry. A row
-- leaves this table only when its event ends (sent, or error with will_retry false), so
-- nothing is lost across a restart.
CREATE TABLE IF NOT EXISTS delivery (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  webhook_id TEXT NOT NULL,
  event TEXT NOT NULL,
  operation TEXT NOT NULL,
  object_id TEXT NOT NULL,
  object_path TEXT NOT NULL,
  attempt_number INTEGER NOT NULL,
  due_ms INTEGER NOT NULL,
  in_flight INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS delivery_due ON delivery (in_flight, due_ms);
CREATE INDEX IF NOT EXISTS delivery_by_webhook ON delivery (webhook_id);

-- X-Idempotency-Key: the first answer to a key, replayed for the same request.
CREATE TABLE IF NOT EXISTS idempotency (
  idempotency_key TEXT NOT NULL,
  route TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (idempotency_key, route)
);
`;
