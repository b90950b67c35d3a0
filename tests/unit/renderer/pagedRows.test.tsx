import { describe, expect, it } from 'vitest';
import { PagedRows, type PageAnswer } from '../../../src/renderer/src/lib/pagedRows.ts';

/** A keyset-paged list of `size` numbers whose cursor is the last value seen. */
function numbers(size: number) {
  const requests: (string | undefined)[] = [];
  const fetch = (cursor: string | undefined, limit: number): Promise<PageAnswer<number>> => {
    requests.push(cursor);
    const start = cursor === undefined ? 0 : Number(cursor) + 1;
    const rows = Array.from({ length: Math.max(0, Math.min(limit, size - start)) }, (_, index) => start + index);
    const last = rows[rows.length - 1];
    return Promise.resolve({
      rows,
      nextCursor: start + limit >= size || last === undefined ? null : String(last),
      asOf: '2026-11-21T10:00:00Z',
    });
  };
  return { fetch, requests };
}

async function settled<Row>(rows: PagedRows<Row>): Promise<void> {
  for (let turn = 0; turn < 10_000 && rows.loading; turn += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('PagedRows', () => {
  it('fetches pages in order by cursor and knows the end', async () => {
    const list = numbers(450);
    const rows = new PagedRows(list.fetch, { pageSize: 100 });
    rows.ensure(0, 250);
    await settled(rows);
    expect(list.requests).toEqual([undefined, '99', '199']);
    expect(rows.rowAt(0)).toBe(0);
    expect(rows.rowAt(250)).toBe(250);
    expect(rows.total).toBeNull();
    rows.ensure(300, 449);
    await settled(rows);
    expect(rows.total).toBe(450);
    expect(rows.count).toBe(450);
    expect(rows.asOf).toBe('2026-11-21T10:00:00Z');
  });

  it('holds only a bounded window of rows however far the user scrolls', async () => {
    const list = numbers(1_000_000);
    const rows = new PagedRows(list.fetch, { pageSize: 200, maxPages: 6 });
    for (let first = 0; first < 100_000; first += 5_000) {
      rows.ensure(first, first + 40);
      await settled(rows);
    }
    expect(rows.rowAt(95_000)).toBe(95_000);
    expect(rows.heldRows).toBeLessThanOrEqual(6 * 200);
    // Scrolling back reuses the remembered cursors: one fetch for the page, no walk from the start.
    const before = list.requests.length;
    rows.ensure(40_000, 40_010);
    await settled(rows);
    expect(rows.rowAt(40_000)).toBe(40_000);
    expect(list.requests.length - before).toBe(1);
  });

  it('grows its count by a page until the end is known, and takes a total when told', async () => {
    const rows = new PagedRows(numbers(1000).fetch, { pageSize: 100 });
    expect(rows.count).toBe(0);
    rows.ensure(0, 0);
    await settled(rows);
    expect(rows.count).toBe(200);
    rows.setTotal(1000);
    expect(rows.count).toBe(1000);
  });

  it('keeps the error, stops, and fetches again on retry', async () => {
    let fail = true;
    const rows = new PagedRows<number>(
      (cursor, limit) => (fail ? Promise.reject(new Error('offline')) : numbers(10).fetch(cursor, limit)),
      { pageSize: 5 },
    );
    rows.ensure(0, 3);
    await settled(rows);
    expect(rows.error).toBeInstanceOf(Error);
    expect(rows.ready).toBe(false);
    fail = false;
    rows.retry();
    await settled(rows);
    expect(rows.error).toBeNull();
    expect(rows.rowAt(3)).toBe(3);
  });

  it('drops answers that arrive after it was closed', async () => {
    let release: (answer: PageAnswer<number>) => void = () => undefined;
    const rows = new PagedRows<number>(() => new Promise((resolve) => (release = resolve)), { pageSize: 5 });
    let changes = 0;
    rows.subscribe(() => (changes += 1));
    rows.ensure(0, 0);
    rows.close();
    const seen = changes;
    release({ rows: [1, 2, 3], nextCursor: null });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(rows.rowAt(0)).toBeUndefined();
    expect(changes).toBe(seen);
  });
});
