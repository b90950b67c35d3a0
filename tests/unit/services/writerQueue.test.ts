/**
 * How the cache writer takes a sync's pages (writerQueue.ts), on a real SQLite database: the
 * pages of one stream queued together are written as one group; after a page that cannot be
 * written, that stream's later pages are refused, now and when they arrive later; another
 * stream goes on.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Statements } from '../../../src/main/services/cache/statements.ts';
import { executeGroup, type WriteBatch } from '../../../src/main/services/cache/writeBatch.ts';
import { GROUP_PAGES, WriterQueue, type WriteMessage } from '../../../src/main/services/cache/writerQueue.ts';

let database: DatabaseSync;
let groups: number[];
let queue: WriterQueue;

beforeEach(() => {
  database = new DatabaseSync(':memory:');
  database.exec('CREATE TABLE rows (n INTEGER PRIMARY KEY)');
  const statements = new Statements(database);
  groups = [];
  queue = new WriterQueue((pages) => {
    groups.push(pages.length);
    return executeGroup(database, statements, pages);
  });
});

afterEach(() => {
  database.close();
});

function page(n: number): WriteBatch[] {
  return [{ sql: 'INSERT INTO rows (n) VALUES (?)', rows: [[n]] }];
}

let lastId = 0;
function message(stream: number | undefined, ...numbers: number[]): WriteMessage {
  lastId += 1;
  return { id: lastId, pages: numbers.map(page), ...(stream === undefined ? {} : { stream }) };
}

function stored(): number[] {
  return (database.prepare('SELECT n FROM rows ORDER BY n').all() as { n: number }[]).map((row) => row.n);
}

describe('WriterQueue', () => {
  it('writes the messages of a group as one transaction and answers each with its own pages', () => {
    const group = [message(1, 1, 2), message(1, 3), message(1, 4)];
    expect(queue.run(group)).toEqual([
      { id: group[0]?.id, kept: [[1], [1]] },
      { id: group[1]?.id, kept: [[1]] },
      { id: group[2]?.id, kept: [[1]] },
    ]);
    expect(groups).toEqual([4]);
    expect(stored()).toEqual([1, 2, 3, 4]);
  });

  it('joins only messages of the same stream, up to GROUP_PAGES pages', () => {
    const first = message(1, 1);
    expect(WriterQueue.joins(first, message(1, 2), 1)).toBe(true);
    expect(WriterQueue.joins(first, message(2, 2), 1)).toBe(false);
    expect(WriterQueue.joins(first, message(undefined, 2), 1)).toBe(false);
    expect(WriterQueue.joins(message(undefined, 1), message(undefined, 2), 1)).toBe(false);
    expect(WriterQueue.joins(first, message(1, 2), GROUP_PAGES - 1)).toBe(true);
    expect(WriterQueue.joins(first, message(1, 2), GROUP_PAGES)).toBe(false);
  });

  it('after a page that cannot be written, refuses the rest of its stream, now and later; other streams go on', () => {
    // Page 2 again: the unique key refuses it, as a full disk would refuse a write.
    const group = [message(7, 1, 2), message(7, 2, 3), message(7, 4)];
    const replies = queue.run(group);
    expect(replies[0]).toEqual({ id: group[0]?.id, kept: [[1], [1]] });
    expect(replies[1]?.kept).toEqual([]);
    expect(replies[1]?.error?.message).toMatch(/UNIQUE constraint failed/);
    expect(replies[2]?.kept).toEqual([]);
    expect(replies[2]?.error).toEqual(replies[1]?.error);
    expect(stored()).toEqual([1, 2]);

    // A page of the same stream that arrives afterwards is refused without being written.
    const late = message(7, 5);
    const calls = groups.length;
    expect(queue.run([late])).toEqual([{ id: late.id, kept: [], error: replies[1]?.error }]);
    expect(groups.length).toBe(calls);

    const other = message(8, 6);
    expect(queue.run([other])).toEqual([{ id: other.id, kept: [[1]] }]);
    expect(stored()).toEqual([1, 2, 6]);
  });
});
