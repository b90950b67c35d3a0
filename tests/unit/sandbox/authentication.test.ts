import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../../../src/sandbox/auth/authenticate.ts';
import { mintToken, verifyToken } from '../../../src/sandbox/auth/jwt.ts';

describe('sandbox JWT', () => {
  it('verifies its own HS256 tokens and reads the claims', () => {
    const now = Date.UTC(2025, 0, 1);
    const check = verifyToken(mintToken('key_a', 'secret_a', 60, now), 'secret_a', now + 1000);
    expect(check).toEqual({ ok: true, claims: { sub: 'key_a', iat: now / 1000, exp: now / 1000 + 60 } });
  });

  it('refuses expiry at the exact second, other secrets, and broken parts', () => {
    const now = Date.UTC(2025, 0, 1);
    const token = mintToken('key_a', 'secret_a', 60, now);
    expect(verifyToken(token, 'secret_a', now + 60_000).ok).toBe(false);
    expect(verifyToken(token, 'secret_b', now).ok).toBe(false);
    expect(verifyToken(token + 'x', 'secret_a', now).ok).toBe(false);
    expect(verifyToken('a.b', 'secret_a', now).ok).toBe(false);
    expect(verifyToken(`${token.split('.').slice(0, 2).join('.')}.`, 'secret_a', now).ok).toBe(false);
  });
});

describe('sandbox authenticator', () => {
  const auth = createAuthenticator({ keyId: 'key_a', keySecret: 'secret_a' });
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

  it('accepts Basic and Bearer, case-insensitive scheme, and says which', () => {
    expect(auth.authenticate(basic('key_a:secret_a'))).toEqual({ ok: true, keyId: 'key_a', scheme: 'basic' });
    expect(auth.authenticate(`basic ${Buffer.from('key_a:secret_a').toString('base64')}`).ok).toBe(true);
    expect(auth.authenticate(`Bearer ${mintToken('key_a', 'secret_a', 60)}`)).toMatchObject({ scheme: 'bearer' });
  });

  it('accepts a secret that contains a colon', () => {
    const withColon = createAuthenticator({ keyId: 'key_b', keySecret: 'se:cret:b' });
    expect(withColon.authenticate(basic('key_b:se:cret:b')).ok).toBe(true);
  });

  it('takes only Basic for token issuance', () => {
    expect(auth.checkBasic(`Bearer ${mintToken('key_a', 'secret_a', 60)}`).ok).toBe(false);
    expect(auth.checkBasic(basic('key_a:secret_a')).ok).toBe(true);
  });
});
