import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../src/sandbox/pendingTransactions/cursor.ts';

describe('pending transaction cursor', () => {
  const key = 'k'.repeat(64);

  it('round-trips the position for its account, and looks opaque', () => {
    const cursor = encodeCursor('acct_abc', 4242, key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('acct_abc');
    expect(decodeCursor(cursor, 'acct_abc', key)).toEqual({ ok: true, position: 4242 });
  });

  it('refuses a cursor of another account, another key, or one edited by hand', () => {
    const cursor = encodeCursor('acct_abc', 10, key);
    expect(decodeCursor(cursor, 'acct_other', key)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/another account/) as unknown,
    });
    expect(decodeCursor(cursor, 'acct_abc', 'x'.repeat(64)).ok).toBe(false);
    const [payload = '', signature = ''] = cursor.split('.');
    const edited = Buffer.from(Buffer.from(payload, 'base64url').toString().replace('10', '11')).toString('base64url');
    expect(decodeCursor(`${edited}.${signature}`, 'acct_abc', key).ok).toBe(false);
    for (const junk of ['', 'abc', 'a.b.c', '....', 'whsend_123', `${payload}.`, `.${signature}`]) {
      expect(decodeCursor(junk, 'acct_abc', key).ok).toBe(false);
    }
  });

  it('handles account ids with colons', () => {
    expect(decodeCursor(encodeCursor('acct:odd:id', 7, key), 'acct:odd:id', key)).toEqual({ ok: true, position: 7 });
  });
});
