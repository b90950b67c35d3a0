/** Where a list goes on after one page, with and without page_next (listPaging.ts). */
import { describe, expect, it } from 'vitest';
import { nextPageOf } from '../../../src/main/services/bank/listPaging.ts';

const BASE = 'https://bank.example';
const ids = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `wh_${String(index)}` }));

describe('nextPageOf', () => {
  it("follows page_next's cursor, and ends at null", () => {
    expect(nextPageOf({ data: ids(2), page_next: `${BASE}/webhook?page_cursor=wh_1&page_size=2` }, 2, BASE)).toEqual({
      ok: true,
      cursor: 'wh_1',
      how: 'page_next',
    });
    expect(nextPageOf({ data: ids(2), page_next: null }, 2, BASE)).toEqual({ ok: true, cursor: null, how: 'end' });
  });

  it('without page_next, pages on by the last id after a full page and stops at a short one', () => {
    expect(nextPageOf({ data: ids(3) }, 3, BASE)).toEqual({ ok: true, cursor: 'wh_2', how: 'last-id' });
    expect(nextPageOf({ data: ids(2) }, 3, BASE)).toEqual({ ok: true, cursor: null, how: 'end' });
  });

  it('without page_next, says a full page whose items have no id (pending transactions) has no cursor to go on with', () => {
    expect(nextPageOf({ data: [{ amount: '1.00' }, { amount: '2.00' }] }, 2, BASE)).toEqual({
      ok: true,
      cursor: null,
      how: 'no-cursor',
    });
    expect(nextPageOf({ data: [{ amount: '1.00' }] }, 2, BASE)).toEqual({ ok: true, cursor: null, how: 'end' });
  });

  it('ends at an empty page whatever page_next says', () => {
    expect(nextPageOf({ data: [], page_next: `${BASE}/webhook?page_cursor=wh_9` }, 2, BASE).ok).toBe(true);
  });

  it('names a page_next that carries no cursor', () => {
    expect(nextPageOf({ data: ids(1), page_next: `${BASE}/webhook` }, 1, BASE)).toEqual({
      ok: false,
      problem: 'page_next: must be a URL with a page_cursor',
    });
    expect(nextPageOf({ data: ids(1), page_next: 'http://[' }, 1, BASE).ok).toBe(false);
  });
});
