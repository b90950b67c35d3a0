/**
 * The one runner of numbered migrations, shared by every store of the data folder (the cache,
 * the officer's record, the listener's tables, the screening lists). Each store names its own
 * bookkeeping table, so several stores can migrate the same database independently.
 *
 * Every open checks the applied history against this build's migrations by checksum. The
 * checksum covers what a migration executes (executedSql.ts), not its comments or layout.
 * A history this build does not know (a newer build's migration, or one whose SQL differs)
 * is never a refusal: the runner writes nothing and says so in one sentence, and the store
 * opens read-only (readOnly.ts) so the officer can still read and export it.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { executedSql } from './executedSql.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Why a store's schema is not one this build knows, with the sentence to show the officer. */
interface UnknownSchema {
  kind: 'newer-version' | 'migration-changed';
  /** The first applied migration this build does not know. */
  version: number;
  sentence: string;
}

export interface MigrationOutcome {
  applied: number[];
  /** Null when the history is this build's; otherwise nothing was written. */
  unknown: UnknownSchema | null;
}

export interface MigrationStore {
  /** The store in a person's words, starting a sentence: "The offline cache". */
  name: string;
}

/** The checksum of what the migration executes. */
export function checksumOf(migration: Migration): string {
  return createHash('sha256').update(executedSql(migration.sql)).digest('hex');
}

/** The checksum builds before issue 34 stored: of the whole text, comments and spaces included. */
function legacyChecksumOf(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

interface AppliedRow {
  version: number;
  name: string;
  /** Null in a table made before it kept checksums (the listener's). */
  checksum: string | null;
}

function tableExists(database: DatabaseSync, table: string): boolean {
  return database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
}

function hasChecksumColumn(database: DatabaseSync, table: string): boolean {
  const columns = database.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[];
  return columns.some((column) => column.name === 'checksum');
}

function appliedRows(database: DatabaseSync, table: string): AppliedRow[] {
  if (!tableExists(database, table)) return [];
  const checksum = hasChecksumColumn(database, table) ? 'checksum' : 'NULL AS checksum';
  return database
    .prepare(`SELECT version, name, ${checksum} FROM ${table} ORDER BY version`)
    .all() as unknown as AppliedRow[];
}

function judge(
  rows: readonly AppliedRow[],
  migrations: readonly Migration[],
  store: MigrationStore,
): UnknownSchema | null {
  const readOnly = 'so it is open read-only: it can be read and exported, and nothing is written to it.';
  for (const [index, row] of rows.entries()) {
    const known = migrations[row.version - 1];
    if (known === undefined || row.version !== index + 1) {
      return {
        kind: 'newer-version',
        version: row.version,
        sentence: `${store.name} was made by a newer Ledgerdesk (its migration ${String(row.version)}, “${row.name}”, is unknown to this build), ${readOnly} Update Ledgerdesk to work in it again.`,
      };
    }
    const sameSql =
      row.checksum === null || row.checksum === checksumOf(known) || row.checksum === legacyChecksumOf(known);
    if (known.name !== row.name || !sameSql) {
      return {
        kind: 'migration-changed',
        version: row.version,
        sentence: `${store.name}'s migration ${String(row.version)} (“${row.name}”) differs from this build's (“${known.name}”): another build made it, ${readOnly} Open it with the build that made it to work in it again.`,
      };
    }
  }
  return null;
}

/** Rows written by an older build (a raw-text checksum, or none) get the checksum of what they executed. */
function rewriteLegacyRows(
  database: DatabaseSync,
  table: string,
  rows: readonly AppliedRow[],
  migrations: readonly Migration[],
): void {
  const legacy = rows.filter((row) => row.checksum !== checksumOf(migrations[row.version - 1] as Migration));
  const addColumn = !hasChecksumColumn(database, table);
  if (legacy.length === 0 && !addColumn) return;
  database.exec('BEGIN IMMEDIATE');
  try {
    if (addColumn) database.exec(`ALTER TABLE ${table} ADD COLUMN checksum TEXT`);
    const update = database.prepare(`UPDATE ${table} SET checksum = ? WHERE version = ?`);
    for (const row of legacy) update.run(checksumOf(migrations[row.version - 1] as Migration), row.version);
    database.exec('COMMIT');
  } catch (error) {
    database.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Checks the applied history, then applies what is missing, each migration in its own
 * transaction with its bookkeeping row. A migration that fails is rolled back whole and its
 * error thrown; the ones before it stay applied.
 */
export function applyMigrations(
  database: DatabaseSync,
  migrations: readonly Migration[],
  bookkeepingTable: string,
  store: MigrationStore = { name: 'The database' },
): MigrationOutcome {
  if (!/^[a-z_][a-z0-9_]*$/.test(bookkeepingTable)) throw new Error(`Bad table name ${bookkeepingTable}`);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1)
      throw new Error(`Migrations must be numbered 1, 2, 3…; found ${String(migration.version)}`);
  });
  const rows = appliedRows(database, bookkeepingTable);
  const unknown = judge(rows, migrations, store);
  if (unknown !== null) return { applied: [], unknown };
  database.exec(
    `CREATE TABLE IF NOT EXISTS ${bookkeepingTable} (
       version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`,
  );
  rewriteLegacyRows(database, bookkeepingTable, rows, migrations);
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
  return { applied, unknown: null };
}
