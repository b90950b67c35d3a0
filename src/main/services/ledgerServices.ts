/**
 * The services, assembled: what the Electron shell (through IPC) and the `ledger` command
 * line both use. Everything is injected at the edges — the SecretStore (keychain in the app,
 * in-memory in tests), the ProfileStorage (electron-store in the app, a JSON file for the
 * command line) — so the same code runs in Electron and in plain Node.
 */
import { BankClients } from './bank/bankClients.ts';
import type { BankTimeouts } from './bank/bankHttp.ts';
import type { RetryPolicy } from './bank/retryPolicy.ts';
import { OfflineCache } from './cache/offlineCache.ts';
import { Credentials } from './credentials/credentials.ts';
import type { SecretStore } from './credentials/secretStore.ts';
import type { NewRemoteProfile, Profile } from './profiles/profile.ts';
import type { ProfileStorage } from './profiles/profileStorage.ts';
import { Profiles } from './profiles/profiles.ts';
import { SyncService } from './sync/syncService.ts';
import { BankWrites } from './writes/bankWrites.ts';

export interface LedgerServicesOptions {
  /** The app data folder: the cache database lives here. */
  dataFolder: string;
  secretStore: SecretStore;
  profileStorage: ProfileStorage;
  /** The embedded sandbox's address while it runs (the shell starts it). */
  embeddedBaseUrl?: () => string | null;
  timeouts?: Partial<BankTimeouts>;
  retry?: Partial<RetryPolicy>;
  /** The backed-off ping while offline (defaults: 1 s doubling up to 60 s). */
  ping?: { firstDelayMs?: number; maxDelayMs?: number };
  syncPageSize?: number;
  /** Where bulk sync writes run (see OfflineCache); a worker thread by default. */
  cacheWriter?: 'worker' | 'inline';
  /** A cap on the cache file's size (none by default). */
  cacheSizeLimitBytes?: number;
  now?: () => Date;
}

export class LedgerServices {
  readonly profiles: Profiles;
  readonly credentials: Credentials;
  readonly cache: OfflineCache;
  readonly clients: BankClients;
  readonly sync: SyncService;
  readonly writes: BankWrites;

  private constructor(options: LedgerServicesOptions, credentials: Credentials, cache: OfflineCache) {
    const now = options.now ?? (() => new Date());
    this.credentials = credentials;
    this.cache = cache;
    this.profiles = new Profiles(options.profileStorage, now);
    this.clients = new BankClients({
      profiles: this.profiles,
      credentials,
      ...(options.embeddedBaseUrl ? { embeddedBaseUrl: options.embeddedBaseUrl } : {}),
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.ping ? { ping: options.ping } : {}),
    });
    this.sync = new SyncService({
      cache,
      clientFor: (profileId) => this.clients.clientFor(profileId),
      ...(options.syncPageSize === undefined ? {} : { pageSize: options.syncPageSize }),
      now,
    });
    this.writes = new BankWrites({ profiles: this.profiles, clients: this.clients, cache, now });
  }

  static async open(options: LedgerServicesOptions): Promise<LedgerServices> {
    const credentials = new Credentials(options.secretStore);
    const cache = await OfflineCache.open({
      folder: options.dataFolder,
      credentials,
      ...(options.now ? { now: options.now } : {}),
      ...(options.cacheWriter ? { writer: options.cacheWriter } : {}),
      ...(options.cacheSizeLimitBytes === undefined ? {} : { sizeLimitBytes: options.cacheSizeLimitBytes }),
    });
    return new LedgerServices(options, credentials, cache);
  }

  /** Adds a remote profile and puts its secret in the keychain; no profile is left without it. */
  async addProfile(input: NewRemoteProfile, secret: string): Promise<Profile> {
    const added = this.profiles.addRemote(input);
    try {
      await this.credentials.setProfileSecret(added.id, secret);
    } catch (error) {
      this.profiles.remove(added.id);
      throw error;
    }
    this.cache.audit.record({
      profileId: added.id,
      profileName: added.name,
      action: 'profile.add',
      target: added.id,
      result: 'ok',
    });
    return added;
  }

  /**
   * Forgets what the cache holds for a profile (the audit log stays). Its running syncs are
   * stopped first: one still writing would bring rows back after they were dropped.
   */
  async clearCachedData(profileId: string): Promise<void> {
    await this.sync.stopProfile(profileId);
    this.cache.dropProfile(profileId);
  }

  /** Removes a profile, its secret and its cached data; the audit log keeps its history. */
  async removeProfile(nameOrId: string): Promise<Profile> {
    const removed = this.profiles.remove(nameOrId);
    await this.credentials.deleteProfileSecret(removed.id);
    this.clients.forget(removed.id);
    await this.clearCachedData(removed.id);
    this.cache.audit.record({
      profileId: removed.id,
      profileName: removed.name,
      action: 'profile.remove',
      target: removed.id,
      result: 'ok',
    });
    return removed;
  }

  async close(): Promise<void> {
    await this.sync.stopAll();
    this.clients.close();
    await this.cache.close();
  }
}
