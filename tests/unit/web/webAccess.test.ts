/**
 * Web mode's door: one Host of ours (400, 421), Origin and Sec-Fetch-Site (403), the session
 * cookie (401), and on the socket the tab key too (401: W1); the one-time sign-in tokens, a new
 * one minted for `serve --token`, one sign-in at a time.
 */
import { describe, expect, it } from 'vitest';
import { cookieValue, offeredProtocols, WebAccess, type SignIn } from '../../../src/main/web/webAccess.ts';

const origin = 'http://127.0.0.1:5123';
const host = '127.0.0.1:5123';

/** Bytes counted out: the first token is all 1s, then each new secret the next byte value. */
function counting(): (size: number) => Buffer {
  let next = 1;
  return (size) => {
    const bytes = Buffer.alloc(size, next);
    next += 1;
    return bytes;
  };
}

function access(secure = false): WebAccess {
  return new WebAccess({ hosts: [host], origin, random: counting(), secure });
}

function signedIn(door: WebAccess): SignIn {
  const signIn = door.exchange(door.token);
  if (signIn === null) throw new Error('the first token did not sign in');
  return signIn;
}

function cookieOf(signIn: SignIn): string {
  return signIn.cookieHeader.split(';')[0] ?? '';
}

function socketHeaders(signIn: SignIn, tabKey = signIn.tabKey) {
  return { host, origin, cookie: cookieOf(signIn), 'sec-websocket-protocol': `ledgerdesk, ledgerdesk-tab.${tabKey}` };
}

describe('WebAccess', () => {
  it.each(['localhost:5123', 'evil.example:5123', '127.0.0.1:5124', '127.0.0.1', '[::1]:5123', '', 'a b:5123'])(
    'refuses Host %j with 421, cookie or not',
    (other) => {
      const door = access();
      const signIn = signedIn(door);
      expect(door.check({ host: other, cookie: cookieOf(signIn) })).toEqual({ allowed: false, status: 421 });
    },
  );

  it('refuses two Host headers with 400 even when ours comes first (review I-W1)', () => {
    const door = access();
    const signIn = signedIn(door);
    const headers = { host, cookie: cookieOf(signIn) };
    expect(door.check(headers, ['Host', host, 'Host', 'evil.example:1', 'Cookie', cookieOf(signIn)])).toEqual({
      allowed: false,
      status: 400,
    });
    expect(door.checkSocket(socketHeaders(signIn), ['Host', host, 'host', host])).toEqual({
      allowed: false,
      status: 400,
    });
    expect(door.check(headers, ['Host', host, 'Cookie', cookieOf(signIn)])).toEqual({ allowed: true });
  });

  it('refuses another page by Origin or Sec-Fetch-Site with 403, even with the cookie', () => {
    const door = access();
    const cookie = cookieOf(signedIn(door));
    expect(door.check({ host, cookie, origin: 'http://127.0.0.1:9999' })).toEqual({ allowed: false, status: 403 });
    expect(door.check({ host, cookie, origin: 'null' })).toEqual({ allowed: false, status: 403 });
    expect(door.check({ host, cookie, 'sec-fetch-site': 'same-site' })).toEqual({ allowed: false, status: 403 });
    expect(door.check({ host, cookie, 'sec-fetch-site': 'cross-site' })).toEqual({ allowed: false, status: 403 });
    expect(door.check({ host, cookie, origin, 'sec-fetch-site': 'same-origin' })).toEqual({ allowed: true });
  });

  it('needs the session cookie (401), and nothing before a sign-in', () => {
    const door = access();
    expect(door.check({ host, cookie: 'ledgerdesk_session=' })).toEqual({ allowed: false, status: 401 });
    const signIn = signedIn(door);
    expect(door.check({ host })).toEqual({ allowed: false, status: 401 });
    expect(door.check({ host, cookie: `ledgerdesk_session=${signIn.tabKey}` })).toEqual({
      allowed: false,
      status: 401,
    });
    expect(door.check({ host, cookie: `other=1; ${cookieOf(signIn)}` })).toEqual({ allowed: true });
  });

  it('opens the socket only with the cookie and the tab key, never the cookie alone (W1)', () => {
    const door = access();
    const signIn = signedIn(door);
    expect(door.checkSocket(socketHeaders(signIn))).toEqual({ allowed: true, signIn: signIn.id });
    // What a browser hands another port of this host: the cookie.
    expect(door.checkSocket({ host, origin, cookie: cookieOf(signIn) })).toEqual({ allowed: false, status: 401 });
    expect(
      door.checkSocket({ host, origin, cookie: cookieOf(signIn), 'sec-websocket-protocol': 'ledgerdesk' }),
    ).toEqual({ allowed: false, status: 401 });
    // A made-up key, the cookie offered as the key, the key without its cookie.
    expect(door.checkSocket(socketHeaders(signIn, 'A'.repeat(43)))).toEqual({ allowed: false, status: 401 });
    expect(door.checkSocket(socketHeaders(signIn, cookieOf(signIn).split('=')[1]))).toEqual({
      allowed: false,
      status: 401,
    });
    expect(door.checkSocket({ ...socketHeaders(signIn), cookie: 'ledgerdesk_session=x' })).toEqual({
      allowed: false,
      status: 401,
    });
    expect(door.holdsTabKey(signIn.tabKey)).toBe(true);
    expect(door.holdsTabKey(undefined)).toBe(false);
  });

  it('exchanges a token once, for an HttpOnly SameSite=Strict cookie and a tab key, neither of them the token', () => {
    const door = access();
    const token = door.token;
    expect(Buffer.from(token, 'base64url')).toEqual(Buffer.alloc(32, 1));
    expect(door.exchange(null)).toBeNull();
    expect(door.exchange('A'.repeat(43))).toBeNull();
    const signIn = door.exchange(token);
    expect(signIn?.cookieHeader).toBe(
      `ledgerdesk_session=${Buffer.alloc(32, 2).toString('base64url')}; Path=/; HttpOnly; SameSite=Strict`,
    );
    expect(signIn?.tabKey).toBe(Buffer.alloc(32, 3).toString('base64url'));
    expect(door.exchange(token)).toBeNull();
    expect(door.token).toBe('');
  });

  it('marks the cookie Secure over TLS (W3)', () => {
    expect(signedIn(access(true)).cookieHeader).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('mints a new one-time token: the older unused one stops, and exchanging it ends the sign-in before', () => {
    const door = access();
    const first = door.token;
    const replacement = door.mintSignInToken();
    expect(replacement).not.toBe(first);
    expect(door.exchange(first)).toBeNull();
    const older = door.exchange(replacement);
    if (older === null) throw new Error('the minted token did not sign in');
    const announced: number[] = [];
    door.onSignIn((signIn) => announced.push(signIn.id));
    // The browser signed in keeps working while a new token waits.
    const waiting = door.mintSignInToken();
    expect(door.checkSocket(socketHeaders(older)).allowed).toBe(true);
    const newer = door.exchange(waiting);
    if (newer === null) throw new Error('the second minted token did not sign in');
    expect(announced).toEqual([newer.id]);
    expect(door.currentSignIn).toBe(newer.id);
    expect(door.checkSocket(socketHeaders(older))).toEqual({ allowed: false, status: 401 });
    expect(door.check({ host, cookie: cookieOf(older) })).toEqual({ allowed: false, status: 401 });
    expect(door.checkSocket(socketHeaders(newer))).toEqual({ allowed: true, signIn: newer.id });
    expect(door.exchange(waiting)).toBeNull();
  });

  it('makes fresh 256-bit secrets per run', () => {
    const a = new WebAccess({ hosts: ['127.0.0.1:1'], origin: 'http://127.0.0.1:1' });
    const b = new WebAccess({ hosts: ['127.0.0.1:1'], origin: 'http://127.0.0.1:1' });
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32);
    expect(a.token).not.toBe(b.token);
    const signIn = a.exchange(a.token);
    expect(Buffer.from(signIn?.tabKey ?? '', 'base64url')).toHaveLength(32);
  });

  it('reads one cookie out of a Cookie header, and the subprotocols an upgrade offers', () => {
    expect(cookieValue('a=1; b=2', 'b')).toBe('2');
    expect(cookieValue('a=1', 'b')).toBeNull();
    expect(cookieValue(undefined, 'b')).toBeNull();
    expect(offeredProtocols(' ledgerdesk ,ledgerdesk-tab.abc,')).toEqual(['ledgerdesk', 'ledgerdesk-tab.abc']);
    expect(offeredProtocols(undefined)).toEqual([]);
  });
});
