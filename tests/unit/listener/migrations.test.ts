/** The listener's own migrations: applied once, checked at every open. */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import {
  LISTENER_MIGRATIONS,
  ListenerMigrationError,
  migrateListenerTables,
} from '../../../src/main/services/listener/migrations.ts';

describe('migrateListenerTables', () => {
  it('creates the tables once, beside other services’ tables', () => {
    const database = new DatabaseSync(':memory:');
    database.exec('CREATE TABLE cache_migrations (version INTEGER)');
    expect(migrateListenerTables(database)).toBe(LISTENER_MIGRATIONS.length);
    expect(migrateListenerTables(database)).toBe(LISTENER_MIGRATIONS.length);
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

  it('refuses a database written by a newer version', () => {
    const database = new DatabaseSync(':memory:');
    migrateListenerTables(database);
    database.prepare("INSERT INTO listener_migrations VALUES (99, 'from the future', '2030-01-01')").run();
    expect(() => migrateListenerTables(database)).toThrow(ListenerMigrationError);
    expect(() => migrateListenerTables(database)).toThrow(/newer than this Ledgerdesk knows/);
  });

  it('refuses a history that is not ours', () => {
    const database = new DatabaseSync(':memory:');
    migrateListenerTables(database);
    database.prepare("UPDATE listener_migrations SET name = 'something else' WHERE version = 1").run();
    expect(() => migrateListenerTables(database)).toThrow(/not ours/);
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
    expect(migrateListenerTables(database)).toBe(LISTENER_MIGRATIONS.length);
  });
});
