import { describe, expect, it } from 'vitest';
import {
  Credentials,
  InvalidSecret,
  MissingCredentials,
  SecretNeedsReentry,
} from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';

const basicProfile = {
  id: 'prof_1',
  name: 'Staging',
  authScheme: 'basic' as const,
  keyId: 'key_1',
  baseUrl: 'https://sandbox.bank.example/v1',
};
const bearerProfile = {
  id: 'prof_2',
  name: 'Prod',
  authScheme: 'bearer' as const,
  keyId: null,
  baseUrl: 'https://api.bank.example',
};

function jwt(expiresAtSeconds: number): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'key_1', exp: expiresAtSeconds })}.signature`;
}

describe('Credentials', () => {
  it('gives the secret out only inside an Authorization header', async () => {
    const store = new InMemorySecretStore();
    const credentials = new Credentials(store);
    await credentials.setProfileSecret(basicProfile, 's3cret-value');
    expect(await credentials.profileSecretState(basicProfile)).toBe('set');
    const authorization = await credentials.authorizationFor(basicProfile);
    expect(authorization.header).toBe(`Basic ${Buffer.from('key_1:s3cret-value').toString('base64')}`);
    expect(JSON.parse((await store.get('profile:prof_1')) ?? '')).toMatchObject({
      origin: 'https://sandbox.bank.example',
      authScheme: 'basic',
      secret: 's3cret-value',
    });
    expect(Object.getOwnPropertyNames(Credentials.prototype)).not.toContain('getProfileSecret');
  });

  it('builds Bearer headers and reads the token expiry without verifying it', async () => {
    const credentials = new Credentials(new InMemorySecretStore());
    const token = jwt(1_700_000_000);
    await credentials.setProfileSecret(bearerProfile, token);
    expect(await credentials.authorizationFor(bearerProfile)).toEqual({
      header: `Bearer ${token}`,
      expiresAt: '2023-11-14T22:13:20.000Z',
    });
  });

  it('says which secret is missing, naming the profile', async () => {
    const credentials = new Credentials(new InMemorySecretStore());
    await expect(credentials.authorizationFor(basicProfile)).rejects.toThrow(MissingCredentials);
    await expect(credentials.authorizationFor(bearerProfile)).rejects.toThrow(/Profile Prod has no bearer token/);
  });

  it('refuses secrets that would be mangled (empty, line breaks, padding) without echoing them', async () => {
    const credentials = new Credentials(new InMemorySecretStore());
    await expect(credentials.setProfileSecret(basicProfile, '')).rejects.toThrow(InvalidSecret);
    const error = await credentials.setProfileSecret(basicProfile, 'abc\ndef').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidSecret);
    expect((error as Error).message).not.toContain('abc');
    await expect(credentials.setProfileSecret(basicProfile, ' padded ')).rejects.toThrow(/spaces/);
    await expect(
      credentials.setProfileSecret({ ...basicProfile, baseUrl: 'not a url' }, 'fine-secret'),
    ).rejects.toThrow(/no valid base URL/);
  });

  it('replaces and deletes a profile secret', async () => {
    const credentials = new Credentials(new InMemorySecretStore());
    await credentials.setProfileSecret(basicProfile, 'first-secret');
    await credentials.setProfileSecret(basicProfile, 'second-secret');
    expect((await credentials.authorizationFor(basicProfile)).header).toContain(
      Buffer.from('key_1:second-secret').toString('base64'),
    );
    expect(await credentials.deleteProfileSecret(basicProfile.id)).toBe(true);
    expect(await credentials.profileSecretState(basicProfile)).toBe('missing');
  });

  it('gives a secret out only for the origin and auth scheme it was entered for', async () => {
    const store = new InMemorySecretStore();
    const used: string[] = [];
    const credentials = new Credentials(store, { onSecretUsed: (secret) => used.push(secret) });
    await credentials.setProfileSecret(basicProfile, 'bound-secret-1');
    // Another path on the same origin is the same bank.
    await expect(
      credentials.authorizationFor({ ...basicProfile, baseUrl: 'https://sandbox.bank.example/v2' }),
    ).resolves.toMatchObject({ header: expect.stringMatching(/^Basic /) as unknown });
    const elsewhere = [
      'https://evil.example/v1',
      'http://sandbox.bank.example/v1',
      'https://sandbox.bank.example:8443/v1',
      'https://sub.sandbox.bank.example/v1',
    ];
    for (const baseUrl of elsewhere) {
      const moved = { ...basicProfile, baseUrl };
      const refusal = await credentials.authorizationFor(moved).catch((caught: unknown) => caught);
      expect(refusal).toBeInstanceOf(SecretNeedsReentry);
      expect((refusal as Error).message).toContain('needs its secret again');
      expect((refusal as Error).message).not.toContain('bound-secret-1');
      expect(await credentials.profileSecretState(moved)).toBe('needs-reentry');
    }
    await expect(credentials.authorizationFor({ ...basicProfile, authScheme: 'bearer', keyId: null })).rejects.toThrow(
      /entered for basic authentication/,
    );
    expect(used).toEqual(['bound-secret-1']);
  });

  it('never uses a secret stored before secrets were bound to an origin', async () => {
    const store = new InMemorySecretStore();
    const credentials = new Credentials(store);
    await store.set('profile:prof_1', 'legacy-plain-secret');
    await expect(credentials.authorizationFor(basicProfile)).rejects.toThrow(/stored before secrets were bound/);
    expect(await credentials.profileSecretState(basicProfile)).toBe('needs-reentry');
    await store.set('profile:prof_1', JSON.stringify({ format: 'something-else', secret: 'x' }));
    expect(await credentials.profileSecretState(basicProfile)).toBe('needs-reentry');
  });

  it('keeps the embedded sandbox key in memory only', async () => {
    const store = new InMemorySecretStore();
    const credentials = new Credentials(store);
    credentials.useSessionCredentials('local-sandbox', 'key_demo', 'demo-secret-1', 'http://127.0.0.1:4010');
    const header = (
      await credentials.authorizationFor({
        id: 'local-sandbox',
        name: 'Local',
        authScheme: 'basic',
        keyId: null,
        baseUrl: 'http://127.0.0.1:4010',
      })
    ).header;
    expect(header).toBe(`Basic ${Buffer.from('key_demo:demo-secret-1').toString('base64')}`);
    expect(await store.has('profile:local-sandbox')).toBe(false);
    // Never to another origin, whatever the profile says (review N5).
    await expect(
      credentials.authorizationFor({
        id: 'local-sandbox',
        name: 'Local',
        authScheme: 'basic',
        keyId: null,
        baseUrl: 'http://127.0.0.1:4011',
      }),
    ).rejects.toThrow(/goes only to the embedded sandbox at http:\/\/127\.0\.0\.1:4010/);
  });

  it('stores a listener secret where the listener reads it', async () => {
    const store = new InMemorySecretStore();
    const credentials = new Credentials(store);
    await credentials.setListenerSecret('main', 'listener-secret');
    expect(await store.get('listener:main')).toBe('listener-secret');
    expect(await credentials.hasListenerSecret('main')).toBe(true);
    expect(await credentials.deleteListenerSecret('main')).toBe(true);
  });

  it('makes a random 32-byte data key per cache and never a fallback', async () => {
    const credentials = new Credentials(new InMemorySecretStore());
    expect(await credentials.readCacheDataKey('cache-a')).toBeNull();
    const first = await credentials.createCacheDataKey('cache-a');
    const second = await credentials.createCacheDataKey('cache-b');
    expect(first).toHaveLength(32);
    expect(first.equals(second)).toBe(false);
    expect((await credentials.readCacheDataKey('cache-a'))?.equals(first)).toBe(true);
  });
});
