/**
 * How a field of a bank record reads on a screen, in a CSV or in `ledger`'s tables: the bank may
 * leave any field out or send it as null (conventions.md "What a client must tolerate"), and a
 * reader must tell the two apart from a real value. One place says how, for every surface.
 */
export const NOT_SENT_TEXT = 'not sent by the bank';
export const NULL_TEXT = '—';

/** "not sent by the bank" for a missing field, "—" for null, the value's own text otherwise. */
export function shownField(value: unknown): string {
  if (value === undefined) return NOT_SENT_TEXT;
  if (value === null) return NULL_TEXT;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}
