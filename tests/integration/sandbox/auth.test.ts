/** Spec §5: Basic and Bearer, and every way to get it wrong (each a 401 with a reason). */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../../src/sandbox/auth/jwt.ts';
import { basicOf, request, startClient, type SandboxClient } from './sandboxClient.ts';

function segment(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('sandbox authentication', () => {
  let client: SandboxClient;
  let account = '';
  const path = () => `/account/${account}/pending_transaction?page_size=1`;
  const asked = (authorization?: string) =>
    request(client.sandbox.baseUrl + path(), { headers: authorization === undefined ? {} : { authorization } });

  beforeAll(async () => {
    client = await startClient({ keyId: 'key_test', keySecret: 'secret_for_tests' });
    account = client.sandbox.demo.accounts[0] ?? '';
  });
  afterAll(async () => {
    await client.sandbox.close();
  });

  it('accepts Basic with the key id and secret, and the demo bearer token', async () => {
    expect((await asked(basicOf('key_test', 'secret_for_tests'))).status).toBe(200);
    expect((await asked(`Bearer ${client.sandbox.bearerToken}`)).status).toBe(200);
  });

  it('answers GET /ping without credentials', async () => {
    const reply = await request(`${client.sandbox.baseUrl}/ping`, {});
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate');
  });

  const refusals: [string, () => string | undefined, RegExp][] = [
    ['no Authorization header', () => undefined, /Authentication required/],
    ['an empty Authorization header', () => '', /Authentication required/],
    ['an unknown scheme', () => 'Digest abc', /scheme "Digest" is not supported/],
    ['a scheme with no credentials', () => 'Basic', /must be "Basic <credentials>"/],
    ['a wrong secret', () => basicOf('key_test', 'wrong_secret'), /key id or secret is wrong/],
    ['a wrong key id', () => basicOf('key_other', 'secret_for_tests'), /key id or secret is wrong/],
    ['malformed base64 in Basic', () => 'Basic %%%not-base64%%%', /not valid base64/],
    ['Basic without a colon', () => `Basic ${Buffer.from('justonepart').toString('base64')}`, /key_id:key_secret/],
    ['a bearer token that is not a JWT', () => 'Bearer abc.def', /not a JWT/],
    ['malformed base64 in a JWT', () => 'Bearer e%y.e%y.sig', /malformed/],
    [
      'an unsigned token (alg none)',
      () =>
        `Bearer ${segment({ alg: 'none', typ: 'JWT' })}.${segment({ sub: 'key_test', iat: 1, exp: 9_999_999_999 })}.`,
      /algorithm "none" is not accepted/,
    ],
    [
      'a token with a bad signature',
      () => {
        const [header, payload] = mintToken('key_test', 'secret_for_tests', 600).split('.');
        return `Bearer ${header ?? ''}.${payload ?? ''}.${Buffer.alloc(32, 7).toString('base64url')}`;
      },
      /signature is not valid/,
    ],
    [
      'a tampered payload',
      () => {
        const [header, , signature] = mintToken('key_test', 'secret_for_tests', 600).split('.');
        return `Bearer ${header ?? ''}.${segment({ sub: 'key_test', iat: 1, exp: 9_999_999_999 })}.${signature ?? ''}`;
      },
      /signature is not valid/,
    ],
    [
      'a token signed with another secret',
      () => `Bearer ${mintToken('key_test', 'some_other_secret', 600)}`,
      /signature is not valid/,
    ],
    [
      'an expired token',
      () => `Bearer ${mintToken('key_test', 'secret_for_tests', 60, Date.now() - 3_600_000)}`,
      /expired/,
    ],
    [
      'an HS512 token',
      () => {
        const signingInput = `${segment({ alg: 'HS512', typ: 'JWT' })}.${segment({ sub: 'key_test', iat: 1, exp: 9_999_999_999 })}`;
        return `Bearer ${signingInput}.${createHmac('sha512', 'secret_for_tests').update(signingInput).digest('base64url')}`;
      },
      /algorithm "HS512" is not accepted/,
    ],
    ['a token for another key', () => `Bearer ${mintToken('key_other', 'secret_for_tests', 600)}`, /another API key/],
  ];

  for (const [what, header, reason] of refusals) {
    it(`refuses ${what} with 401 and a reason`, async () => {
      const reply = await asked(header());
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toContain('Basic');
      expect(reply.headers.get('content-type')).toBe('application/json;charset=utf-8');
      expect((reply.body as { error: string }).error).toMatch(reason);
    });
  }

  it('never echoes a secret in a refusal', async () => {
    const reply = await asked(basicOf('key_test', 'a-secret-that-must-not-leak'));
    expect(reply.text).not.toContain('a-secret-that-must-not-leak');
  });

  it('mints bearer tokens at POST /auth/token with Basic, and they work', async () => {
    const minted = await request(`${client.sandbox.baseUrl}/auth/token`, {
      method: 'POST',
      headers: { authorization: basicOf('key_test', 'secret_for_tests') },
    });
    expect(minted.status).toBe(200);
    const token = minted.body as { access_token: string; token_type: string; expires_in: number };
    expect(token.token_type).toBe('Bearer');
    expect(token.expires_in).toBe(3600);
    expect((await asked(`Bearer ${token.access_token}`)).status).toBe(200);

    const short = await request(`${client.sandbox.baseUrl}/auth/token`, {
      method: 'POST',
      headers: { authorization: basicOf('key_test', 'secret_for_tests'), 'content-type': 'application/json' },
      body: JSON.stringify({ expires_in: 60 }),
    });
    expect((short.body as { expires_in: number }).expires_in).toBe(60);
  });

  it('refuses POST /auth/token without Basic, with a bearer token, or with a bad lifetime', async () => {
    const url = `${client.sandbox.baseUrl}/auth/token`;
    expect((await request(url, { method: 'POST' })).status).toBe(401);
    const withBearer = await request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.sandbox.bearerToken}` },
    });
    expect(withBearer.status).toBe(401);
    const wrong = await request(url, { method: 'POST', headers: { authorization: basicOf('key_test', 'nope_nope') } });
    expect(wrong.status).toBe(401);
    const badLifetime = await request(url, {
      method: 'POST',
      headers: { authorization: basicOf('key_test', 'secret_for_tests'), 'content-type': 'application/json' },
      body: JSON.stringify({ expires_in: 0 }),
    });
    expect(badLifetime.status).toBe(400);
    expect((badLifetime.body as { error: string }).error).toMatch(/expires_in/);
  });
});
