/**
 * A group of pages written as one transaction, and when that fails, one transaction a page up
 * to the first page that cannot be written (writeBatch.ts, executeGroup), on a real SQLite
 * database. The same function runs in the cache writer's thread and inline.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Statements } from '../../../src/main/services/cache/statements.ts';
import { executeGroup, type WriteBatch } from '../../../src/main/services/cache/writeBatch.ts';

const INSERT = 'INSERT INTO rows (n) VALUES (?)';
const CHECKPOINT = 'UPDATE checkpoint SET after = ?';

let database: DatabaseSync;
let statements: Statements;

beforeEach(() => {
  database = new DatabaseSync(':memory:');
  database.exec(`CREATE TABLE rows (n INTEGER PRIMARY KEY);
    CREATE TABLE checkpoint (after INTEGER); INSERT INTO checkpoint VALUES (0);`);
  statements = new Statements(database);
});

afterEach(() => {
  database.close();
});

/** A page: its rows, then its checkpoint (the last row it holds). */
function page(...numbers: number[]): WriteBatch[] {
  return [
    { sql: INSERT, rows: numbers.map((n) => [n]) },
    { sql: CHECKPOINT, rows: [[numbers.at(-1) ?? 0]] },
  ];
}

function stored(): number[] {
  return (database.prepare('SELECT n FROM rows ORDER BY n').all() as { n: number }[]).map((row) => row.n);
}

function checkpoint(): number {
  return (database.prepare('SELECT after FROM checkpoint').get() as { after: number }).after;
}

describe('executeGroup', () => {
  it('writes every page and reports the rows each batch of each page changed', () => {
    const outcome = executeGroup(database, statements, [page(1, 2), page(3), page(4, 5, 6)]);
    expect(outcome).toEqual({
      kept: [
        [2, 1],
        [1, 1],
        [3, 1],
      ],
    });
    expect(stored()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(checkpoint()).toBe(6);
  });

  it('writes nothing of a group in a transaction that fails: a page at a time, up to the one that cannot be written', () => {
    // Page 3 repeats a row of page 1: the unique key refuses it, as a full disk would refuse a write.
    const outcome = executeGroup(database, statements, [page(1, 2), page(3), page(2, 7), page(8)]);
    expect(outcome.kept).toEqual([
      [2, 1],
      [1, 1],
    ]);
    expect(String(outcome.error)).toMatch(/UNIQUE constraint failed/);
    // Page 4 fits, but is not kept: its checkpoint would move past the rows of page 3.
    expect(stored()).toEqual([1, 2, 3]);
    expect(checkpoint()).toBe(3);
    expect(database.isTransaction).toBe(false);
  });

  it('reports a single page that fails with nothing kept, and leaves no transaction open', () => {
    executeGroup(database, statements, [page(1)]);
    const outcome = executeGroup(database, statements, [page(1)]);
    expect(outcome.kept).toEqual([]);
    expect(String(outcome.error)).toMatch(/UNIQUE constraint failed/);
    expect(stored()).toEqual([1]);
    expect(database.isTransaction).toBe(false);
  });
});
