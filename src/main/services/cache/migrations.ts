/**
 * Numbered migrations, checked at every open: each applied migration's checksum must match
 * the code's, so a database changed by another build is noticed, not silently misread.
 * The bookkeeping table is named by the caller, so the cache (`cache_migrations`) and the
 * listener (its own table) can migrate the same database independently.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { CacheError } from './cacheError.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

function checksumOf(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

export function applyMigrations(
  database: DatabaseSync,
  migrations: readonly Migration[],
  bookkeepingTable: string,
): { applied: number[] } {
  if (!/^[a-z_][a-z0-9_]*$/.test(bookkeepingTable)) throw new Error(`Bad table name ${bookkeepingTable}`);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1)
      throw new Error(`Migrations must be numbered 1, 2, 3…; found ${String(migration.version)}`);
  });
  database.exec(
    `CREATE TABLE IF NOT EXISTS ${bookkeepingTable} (
       version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`,
  );
  const rows = database.prepare(`SELECT version, name, checksum FROM ${bookkeepingTable} ORDER BY version`).all() as {
    version: number;
    name: string;
    checksum: string;
  }[];
  for (const row of rows) {
    const known = migrations[row.version - 1];
    if (known === undefined) {
      throw new CacheError(
        'newer-version',
        `This database was made by a newer Ledgerdesk (migration ${String(row.version)} ${row.name}); update Ledgerdesk.`,
      );
    }
    if (known.name !== row.name || checksumOf(known) !== row.checksum) {
      throw new CacheError(
        'migration-changed',
        `Migration ${String(row.version)} of ${bookkeepingTable} differs from the one applied (${row.name}); the database was made by another build.`,
      );
    }
  }
  const applied: number[] = [];
  const record = database.prepare(
    `INSERT INTO ${bookkeepingTable} (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)`,
  );
  for (const migration of migrations.slice(rows.length)) {
    database.exec('BEGIN IMMEDIATE');
    try {
      database.exec(migration.sql);
      record.run(migration.version, migration.name, checksumOf(migration), new Date().toISOString());
      database.exec('COMMIT');
    } catch (error) {
      database.exec('ROLLBACK');
      throw error;
    }
    applied.push(migration.version);
  }
  return { applied };
}
