/** The listener's own migrations: applied once, checked at every open. */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { checksumOf } from '../../../src/main/services/migrations/migrationRunner.ts';
import { LISTENER_MIGRATIONS, migrateListenerTables } from '../../../src/main/services/listener/migrations.ts';

describe('migrateListenerTables', () => {
  it('creates the tables once, beside other services’ tables', () => {
    const database = new DatabaseSync(':memory:');
    database.exec('CREATE TABLE cache_migrations (version INTEGER)');
    expect(migrateListenerTables(database)).toEqual({
      applied: LISTENER_MIGRATIONS.map((migration) => migration.version),
      unknown: null,
    });
    expect(migrateListenerTables(database)).toEqual({ applied: [], unknown: null });
    const tables = (
      database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    expect(tables).toEqual(
      expect.arrayContaining(['cache_migrations', 'listener_migrations', 'listener_requests', 'listener_settings']),
    );
    const applied = database.prepare('SELECT COUNT(*) AS count FROM listener_migrations').get() as { count: number };
    expect(applied.count).toBe(LISTENER_MIGRATIONS.length);
  });

  it('reads a database written by a newer version as unknown, saying so, and writes nothing', () => {
    const database = new DatabaseSync(':memory:');
    migrateListenerTables(database);
    database.prepare("INSERT INTO listener_migrations VALUES (99, 'from the future', 'x', '2030-01-01')").run();
    const outcome = migrateListenerTables(database);
    expect(outcome.applied).toEqual([]);
    expect(outcome.unknown).toMatchObject({ kind: 'newer-version', version: 99 });
    expect(outcome.unknown?.sentence).toMatch(
      /^The listener's kept traffic was made by a newer Ledgerdesk .*open read-only/,
    );
  });

  it('reads a history that is not ours as changed', () => {
    const database = new DatabaseSync(':memory:');
    migrateListenerTables(database);
    database.prepare("UPDATE listener_migrations SET name = 'something else' WHERE version = 1").run();
    expect(migrateListenerTables(database).unknown).toMatchObject({ kind: 'migration-changed', version: 1 });
  });

  it('takes over a table of a build that kept no checksums, giving each row the checksum of what it ran', () => {
    const database = new DatabaseSync(':memory:');
    // The bookkeeping table as builds before issue 34 made it: version, name, applied_at.
    database.exec(
      'CREATE TABLE listener_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    for (const migration of LISTENER_MIGRATIONS) {
      database.exec(migration.sql);
      database
        .prepare('INSERT INTO listener_migrations VALUES (?, ?, ?)')
        .run(migration.version, migration.name, '2026-01-01');
    }
    expect(migrateListenerTables(database)).toEqual({ applied: [], unknown: null });
    const checksums = database.prepare('SELECT checksum FROM listener_migrations ORDER BY version').all();
    expect(checksums).toEqual(LISTENER_MIGRATIONS.map((migration) => ({ checksum: checksumOf(migration) })));
  });

  it('rolls a failing migration back entirely', () => {
    const database = new DatabaseSync(':memory:');
    const broken = [
      ...LISTENER_MIGRATIONS,
      {
        version: LISTENER_MIGRATIONS.length + 1,
        name: 'broken',
        sql: 'CREATE TABLE half_done (x INTEGER); SELECT * FROM no_such_table;',
      },
    ];
    expect(() => migrateListenerTables(database, broken)).toThrow();
    const half = database.prepare("SELECT COUNT(*) AS count FROM sqlite_master WHERE name = 'half_done'").get() as {
      count: number;
    };
    expect(half.count).toBe(0);
    expect(migrateListenerTables(database).unknown).toBeNull();
    expect(database.prepare('SELECT COUNT(*) AS count FROM listener_migrations').get()).toEqual({
      count: LISTENER_MIGRATIONS.length,
    });
  });
});
