/**
 * The listener's tables and their numbered migrations. They live in the app's cache
 * database, which other services migrate too, so the listener keeps its own bookkeeping
 * (`listener_migrations`) and checks it at every open: a database written by a newer
 * Ledgerdesk, or one whose history differs from ours, is refused rather than guessed at.
 */
import type { DatabaseSync } from 'node:sqlite';

export interface ListenerMigration {
  version: number;
  name: string;
  sql: string;
}

export const LISTENER_MIGRATIONS: readonly ListenerMigration[] = [
  {
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
  },
  {
    version: 2,
    name: 'sealed bodies',
    sql: `
      -- Whether body holds the raw bytes or them sealed (both are BLOBs). The text columns
      -- that may be sealed (headers, query, notification, snapshot, excerpt) tell by their
      -- type: a sealed value is a BLOB, a clear one TEXT.
      ALTER TABLE listener_requests ADD COLUMN body_sealed INTEGER NOT NULL DEFAULT 0;
    `,
  },
];

export class ListenerMigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenerMigrationError';
  }
}

/** Check the applied history against ours, then apply what is missing, each in its own transaction. */
export function migrateListenerTables(database: DatabaseSync, migrations = LISTENER_MIGRATIONS): number {
  database.exec(`CREATE TABLE IF NOT EXISTS listener_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = database.prepare('SELECT version, name FROM listener_migrations ORDER BY version').all() as {
    version: number;
    name: string;
  }[];
  applied.forEach((row, index) => {
    const known = migrations[index];
    if (known === undefined) {
      throw new ListenerMigrationError(
        `The listener tables are at version ${row.version}, newer than this Ledgerdesk knows (${migrations.length}): update Ledgerdesk or use another data folder.`,
      );
    }
    if (known.version !== row.version || known.name !== row.name) {
      throw new ListenerMigrationError(
        `Listener migration ${row.version} in the database ("${row.name}") is not ours ("${known.name}"): the database was changed outside Ledgerdesk.`,
      );
    }
  });
  const record = database.prepare('INSERT INTO listener_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations.slice(applied.length)) {
    database.exec('BEGIN IMMEDIATE');
    try {
      database.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      database.exec('COMMIT');
    } catch (error) {
      database.exec('ROLLBACK');
      throw error;
    }
  }
  return migrations.length;
}
