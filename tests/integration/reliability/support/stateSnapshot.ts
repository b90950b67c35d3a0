/**
 * What "nothing changed" means, made checkable: every table of a SQLite file (row count and
 * a digest of its rows, read through a separate read-only connection so WAL contents count),
 * every other file of a folder (size and digest), and the prototypes a polluting input would
 * touch.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export interface TableState {
  rows: number;
  digest: string;
}

function cellText(value: unknown): string {
  if (value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString('hex')}`;
  if (typeof value === 'bigint') return `bigint:${value.toString()}`;
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** Each table's row count and a digest of its rows (order-independent). */
export function databaseState(file: string): Record<string, TableState> {
  const database = new DatabaseSync(file, { readOnly: true });
  try {
    database.exec('PRAGMA busy_timeout = 5000');
    const tables = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => String(row['name']));
    const state: Record<string, TableState> = {};
    for (const table of tables) {
      const rows = database
        .prepare(`SELECT * FROM "${table.replaceAll('"', '""')}"`)
        .all()
        .map((row) =>
          Object.entries(row)
            .map(([column, value]) => `${column}=${cellText(value)}`)
            .join('\u0001'),
        )
        .sort();
      const digest = createHash('sha256');
      for (const row of rows) digest.update(row).update('\u0002');
      state[table] = { rows: rows.length, digest: digest.digest('hex') };
    }
    return state;
  } finally {
    database.close();
  }
}

/** Every file under `folder` (relative path → size and digest), except those `skip` names. */
export function folderState(folder: string, skip: (relativePath: string) => boolean): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      const name = relative(folder, path);
      if (entry.isDirectory()) walk(path);
      else if (!skip(name)) {
        state[name] = `${String(statSync(path).size)}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
      }
    }
  };
  walk(folder);
  return state;
}

/** The own properties of the prototypes an input could pollute, and whether a fresh object shows a polluted one. */
export function prototypeState(): Record<string, string[]> {
  const probe: Record<string, unknown> = {};
  return {
    object: Object.getOwnPropertyNames(Object.prototype).sort(),
    array: Object.getOwnPropertyNames(Array.prototype).sort(),
    function: Object.getOwnPropertyNames(Function.prototype).sort(),
    string: Object.getOwnPropertyNames(String.prototype).sort(),
    polluted: ['polluted', 'isAdmin', 'value', 'deeper'].filter((key) => key in probe),
  };
}
