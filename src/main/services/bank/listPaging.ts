/**
 * Where a list goes on after one page (conventions.md "Wire conventions" and "What a client
 * must tolerate"). The sandbox sends `page_next` (an absolute URL with `page_cursor`, or null
 * at the end); real list answers may send `{data, total_estimated}` or only `{data}`. So:
 * - `page_next` present: its `page_cursor` is the next cursor; null ends the list;
 * - `page_next` absent: a FULL page (as many items as asked for) pages on with
 *   `page_cursor` = the id of its last item, as the convention defines the cursor; a short
 *   page or an empty page ends the list; a full page whose last item has no id (a pending
 *   transaction has none) has no cursor to go on with: `no-cursor`, and the caller pages on by
 *   date (datePaging.ts) instead of taking the page for the whole list;
 * - an empty page always ends the list, whatever page_next says.
 * We never request page_next itself: the Authorization header goes only to the profile's own
 * base address, so only its cursor is taken.
 */
import { isDateStep } from './datePaging.ts';

export type NextPage =
  | { ok: true; cursor: string; how: 'page_next' | 'last-id' }
  | { ok: true; cursor: null; how: 'end' | 'no-cursor' }
  | { ok: false; problem: string };

export interface PageSeen {
  data: readonly unknown[];
  /** Absent (undefined) when the answer has no page_next key at all. */
  page_next?: string | null | undefined;
}

function lastIdOf(items: readonly unknown[]): string | null {
  const last = items.at(-1);
  if (typeof last !== 'object' || last === null || !('id' in last)) return null;
  return typeof last.id === 'string' && last.id !== '' ? last.id : null;
}

export function nextPageOf(page: PageSeen, pageSizeAsked: number, baseUrl: string): NextPage {
  if (page.data.length === 0) return { ok: true, cursor: null, how: 'end' };
  if (page.page_next === null) return { ok: true, cursor: null, how: 'end' };
  if (page.page_next === undefined) {
    if (page.data.length < pageSizeAsked) return { ok: true, cursor: null, how: 'end' };
    const cursor = lastIdOf(page.data);
    return cursor === null ? { ok: true, cursor: null, how: 'no-cursor' } : { ok: true, cursor, how: 'last-id' };
  }
  let cursor: string | null;
  try {
    cursor = new URL(page.page_next, baseUrl + '/').searchParams.get('page_cursor');
  } catch {
    cursor = null;
  }
  if (cursor === null || cursor === '' || isDateStep(cursor)) {
    return { ok: false, problem: 'page_next: must be a URL with a page_cursor' };
  }
  return { ok: true, cursor, how: 'page_next' };
}
