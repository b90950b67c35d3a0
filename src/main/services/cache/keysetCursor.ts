/**
 * Opaque page cursors for keyset pagination: the sort key and tie-breaker of the last row,
 * plus a fingerprint of the query, so a cursor is refused by any other query instead of
 * silently skipping rows. Callers treat them as strings and pass them back unchanged.
 */
import { createHash } from 'node:crypto';
import { CacheError } from './cacheError.ts';

export type KeyValue = string | number | null;

interface CursorContent {
  /** Query fingerprint. */
  q: string;
  /** Sort value and tie-breaker of the last row served. */
  k: [KeyValue, string];
}

/** The error for a cursor this cache did not make (or one edited since). */
export function notOurCursor(): CacheError {
  return new CacheError('bad-cursor', 'That page cursor is not one this cache made: start again from the first page.');
}

/** A whole number a cursor carried as text (a rowid, an attempt number), or notOurCursor. */
export function wholeNumberOf(text: string): number {
  if (!/^[0-9]{1,15}$/.test(text)) throw notOurCursor();
  return Number(text);
}

export function fingerprintOf(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 12);
}

export function encodeCursor(fingerprint: string, sortValue: KeyValue, tieBreaker: string): string {
  const content: CursorContent = { q: fingerprint, k: [sortValue, tieBreaker] };
  return Buffer.from(JSON.stringify(content), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, fingerprint: string): [KeyValue, string] {
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    content = null;
  }
  if (
    typeof content !== 'object' ||
    content === null ||
    !('q' in content) ||
    !('k' in content) ||
    !Array.isArray(content.k) ||
    content.k.length !== 2 ||
    typeof content.k[1] !== 'string' ||
    (!['string', 'number'].includes(typeof content.k[0]) && content.k[0] !== null)
  ) {
    throw notOurCursor();
  }
  if (content.q !== fingerprint) {
    throw new CacheError(
      'bad-cursor',
      'That page cursor belongs to another query (filters or sort changed): start again from the first page.',
    );
  }
  return content.k as [KeyValue, string];
}

/** A tie-breaker made of two values (when the sort value alone repeats often), for encodeCursor. */
export function tieOf(first: string, second: string): string {
  return JSON.stringify([first, second]);
}

/** The two values of a tie-breaker made by tieOf. */
export function decodeTie(tieBreaker: string): [string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(tieBreaker);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') {
    throw notOurCursor();
  }
  return [parsed[0], parsed[1]];
}
