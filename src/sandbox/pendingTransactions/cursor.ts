/**
 * Pending transactions have no id (spec §2.1), so their page_cursor is opaque: the account
 * and the position of the last row seen, signed with a key kept in the data file. A cursor
 * from another account, another list, or made up by hand is refused, not silently misread.
 * Positions never move (new rows are appended above), so a cursor stays valid while rows
 * arrive: the next page continues exactly where the previous one ended.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'pt1';
const SIGNATURE_BYTES = 9;

function signatureOf(payload: string, key: string): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, SIGNATURE_BYTES);
}

export function encodeCursor(accountId: string, position: number, key: string): string {
  const payload = `${VERSION}:${accountId}:${String(position)}`;
  return `${Buffer.from(payload).toString('base64url')}.${signatureOf(payload, key).toString('base64url')}`;
}

export type CursorCheck = { ok: true; position: number } | { ok: false; reason: string };

export function decodeCursor(cursor: string, accountId: string, key: string): CursorCheck {
  const unknown: CursorCheck = {
    ok: false,
    reason: `page_cursor ${JSON.stringify(cursor)} is not a cursor this list issued`,
  };
  const [encoded = '', signature = '', ...rest] = cursor.split('.');
  if (rest.length > 0 || !/^[A-Za-z0-9_-]+$/.test(encoded) || !/^[A-Za-z0-9_-]+$/.test(signature)) return unknown;
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(payload, key);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return unknown;
  const match = /^pt1:(.+):([0-9]{1,15})$/.exec(payload);
  if (match === null) return unknown;
  if (match[1] !== accountId) {
    return {
      ok: false,
      reason: `page_cursor belongs to the pending transactions of another account, not ${accountId}`,
    };
  }
  return { ok: true, position: Number(match[2]) };
}
