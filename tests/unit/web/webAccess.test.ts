/** Web mode's door: Host (421), Origin and Sec-Fetch-Site (403), the session cookie (401), the one-time token. */
import { describe, expect, it } from 'vitest';
import { cookieValue, WebAccess } from '../../../src/main/web/webAccess.ts';

const origin = 'http://127.0.0.1:5123';
const token = Buffer.alloc(32, 7);
const cookie = Buffer.alloc(32, 9);
const session = `ledgerdesk_session=${cookie.toString('base64url')}`;

function access(): WebAccess {
  return new WebAccess({ hosts: ['127.0.0.1:5123'], origin, token, cookie });
}

describe('WebAccess', () => {
  it.each(['localhost:5123', 'evil.example:5123', '127.0.0.1:5124', '127.0.0.1', '[::1]:5123', '', 'a b:5123'])(
    'refuses Host %j with 421, cookie or not',
    (host) => {
      expect(access().check({ host, cookie: session })).toEqual({ allowed: false, status: 421 });
    },
  );

  it('refuses another page by Origin or Sec-Fetch-Site with 403, even with the cookie', () => {
    const door = access();
    const host = '127.0.0.1:5123';
    expect(door.check({ host, cookie: session, origin: 'http://127.0.0.1:9999' })).toEqual({
      allowed: false,
      status: 403,
    });
    expect(door.check({ host, cookie: session, origin: 'null' })).toEqual({ allowed: false, status: 403 });
    expect(door.check({ host, cookie: session, 'sec-fetch-site': 'same-site' })).toEqual({
      allowed: false,
      status: 403,
    });
    expect(door.check({ host, cookie: session, 'sec-fetch-site': 'cross-site' })).toEqual({
      allowed: false,
      status: 403,
    });
    expect(door.check({ host, cookie: session, origin, 'sec-fetch-site': 'same-origin' })).toEqual({ allowed: true });
  });

  it('needs the session cookie (401) and accepts nothing like it', () => {
    const door = access();
    const host = '127.0.0.1:5123';
    expect(door.check({ host })).toEqual({ allowed: false, status: 401 });
    expect(door.check({ host, cookie: 'ledgerdesk_session=' })).toEqual({ allowed: false, status: 401 });
    expect(door.check({ host, cookie: `ledgerdesk_session=${token.toString('base64url')}` })).toEqual({
      allowed: false,
      status: 401,
    });
    expect(door.check({ host, cookie: `other=1; ${session}` })).toEqual({ allowed: true });
  });

  it('exchanges the token once, for an HttpOnly SameSite=Strict cookie that is not the token', () => {
    const door = access();
    expect(door.exchange(null)).toBe(false);
    expect(door.exchange('A'.repeat(43))).toBe(false);
    expect(door.exchange(token.toString('base64url'))).toBe(true);
    expect(door.exchange(token.toString('base64url'))).toBe(false);
    const header = door.sessionCookieHeader();
    expect(header).toBe(`${session}; Path=/; HttpOnly; SameSite=Strict`);
    expect(header).not.toContain(token.toString('base64url'));
  });

  it('makes a fresh 256-bit token and cookie per run', () => {
    const a = new WebAccess({ hosts: ['127.0.0.1:1'], origin: 'http://127.0.0.1:1' });
    const b = new WebAccess({ hosts: ['127.0.0.1:1'], origin: 'http://127.0.0.1:1' });
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32);
    expect(a.token).not.toBe(b.token);
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(cookieValue('a=1; b=2', 'b')).toBe('2');
    expect(cookieValue('a=1', 'b')).toBeNull();
    expect(cookieValue(undefined, 'b')).toBeNull();
  });
});
