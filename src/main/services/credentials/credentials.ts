/**
 * Credentials: the only layer that reads secrets. A profile's secret (API key secret or
 * bearer token) leaves it only inside an Authorization header value; the cache's data key
 * only to the cache's cipher; a listener's expected secret is written here and read by the
 * listener itself. Nothing here logs or returns a secret by itself.
 */
import { randomBytes } from 'node:crypto';
import { originOf } from '../../../shared/profiles/profileFields.ts';
import type { AuthScheme } from '../profiles/profile.ts';
import { decodeStoredSecret, encodeBoundSecret } from './boundSecret.ts';
import type { SecretStore } from './secretStore.ts';
import { KeyLostButRecoverable, type KeyEscrow } from './recoveryEscrow.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export class MissingCredentials extends Error {
  readonly profileName: string;
  constructor(profileName: string, what: string) {
    super(`Profile ${profileName} has no ${what} in the keychain: set it in the profile's settings.`);
    this.name = 'MissingCredentials';
    this.profileName = profileName;
  }

  get answer(): ContractAnswer {
    return { code: 'unauthorized', action: 'Set the secret of this profile in Settings.' };
  }
}

/**
 * The stored secret was entered for another origin or auth scheme than the profile has now
 * (its address changed, or `config.json` was edited), or was stored before secrets were
 * bound to an origin. It is not sent anywhere until the user enters it again.
 */
export class SecretNeedsReentry extends Error {
  readonly profileName: string;
  constructor(profileName: string, reason: string) {
    super(
      `Profile ${profileName} needs its secret again (${reason}); nothing is sent until it is entered ` +
        'again in Settings or with `ledger profile update`.',
    );
    this.name = 'SecretNeedsReentry';
    this.profileName = profileName;
  }

  get answer(): ContractAnswer {
    return { code: 'unauthorized', action: "Enter the secret for the profile's current address in Settings." };
  }
}

export class InvalidSecret extends Error {
  constructor(reason: string) {
    super(`That secret cannot be used: ${reason}.`);
    this.name = 'InvalidSecret';
  }

  get answer(): ContractAnswer {
    return { code: 'invalid_input', field: 'secret' };
  }
}

/** What the credentials layer needs to know about a profile. */
export interface ProfileIdentity {
  id: string;
  name: string;
  authScheme: AuthScheme;
  keyId: string | null;
  /** Where the request goes: the secret is given out only for the origin it was entered for. */
  baseUrl: string | null;
}

/** Where a secret may be used: the origin and auth scheme it was entered for. */
export interface SecretBinding {
  id: string;
  authScheme: AuthScheme;
  baseUrl: string;
}

/**
 * A profile's secret, as far as the profile can see it without reading it out: set for
 * this origin, missing, or stored for something else (another origin or scheme, or from
 * before secrets were bound) and so waiting to be entered again.
 */
export type ProfileSecretState = 'set' | 'missing' | 'needs-reentry';

export interface CredentialsOptions {
  /**
   * Told each profile secret as it is handed to a request, so the IPC scrubber knows the
   * secrets stored in earlier sessions too (not only those entered in this one).
   */
  onSecretUsed?: (secret: string) => void;
  /**
   * The recovery escrow of the data folder (recoveryEscrow.ts): every key the record depends on
   * is sealed to the recovery key as it is made or first read, and a missing one that the escrow
   * holds is an error that names `ledger record recover`, never a silent new key. None (tests):
   * no escrow.
   */
  escrow?: KeyEscrow;
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
  /** The embedded sandbox's own origin: the only one these are sent to (review N5). */
  origin: string;
}

const DATA_KEY_BYTES = 32;

function profileAccount(profileId: string): string {
  return `profile:${profileId}`;
}
/** A profile's proxy password (Basic proxy authentication): the keychain's, never a file's. */
function proxyAccount(profileId: string): string {
  return `proxy:${profileId}`;
}
function listenerAccount(listenerId: string): string {
  return `listener:${listenerId}`;
}
export function cacheDataKeyAccount(cacheId: string): string {
  return `cache:data-key:${cacheId}`;
}
/** The officer's record's own key (record.sqlite, issue 34): one per record file, named by its record id. */
export function recordKeyAccount(recordId: string): string {
  return `record-key:${recordId}`;
}
/** The record's archive signing key (Ed25519, its 32-byte seed; record/recordArchiveSigning.ts), named by its record id. */
function recordSigningKeyAccount(recordId: string): string {
  return `record-signing-key:${recordId}`;
}
export function auditChainKeyAccount(cacheId: string): string {
  return `audit:chain-key:${cacheId}`;
}
export function auditChainHeadAccount(cacheId: string): string {
  return `audit:chain-head:${cacheId}`;
}
/** The record of a data folder's audit logs (audit/folderLogs.ts), named by the folder's key. */
export function auditFolderAccount(folderKey: string): string {
  return `audit:folder:${folderKey}`;
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
  readonly #onSecretUsed: (secret: string) => void;
  readonly #escrow: KeyEscrow | null;
  /** Per-run credentials of the embedded sandbox, never written anywhere. */
  readonly #session = new Map<string, SessionCredentials>();

  constructor(store: SecretStore, options: CredentialsOptions = {}) {
    this.#store = store;
    this.#onSecretUsed = options.onSecretUsed ?? (() => undefined);
    this.#escrow = options.escrow ?? null;
  }

  /** Stores the secret bound to the profile's current origin and auth scheme. */
  async setProfileSecret(profile: SecretBinding, secret: string): Promise<void> {
    checkSecret(secret);
    const origin = originOf(profile.baseUrl);
    if (origin === null) throw new InvalidSecret('the profile has no valid base URL to bind it to');
    await this.#store.set(
      profileAccount(profile.id),
      encodeBoundSecret({ origin, authScheme: profile.authScheme, secret }),
    );
  }

  async profileSecretState(profile: ProfileIdentity): Promise<ProfileSecretState> {
    if (this.#session.has(profile.id)) return 'set';
    const stored = await this.#store.get(profileAccount(profile.id));
    if (stored === null) return 'missing';
    return this.#mismatch(profile, stored) === null ? 'set' : 'needs-reentry';
  }

  async deleteProfileSecret(profileId: string): Promise<boolean> {
    return this.#store.delete(profileAccount(profileId));
  }

  /**
   * The embedded sandbox's key for this run: kept in memory only, gone when the app quits, and
   * sent only to `baseUrl`'s origin (the sandbox's own), whatever the profile says (review N5).
   */
  useSessionCredentials(profileId: string, keyId: string, secret: string, baseUrl: string): void {
    checkSecret(secret);
    const origin = originOf(baseUrl);
    if (origin === null) throw new InvalidSecret('the embedded sandbox has no valid address to bind it to');
    this.#session.set(profileId, { keyId, secret, origin });
  }

  forgetSessionCredentials(profileId: string): void {
    this.#session.delete(profileId);
  }

  /**
   * The Authorization header for one request to `profile.baseUrl`. Asked before every
   * attempt, so it is the last gate before the wire: a secret bound to another origin or
   * scheme throws here and no request is made.
   */
  async authorizationFor(profile: ProfileIdentity): Promise<Authorization> {
    const session = this.#session.get(profile.id);
    if (session !== undefined) {
      const origin = profile.baseUrl === null ? null : originOf(profile.baseUrl);
      if (origin !== session.origin) {
        throw new SecretNeedsReentry(
          profile.name,
          `the embedded sandbox's key goes only to the embedded sandbox at ${session.origin}, and the profile points at ${origin ?? 'no valid address'}`,
        );
      }
      return { header: basicHeader(session.keyId, session.secret), expiresAt: null };
    }
    const stored = await this.#store.get(profileAccount(profile.id));
    const what = profile.authScheme === 'bearer' ? 'bearer token' : 'API key secret';
    if (stored === null) throw new MissingCredentials(profile.name, what);
    const mismatch = this.#mismatch(profile, stored);
    if (mismatch !== null) throw new SecretNeedsReentry(profile.name, mismatch);
    const bound = decodeStoredSecret(stored);
    if (bound.kind !== 'bound') throw new SecretNeedsReentry(profile.name, 'it was stored by an earlier version');
    const secret = bound.bound.secret;
    this.#onSecretUsed(secret);
    if (profile.authScheme === 'bearer') return { header: `Bearer ${secret}`, expiresAt: jwtExpiry(secret) };
    if (profile.keyId === null) throw new MissingCredentials(profile.name, 'API key id');
    return { header: basicHeader(profile.keyId, secret), expiresAt: null };
  }

  /** Why a stored entry may not be used for this profile as it is now, or null when it may. */
  #mismatch(profile: ProfileIdentity, stored: string): string | null {
    const decoded = decodeStoredSecret(stored);
    if (decoded.kind === 'unbound') return 'it was stored before secrets were bound to an address';
    const origin = profile.baseUrl === null ? null : originOf(profile.baseUrl);
    if (origin === null) return 'the profile has no valid base URL';
    if (decoded.bound.origin !== origin) {
      return `it was entered for ${decoded.bound.origin}, and the profile now points at ${origin}`;
    }
    if (decoded.bound.authScheme !== profile.authScheme) {
      return `it was entered for ${decoded.bound.authScheme} authentication, and the profile now uses ${profile.authScheme}`;
    }
    return null;
  }

  /** Stores the password of the profile's proxy login; only the proxy ever receives it. */
  async setProxyPassword(profileId: string, password: string): Promise<void> {
    checkSecret(password);
    await this.#store.set(proxyAccount(profileId), password);
  }

  /** The password of the profile's proxy login, for the Proxy-Authorization of a CONNECT; null when none is stored. */
  async proxyPassword(profileId: string): Promise<string | null> {
    const password = await this.#store.get(proxyAccount(profileId));
    if (password !== null) this.#onSecretUsed(password);
    return password;
  }

  async hasProxyPassword(profileId: string): Promise<boolean> {
    return this.#store.has(proxyAccount(profileId));
  }

  async deleteProxyPassword(profileId: string): Promise<boolean> {
    return this.#store.delete(proxyAccount(profileId));
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
    return this.#readEscrowedKey(cacheDataKeyAccount(cacheId));
  }

  /** A fresh random data key, stored before it is used: never a constant or derived key. */
  async createCacheDataKey(cacheId: string): Promise<Buffer> {
    return this.#createEscrowedKey(cacheDataKeyAccount(cacheId));
  }

  /** The officer's record's key, or null when it was never made (a lost one that the escrow holds throws). */
  async readRecordKey(recordId: string): Promise<Buffer | null> {
    return this.#readEscrowedKey(recordKeyAccount(recordId));
  }

  /** A fresh random record key, stored, and sealed to the recovery key, before it is used. */
  async createRecordKey(recordId: string): Promise<Buffer> {
    return this.#createEscrowedKey(recordKeyAccount(recordId));
  }

  /** The seed of the record's archive signing key, or null when none was made yet (a lost one the escrow holds throws). */
  async readRecordSigningSeed(recordId: string): Promise<Buffer | null> {
    return this.#readEscrowedKey(recordSigningKeyAccount(recordId));
  }

  /** A fresh random signing seed for the record's archives, stored and escrowed like the record's key. */
  async createRecordSigningSeed(recordId: string): Promise<Buffer> {
    return this.#createEscrowedKey(recordSigningKeyAccount(recordId));
  }

  /**
   * Keeps a chain key brought in by `ledger record import` (the log's entries were chained with
   * it elsewhere): stored and escrowed under the log's new name, never made up.
   */
  async keepAuditChainKey(cacheId: string, key: Buffer): Promise<void> {
    if (key.length !== DATA_KEY_BYTES) throw new Error('The audit chain key must be 32 bytes.');
    const account = auditChainKeyAccount(cacheId);
    await this.#store.set(account, key.toString('base64'));
    this.#escrow?.keep(account, key.toString('base64'));
  }

  async deleteCacheDataKey(cacheId: string): Promise<boolean> {
    return this.#store.delete(cacheDataKeyAccount(cacheId));
  }

  /** The audit log's chain key (audit/auditChain.ts), or null when the keychain has none. */
  async readAuditChainKey(cacheId: string): Promise<Buffer | null> {
    return this.#readEscrowedKey(auditChainKeyAccount(cacheId));
  }

  /** A fresh random chain key, stored before it is used: never a constant or derived key. */
  async createAuditChainKey(cacheId: string): Promise<Buffer> {
    return this.#createEscrowedKey(auditChainKeyAccount(cacheId));
  }

  /**
   * A key the record depends on. One the escrow does not hold yet (a folder from before the
   * recovery key) is sealed to it now; one missing here that the escrow holds was lost with the
   * keychain or the passphrase, and is an error naming the way back, not a reason for a new key.
   */
  async #readEscrowedKey(account: string): Promise<Buffer | null> {
    const key = await this.#readKey(account);
    const escrow = this.#escrow;
    if (escrow === null) return key;
    if (key === null) {
      if (escrow.holds(account)) throw new KeyLostButRecoverable(account, escrow.dataFolder);
      return null;
    }
    if (!escrow.holds(account)) escrow.keep(account, key.toString('base64'));
    return key;
  }

  async #createEscrowedKey(account: string): Promise<Buffer> {
    const key = await this.#createKey(account);
    this.#escrow?.keep(account, key.toString('base64'));
    return key;
  }

  /**
   * The audit chain's last recorded head (not a secret: kept in the keychain because someone
   * who can write the database file cannot write there, so a deleted tail is noticed).
   */
  async readAuditChainHead(cacheId: string): Promise<string | null> {
    return this.#store.get(auditChainHeadAccount(cacheId));
  }

  async writeAuditChainHead(cacheId: string, head: string): Promise<void> {
    await this.#store.set(auditChainHeadAccount(cacheId), head);
  }

  /** Which audit log a data folder has, and the ones it had (not a secret; see folderLogs.ts). */
  async readAuditFolderRecord(folderKey: string): Promise<string | null> {
    return this.#store.get(auditFolderAccount(folderKey));
  }

  async writeAuditFolderRecord(folderKey: string, record: string): Promise<void> {
    await this.#store.set(auditFolderAccount(folderKey), record);
  }

  /** A 32-byte key kept as base64; null when absent or not 32 bytes (never a stand-in). */
  async #readKey(account: string): Promise<Buffer | null> {
    const stored = await this.#store.get(account);
    if (stored === null) return null;
    const key = Buffer.from(stored, 'base64');
    return key.length === DATA_KEY_BYTES ? key : null;
  }

  async #createKey(account: string): Promise<Buffer> {
    const key = randomBytes(DATA_KEY_BYTES);
    await this.#store.set(account, key.toString('base64'));
    return key;
  }
}
