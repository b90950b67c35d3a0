/**
 * The bank may leave out any field but an object's id (conventions.md "What a client must
 * tolerate"), yet the cache's sort and filter columns are NOT NULL (migrations 1 and 4). So a
 * field the bank did not send (or sent as null) is stored in its column as a key that is never
 * a real value: the empty text, which sorts before every date and id and matches no filter,
 * and for an amount the smallest safe integer, so it sorts last under "largest" and first
 * under "smallest". The record itself is stored as the bank sent it, so the screens still
 * tell "not sent" from null.
 */
import { centsOf } from './money.ts';

const ABSENT_TEXT = '';
const ABSENT_CENTS = Number.MIN_SAFE_INTEGER;

export function textKeyOf(value: string | null | undefined): string {
  return value ?? ABSENT_TEXT;
}

export function centsKeyOf(amount: string | null | undefined): number {
  return amount === null || amount === undefined ? ABSENT_CENTS : centsOf(amount);
}

/** A count the bank did not send (an attempt number): -1, below every real count. */
const ABSENT_COUNT = -1;

export function countKeyOf(value: number | null | undefined): number {
  return value ?? ABSENT_COUNT;
}
