/**
 * Credentials: the only layer that reads secrets. A profile's secret (API key secret or
 * bearer token) leaves it only inside an Authorization header value; the cache's data key
 * only to the cache's cipher; a listener's expected secret is written here and read by the
 * listener itself. Nothing here logs or returns a secret by itself.
 */
import { randomBytes } from 'node:crypto';
import type { AuthScheme } from '../profiles/profile.ts';
import type { SecretStore } from './secretStore.ts';

export class MissingCredentials extends Error {
  readonly profileName: string;
  constructor(profileName: string, what: string) {
    super(`Profile ${profileName} has no ${what} in the keychain: set it in the profile's settings.`);
    this.name = 'MissingCredentials';
    this.profileName = profileName;
  }
}

export class InvalidSecret extends Error {
  constructor(reason: string) {
    super(`That secret cannot be used: ${reason}.`);
    this.name = 'InvalidSecret';
  }
}

/** What the credentials layer needs to know about a profile. */
export interface ProfileIdentity {
  id: string;
  name: string;
  authScheme: AuthScheme;
  keyId: string | null;
}

/** An Authorization header value, and for a JWT its expiry (read, not verified). */
export interface Authorization {
  header: string;
  /** ISO time the bearer token expires, when it says so; null for Basic or unknown. */
  expiresAt: string | null;
}

interface SessionCredentials {
  keyId: string;
  secret: string;
}

const DATA_KEY_BYTES = 32;

export function profileAccount(profileId: string): string {
  return `profile:${profileId}`;
}
export function listenerAccount(listenerId: string): string {
  return `listener:${listenerId}`;
}
export function cacheDataKeyAccount(cacheId: string): string {
  return `cache:data-key:${cacheId}`;
}

function checkSecret(secret: string): void {
  if (secret.length === 0) throw new InvalidSecret('it is empty');
  if (/[\r\n\0]/.test(secret)) throw new InvalidSecret('it contains a line break or a NUL character');
  if (secret.trim() !== secret) throw new InvalidSecret('it starts or ends with spaces');
}

function basicHeader(user: string, secret: string): string {
  return `Basic ${Buffer.from(`${user}:${secret}`, 'utf8').toString('base64')}`;
}

/** The `exp` claim of a JWT, without verifying it: only to say "expired" clearly. */
function jwtExpiry(token: string): string | null {
  const payload = token.split('.')[1];
  if (payload === undefined) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    if (typeof claims === 'object' && claims !== null && 'exp' in claims && typeof claims.exp === 'number') {
      return new Date(claims.exp * 1000).toISOString();
    }
  } catch {
    // Not a JWT we can read: the server will judge it.
  }
  return null;
}

export class Credentials {
  readonly #store: SecretStore;
  /** Per-run credentials of the embedded sandbox, never written anywhere. */
  readonly #session = new Map<string, SessionCredentials>();

  constructor(store: SecretStore) {
    this.#store = store;
  }

  async setProfileSecret(profileId: string, secret: string): Promise<void> {
    checkSecret(secret);
    await this.#store.set(profileAccount(profileId), secret);
  }

  async hasProfileSecret(profileId: string): Promise<boolean> {
    return this.#session.has(profileId) || (await this.#store.has(profileAccount(profileId)));
  }

  async deleteProfileSecret(profileId: string): Promise<boolean> {
    return this.#store.delete(profileAccount(profileId));
  }

  /** The embedded sandbox's key for this run: kept in memory only, gone when the app quits. */
  useSessionCredentials(profileId: string, keyId: string, secret: string): void {
    checkSecret(secret);
    this.#session.set(profileId, { keyId, secret });
  }

  forgetSessionCredentials(profileId: string): void {
    this.#session.delete(profileId);
  }

  async authorizationFor(profile: ProfileIdentity): Promise<Authorization> {
    const session = this.#session.get(profile.id);
    if (session !== undefined) return { header: basicHeader(session.keyId, session.secret), expiresAt: null };
    const secret = await this.#store.get(profileAccount(profile.id));
    if (profile.authScheme === 'bearer') {
      if (secret === null) throw new MissingCredentials(profile.name, 'bearer token');
      return { header: `Bearer ${secret}`, expiresAt: jwtExpiry(secret) };
    }
    if (profile.keyId === null) throw new MissingCredentials(profile.name, 'API key id');
    if (secret === null) throw new MissingCredentials(profile.name, 'API key secret');
    return { header: basicHeader(profile.keyId, secret), expiresAt: null };
  }

  /**
   * The secret of the Basic credentials a listener expects from the bank (spec §5, inbound
   * webhooks). The user name lives in the listener's settings; the listener reads the secret
   * through the same SecretStore account (`listener:<id>`) when it starts.
   */
  async setListenerSecret(listenerId: string, secret: string): Promise<void> {
    checkSecret(secret);
    await this.#store.set(listenerAccount(listenerId), secret);
  }

  async hasListenerSecret(listenerId: string): Promise<boolean> {
    return this.#store.has(listenerAccount(listenerId));
  }

  async deleteListenerSecret(listenerId: string): Promise<boolean> {
    return this.#store.delete(listenerAccount(listenerId));
  }

  /** The cache's data key, or null when the keychain has none (lost, or never made). */
  async readCacheDataKey(cacheId: string): Promise<Buffer | null> {
    const stored = await this.#store.get(cacheDataKeyAccount(cacheId));
    if (stored === null) return null;
    const key = Buffer.from(stored, 'base64');
    return key.length === DATA_KEY_BYTES ? key : null;
  }

  /** A fresh random data key, stored before it is used: never a constant or derived key. */
  async createCacheDataKey(cacheId: string): Promise<Buffer> {
    const key = randomBytes(DATA_KEY_BYTES);
    await this.#store.set(cacheDataKeyAccount(cacheId), key.toString('base64'));
    return key;
  }

  async deleteCacheDataKey(cacheId: string): Promise<boolean> {
    return this.#store.delete(cacheDataKeyAccount(cacheId));
  }
}
