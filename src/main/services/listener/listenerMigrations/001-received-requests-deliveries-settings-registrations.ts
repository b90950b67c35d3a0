/** Listener migration 1. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 1,
  name: 'received requests, deliveries, settings, registrations',
  sql: `
      -- AUTOINCREMENT: a request id is never reused after retention deletes old rows,
      -- so an id the UI holds always means the same request.
      CREATE TABLE listener_requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        listener_id TEXT NOT NULL,
        received_at INTEGER NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        query TEXT,
        remote_address TEXT,
        headers TEXT NOT NULL,
        body BLOB,
        body_bytes INTEGER NOT NULL,
        declared_bytes INTEGER,
        body_truncated INTEGER NOT NULL,
        body_problem TEXT,
        notification TEXT,
        event TEXT,
        object_id TEXT,
        op TEXT,
        verdict TEXT NOT NULL,
        presented_user TEXT,
        outcome TEXT NOT NULL,
        status INTEGER,
        rule_id TEXT,
        duration_ms REAL NOT NULL,
        occurrence INTEGER NOT NULL,
        out_of_order INTEGER NOT NULL,
        stored_bytes INTEGER NOT NULL,
        snapshot TEXT,
        snapshot_at INTEGER,
        snapshot_error TEXT
      );
      -- Two indexes only: each one costs every request its share of the write. Time filters
      -- use the id order (ids grow with arrival time) instead of an index of their own.
      CREATE INDEX listener_requests_by_listener ON listener_requests (listener_id, id);
      CREATE INDEX listener_requests_by_object ON listener_requests (listener_id, object_id, event);

      CREATE TABLE listener_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        listener_id TEXT NOT NULL,
        request_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        url TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        status INTEGER,
        duration_ms REAL,
        excerpt TEXT,
        error TEXT
      );
      CREATE INDEX listener_deliveries_by_request ON listener_deliveries (request_id);

      CREATE TABLE listener_settings (
        listener_id TEXT PRIMARY KEY,
        settings TEXT NOT NULL,
        rules TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE listener_registrations (
        listener_id TEXT NOT NULL,
        webhook_id TEXT NOT NULL,
        event TEXT NOT NULL,
        path TEXT NOT NULL,
        url TEXT NOT NULL,
        basic_user TEXT NOT NULL,
        secret_account TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (listener_id, webhook_id)
      );
    `,
};
