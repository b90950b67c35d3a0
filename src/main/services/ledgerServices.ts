/**
 * The services, assembled: what the Electron shell (through IPC) and the `ledger` command
 * line both use. Everything is injected at the edges — the SecretStore (keychain in the app,
 * in-memory in tests), the ProfileStorage (electron-store in the app, a JSON file for the
 * command line) — so the same code runs in Electron and in plain Node.
 */
import { TeamMirror } from './team/laptop/teamMirror.ts';
import { actorText, type ActorProgram } from './audit/actor.ts';
import { disclosureText, type DisclosureClass } from '../../shared/personalData/exportDisclosure.ts';
import { BankClients } from './bank/bankClients.ts';
import type { BankTimeouts } from './bank/bankHttp.ts';
import type { Environment } from './http/environmentProxy.ts';
import { readCaBundle } from './http/trust.ts';
import { describeNetwork, type NetworkSettings } from '../../shared/profiles/networkFields.ts';
import type { ProxyResolver } from './http/systemProxy.ts';
import type { HttpTransport } from './http/transport.ts';
import type { RetryPolicy } from './bank/retryPolicy.ts';
import { BANK_COMPAT_MIGRATIONS, BANK_COMPAT_MIGRATIONS_TABLE } from './cache/bankCompatMigrations.ts';
import { applyMigrations } from './migrations/migrationRunner.ts';
import type { StoreProblem } from '../../shared/ipc/domains/app.ts';
import { OfflineCache } from './cache/offlineCache.ts';
import { RecordStore } from './record/recordStore.ts';
import { RecordError } from './record/recordError.ts';
import { backupDue } from './record/recordBackup.ts';
import { restoreAtStart } from './record/recordBackupRestore.ts';
import { RecordRetention, type LegalHold } from './record/recordRetention.ts';
import { purgeReviews } from './review/reviewPurge.ts';
import { Credentials } from './credentials/credentials.ts';
import type { SecretStore } from './credentials/secretStore.ts';
import type { KeyEscrow } from './credentials/recoveryEscrow.ts';
import { originOf } from '../../shared/profiles/profileFields.ts';
import { profileAttention, type NewRemoteProfile, type Profile, type ProfileChanges } from './profiles/profile.ts';
import type { ProfileStorage } from './profiles/profileStorage.ts';
import { ProfileRefused, Profiles } from './profiles/profiles.ts';
import { ReviewService } from './review/reviewService.ts';
import { ScreeningService } from './screening/screeningService.ts';
import { DEFAULT_THRESHOLD } from '../../shared/screening/screener.ts';
import { SyncService } from './sync/syncService.ts';
import { TriggerService } from './trigger/triggerService.ts';
import { DriftLedger } from './drift/driftLedger.ts';
import { BankWrites } from './writes/bankWrites.ts';
import { UnsettledWrites } from './writes/unsettledWrites.ts';
import type { WriteConfirmer } from './writes/writeConfirmer.ts';

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
  /** Date windows a list sync walks at once (1 to 16; 6 by default). */
  syncParallelism?: number;
  /** Where bulk sync writes run (see OfflineCache); a worker thread by default. */
  cacheWriter?: 'worker' | 'inline';
  /** A cap on the cache file's size (none by default). */
  cacheSizeLimitBytes?: number;
  /** Main's question before a Production write (writes/writeConfirmer.ts); none: the caller's flag decides. */
  writeConfirmer?: WriteConfirmer | null;
  /** Which program acts, for the audit log's actor (audit/actor.ts); the app by default. */
  actor?: ActorProgram;
  /** Told each stored profile secret as a request uses it (the app's IPC scrubber). */
  onSecretUsed?: (secret: string) => void;
  /** The data folder's recovery escrow (credentials/recoveryEscrow.ts); none: no recovery key (tests). */
  escrow?: KeyEscrow;
  /**
   * The daily backup of the record (record/recordBackup.ts): made this long after the open when
   * the newest is a day old or there is none (10 s by default, so it never slows the first
   * screen), or at close if the services end before. `false`: none (tests that count files).
   */
  dailyBackup?: { afterMs: number } | false;
  /**
   * Where remote profiles' `system` and `environment` proxy settings come from (services/http):
   * the process's environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY), and in the desktop app
   * Chromium's resolver. Without it, none: every remote profile is reached directly unless it
   * names its own proxy (tests).
   */
  network?: { environment: Environment; systemResolver: ProxyResolver | null };
  /** The one HTTP transport (the process's shared one by default). */
  transport?: HttpTransport;
  now?: () => Date;
}

/** What `updateProfile` did: the profile as saved, and whether its secret had to go. */
export interface ProfileUpdate {
  profile: Profile;
  /** The secret was dropped (another origin) and no new one was given: the profile waits. */
  waitingForSecret: boolean;
}

export class LedgerServices {
  readonly profiles: Profiles;
  readonly credentials: Credentials;
  readonly cache: OfflineCache;
  /** The officer's record in its own file and key (issue 34): record.sqlite beside the cache. */
  readonly record: RecordStore;
  /** How long the record is kept, and the legal hold (record.sqlite, issue 34 item 5). */
  readonly retention: RecordRetention;
  readonly clients: BankClients;
  readonly sync: SyncService;
  readonly writes: BankWrites;
  /** Main's question before a Production write or before the Production guard is switched off; null: the caller's flag decides. */
  readonly writeConfirmer: WriteConfirmer | null;
  /** `ledger trigger` and the Trigger panel: make the bank send events. */
  readonly trigger: TriggerService;
  readonly reviews: ReviewService;
  /** What the bank's answers showed of drift, per profile and resource (`ledger drift`, Settings). */
  readonly drift: DriftLedger;
  /** Creates whose answer was not understood, with the idempotency key their next try reuses. */
  readonly unsettledWrites: UnsettledWrites;
  /** Sanctions lists and the screening of applicants against them (issue 40). */
  readonly screening: ScreeningService;
  readonly #dataFolder: string;
  readonly #now: () => Date;
  /** What this start did with a restore the window asked for (a sentence), or null. */
  #restoredAtStart: string | null = null;
  /** Why the last daily backup failed, or null. */
  #backupProblem: string | null = null;
  #backupTimer: NodeJS.Timeout | null = null;
  #backupDue = false;
  #backupRun: Promise<void> | null = null;

  private constructor(
    options: LedgerServicesOptions,
    credentials: Credentials,
    cache: OfflineCache,
    record: RecordStore,
  ) {
    const now = options.now ?? (() => new Date());
    this.#dataFolder = options.dataFolder;
    this.#now = now;
    this.credentials = credentials;
    this.cache = cache;
    this.record = record;
    this.retention = new RecordRetention(record, now);
    this.writeConfirmer = options.writeConfirmer ?? null;
    this.profiles = new Profiles(options.profileStorage, now);
    this.drift = new DriftLedger(cache.database, now);
    this.unsettledWrites = new UnsettledWrites(cache.database, (text) => cache.sealer.keyedHash(text), now);
    this.clients = new BankClients({
      profiles: this.profiles,
      credentials,
      onDrift: (profileId, observation) => {
        this.drift.observe(profileId, observation);
      },
      ...(options.embeddedBaseUrl ? { embeddedBaseUrl: options.embeddedBaseUrl } : {}),
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.ping ? { ping: options.ping } : {}),
      ...(options.network ? { network: options.network } : {}),
      ...(options.transport ? { transport: options.transport } : {}),
    });
    this.sync = new SyncService({
      cache,
      clientFor: (profileId) => this.clients.clientFor(profileId),
      ...(options.syncPageSize === undefined ? {} : { pageSize: options.syncPageSize }),
      ...(options.syncParallelism === undefined ? {} : { parallelism: options.syncParallelism }),
      now,
    });
    this.writes = new BankWrites({
      profiles: this.profiles,
      clients: this.clients,
      cache,
      unsettled: this.unsettledWrites,
      confirmer: this.writeConfirmer,
      now,
    });
    this.trigger = new TriggerService({ profiles: this.profiles, clients: this.clients, audit: () => cache.audit });
    this.reviews = new ReviewService({ cache, profileName: (profileId) => this.#profileName(profileId), now });
    this.screening = new ScreeningService({
      dataFolder: options.dataFolder,
      cache,
      now,
      thresholdOf: (profileId) => this.profiles.find(profileId).screeningThreshold ?? DEFAULT_THRESHOLD,
      profileIds: () => this.profiles.list().map((profile) => profile.id),
      profileName: (profileId) => this.#profileName(profileId),
      markChanged: (profileId, ref, current, at) =>
        this.reviews.recordChanged(profileId, 'screening-hit', ref, current, at),
    });
    // Every entry from here on names who acted: this program, the OS user and the reviewer.
    const program = options.actor ?? 'app';
    cache.audit.setActor(() => actorText(program, cache.audit.reviewerRef(this.reviews.reviewer.get().name)));
    // After every finished sync: reviews whose record changed come back, and watch rules flag
    // what no one has reviewed. Done before the job's outcome is handed out, so whoever waited
    // for the sync sees its reviews already updated.
    this.sync.onFinished((finished) => {
      if (finished.state !== 'done') return;
      this.reviews.afterSync(finished.profileId, finished.kind);
      // Applicants new or changed since their last screening are screened against the loaded
      // lists (issue 40): started here, awaited by screening.settled() (the CLI, close).
      if (finished.kind === 'applications' || finished.kind === 'account-application')
        this.screening.afterSync(finished.profileId);
    });
  }

  /** A backup of the record now (`ledger record backup`, Settings → Record); verified before it counts. */
  async backupRecord(): Promise<import('./record/recordBackup.ts').MadeBackup> {
    const made = await this.record.backup(this.#now());
    this.#backupProblem = null;
    this.#backupDue = false;
    return made;
  }

  /** The daily backup: due when the newest is a day old; off the open's path (a timer, or at close). */
  #scheduleDailyBackup(setting: { afterMs: number } | false | undefined): void {
    if (setting === false || this.record.state !== 'open') return;
    if (!backupDue(this.#dataFolder, this.#now())) return;
    this.#backupDue = true;
    this.#backupTimer = setTimeout(() => {
      this.#backupTimer = null;
      void this.#runDueBackup();
    }, setting?.afterMs ?? 10_000);
    this.#backupTimer.unref();
  }

  #runDueBackup(): Promise<void> {
    if (!this.#backupDue) return this.#backupRun ?? Promise.resolve();
    this.#backupDue = false;
    this.#backupRun = this.backupRecord().then(
      () => undefined,
      (error: unknown) => {
        this.#backupProblem = `The daily backup of the officer's record failed (${error instanceof Error ? error.message : String(error)}); the backups already made are kept, and the next start tries again.`;
      },
    );
    return this.#backupRun;
  }

  /** Sets how many years after its review a profile's reviews are kept (audited). */
  async setRetention(profileId: string, years: number): Promise<void> {
    const profile = this.profiles.find(profileId);
    this.retention.setYears(profile.id, years);
    this.cache.audit.record({
      profileId: profile.id,
      profileName: profile.name,
      action: 'record.retention',
      target: profile.id,
      result: 'ok',
      detail: `reviews kept ${String(years)} ${years === 1 ? 'year' : 'years'} after the review`,
    });
    await this.cache.audit.settled();
  }

  /** Places the legal hold: every purge is refused until it is lifted (audited). */
  async placeLegalHold(reason: string): Promise<LegalHold> {
    const hold = this.retention.placeHold(reason);
    this.cache.audit.record({
      profileId: '',
      profileName: '',
      action: 'record.hold',
      target: 'record',
      result: 'ok',
      detail: `legal hold placed: ${hold.reason}`,
    });
    await this.cache.audit.settled();
    return hold;
  }

  /** Lifts the legal hold (audited); false when there was none. */
  async liftLegalHold(): Promise<boolean> {
    const lifted = this.retention.liftHold();
    if (lifted) {
      this.cache.audit.record({
        profileId: '',
        profileName: '',
        action: 'record.hold-lifted',
        target: 'record',
        result: 'ok',
      });
      await this.cache.audit.settled();
    }
    return lifted;
  }

  /**
   * Purges the profile's reviews that have outlived its retention, with their history, in one
   * transaction with the audit entry saying how many and why; the entry is anchored before this
   * returns. Under a legal hold nothing is purged, and the refusal is audited too.
   */
  async purgeExpired(profileId: string): Promise<{ purged: number; cutoff: string; years: number }> {
    const profile = this.profiles.find(profileId);
    const hold = this.retention.hold();
    if (hold !== null) {
      this.cache.audit.record({
        profileId: profile.id,
        profileName: profile.name,
        action: 'reviews.purge',
        target: profile.id,
        result: 'refused',
        detail: `under the legal hold placed ${hold.placedAt}: ${hold.reason}`,
      });
      await this.cache.audit.settled();
      throw new RecordError(
        'held',
        `The officer's record is under a legal hold (placed ${hold.placedAt}: ${hold.reason}): nothing is purged until it is lifted.`,
      );
    }
    const years = this.retention.years(profile.id);
    const cutoff = this.retention.cutoff(profile.id).toISOString();
    const purged = this.cache.transaction(() => {
      const count = purgeReviews(this.cache.database, profile.id, cutoff);
      // Named as a drop of reviews, so the rollback check takes the missing rows for what they are.
      this.cache.audit.record({
        profileId: profile.id,
        profileName: profile.name,
        action: 'reviews.drop',
        target: profile.id,
        result: 'ok',
        detail: `${count.toLocaleString('en-US')} ${count === 1 ? 'review' : 'reviews'} purged: reviewed before ${cutoff}, past the retention of ${String(years)} ${years === 1 ? 'year' : 'years'}`,
      });
      return count;
    });
    await this.cache.audit.settled();
    return { purged, cutoff, years };
  }

  /**
   * What the window's top banner and the CLI must say about the data folder's stores
   * (issue 34): a store open read-only is an error, since nothing the officer does is kept.
   */
  storeProblems(): StoreProblem[] {
    const problems: StoreProblem[] = [];
    if (this.#restoredAtStart !== null) {
      problems.push({ store: "The officer's record", severity: 'warning', sentence: this.#restoredAtStart });
    }
    if (this.#backupProblem !== null) {
      problems.push({ store: "The officer's record", severity: 'warning', sentence: this.#backupProblem });
    }
    if (this.record.problem !== null) {
      problems.push({
        store: "The officer's record",
        severity: this.record.state === 'locked' ? 'error' : 'warning',
        sentence: this.record.problem,
      });
    }
    if (this.cache.opened.readOnly !== null) {
      // Nothing is lost and everything reads: a warning, where a locked record or dropped data is an error.
      problems.push({ store: 'The offline cache', severity: 'warning', sentence: this.cache.opened.readOnly });
    }
    if (this.cache.opened.dataKeyReset !== null) {
      problems.push({
        store: 'The offline cache',
        severity: 'error',
        sentence:
          'The offline cache could not be read with the key in the keychain, so its data was dropped (the audit log records it as a failure); sync to fill it again.',
      });
    }
    return problems;
  }

  /** A profile's name for the audit log; its id when it is gone. */
  #profileName(profileId: string): string {
    try {
      return this.profiles.find(profileId).name;
    } catch {
      return profileId;
    }
  }

  static async open(options: LedgerServicesOptions): Promise<LedgerServices> {
    const credentials = new Credentials(options.secretStore, {
      ...(options.onSecretUsed === undefined ? {} : { onSecretUsed: options.onSecretUsed }),
      ...(options.escrow === undefined ? {} : { escrow: options.escrow }),
    });
    // A restore the window asked for is done before anything opens the record (recordBackupRestore.ts).
    const restored = await restoreAtStart(options.dataFolder, credentials);
    // The record first: the cache moves the record's tables into it at its first open and
    // attaches it to its connections (cache/recordMove.ts).
    const record = await RecordStore.open({
      folder: options.dataFolder,
      credentials,
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    let cache: OfflineCache;
    try {
      cache = await OfflineCache.open({
        folder: options.dataFolder,
        credentials,
        record,
        ...(options.now ? { now: options.now } : {}),
        ...(options.cacheWriter ? { writer: options.cacheWriter } : {}),
        ...(options.cacheSizeLimitBytes === undefined ? {} : { sizeLimitBytes: options.cacheSizeLimitBytes }),
      });
    } catch (error) {
      record.close();
      throw error;
    }
    try {
      // Drift and unsettled writes keep their own bookkeeping beside the cache's (bankCompatMigrations.ts).
      const bankCompat = applyMigrations(cache.database, BANK_COMPAT_MIGRATIONS, BANK_COMPAT_MIGRATIONS_TABLE, {
        name: "The cache's drift counts",
      });
      if (bankCompat.unknown !== null) cache.enterReadOnly(bankCompat.unknown.sentence);
    } catch (error) {
      await cache.close();
      record.close();
      throw error;
    }
    const services = new LedgerServices(options, credentials, cache, record);
    services.#restoredAtStart = restored;
    services.#scheduleDailyBackup(options.dailyBackup);
    return services;
  }

  /** Adds a remote profile and puts its secret in the keychain; no profile is left without it. */
  async addProfile(input: NewRemoteProfile, secret: string): Promise<Profile> {
    const added = this.profiles.addRemote(input);
    try {
      await this.credentials.setProfileSecret(
        { id: added.id, authScheme: added.authScheme, baseUrl: bindableBaseUrl(added) },
        secret,
      );
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
   * Stores a profile's secret, bound to the origin and auth scheme the profile has now, and
   * ends any wait for it (audited). The embedded sandbox has no stored secret.
   */
  async setProfileSecret(nameOrId: string, secret: string): Promise<Profile> {
    const profile = this.profiles.find(nameOrId);
    await this.credentials.setProfileSecret(
      { id: profile.id, authScheme: profile.authScheme, baseUrl: bindableBaseUrl(profile) },
      secret,
    );
    this.clients.forget(profile.id);
    this.cache.audit.record({
      profileId: profile.id,
      profileName: profile.name,
      action: 'credentials.set',
      target: profile.id,
      result: 'ok',
    });
    return profile.secretDropped === undefined ? profile : this.profiles.setSecretDropped(profile.id, null);
  }

  /**
   * Changes a profile. A new base URL on another origin (scheme, host or port) drops the
   * stored secret before anything can use it: the profile then makes no call until a secret
   * is entered for the new origin, here (`secret`) or later. Each step is audited, and
   * switching the Production guard off is audited on its own line.
   */
  async updateProfile(nameOrId: string, changes: ProfileChanges, secret: string | null = null): Promise<ProfileUpdate> {
    const before = this.profiles.find(nameOrId);
    let profile = this.profiles.update(before.id, changes);
    const audit = (action: string, detail?: string): void => {
      this.cache.audit.record({
        profileId: profile.id,
        profileName: profile.name,
        action,
        target: profile.id,
        result: 'ok',
        ...(detail === undefined ? {} : { detail }),
      });
    };
    audit('profile.update');
    if (before.production && !profile.production) audit('profile.production-off');
    if (!before.production && profile.production) audit('profile.production-on');
    const from = before.baseUrl === null ? null : originOf(before.baseUrl);
    const to = profile.baseUrl === null ? null : originOf(profile.baseUrl);
    if (profile.kind === 'remote' && from !== to) {
      // Marked first, so even a keychain that fails to delete leaves a profile that waits.
      profile = this.profiles.setSecretDropped(profile.id, `its address moved from ${from ?? '?'} to ${to ?? '?'}`);
      this.clients.forget(profile.id);
      await this.credentials.deleteProfileSecret(profile.id);
      audit('credentials.drop', `the address moved from ${from ?? '?'} to ${to ?? '?'}`);
    } else {
      this.clients.forget(profile.id);
    }
    if (secret !== null) profile = await this.setProfileSecret(profile.id, secret);
    return { profile, waitingForSecret: profile.secretDropped !== undefined };
  }

  /**
   * Says which classes of applicants' personal fields the profile's exports and review reports
   * print in clear (empty: nothing). Audited with the actor, the classes before and after, even
   * when nothing changed, so the log shows every time someone looked at and saved the setting.
   */
  setExportUnmasked(nameOrId: string, classes: readonly DisclosureClass[]): Profile {
    const before = this.profiles.find(nameOrId);
    const profile = this.profiles.setExportUnmasked(before.id, classes);
    this.cache.audit.record({
      profileId: profile.id,
      profileName: profile.name,
      action: 'profile.export-unmasked',
      target: profile.id,
      result: 'ok',
      detail: `exports and reports show unmasked: ${disclosureText(profile.exportUnmasked ?? [])} (was: ${disclosureText(before.exportUnmasked ?? [])})`,
    });
    return profile;
  }

  /**
   * Forgets what the cache holds for a profile, with the officer's reviews of it (the audit log
   * and the watch rules stay). Its running syncs are stopped first: one still writing would
   * bring rows back after they were dropped.
   */
  async clearCachedData(profileId: string): Promise<void> {
    await this.sync.stopProfile(profileId);
    // The bank's copies go; the officer's reviews, notes and watch rules stay (issue 34): an item
    // whose record is gone lists with the record as reviewed until the bank sends it again.
    this.cache.dropProfile(profileId);
    // A team workspace mapped to this profile loses its local mirror only (teamMirror.ts).
    new TeamMirror(this.cache.database).dropMirrorsOfProfile(profileId);
    // Clearing is itself evidence: an entry, and its head in the keychain before this returns.
    this.cache.audit.record({
      profileId,
      profileName: this.#profileName(profileId),
      action: 'cache.clear',
      target: profileId,
      result: 'ok',
      detail: "the profile's cached records were dropped (they re-sync); its reviews, notes and watch rules stay",
    });
    await this.cache.audit.settled();
  }

  /** Removes a profile, its secret and its cached data; the audit log keeps its history. */
  /**
   * Says how a remote profile reaches its bank (services/http): its proxy and CA bundle. The
   * proxy's password, when given, goes to the keychain (`password: null` removes it; undefined
   * keeps it); a CA bundle is read and checked before it is saved. Audited, never the password.
   */
  async setNetwork(
    nameOrId: string,
    network: NetworkSettings,
    password?: string | null,
  ): Promise<{ profile: Profile; proxyPasswordSet: boolean }> {
    const before = this.profiles.find(nameOrId);
    if (network.caFile !== null) readCaBundle(network.caFile);
    const profile = this.profiles.update(before.id, { network });
    if (password === null || network.proxy.user === undefined || network.proxy.mode === 'none') {
      await this.credentials.deleteProxyPassword(profile.id);
    } else if (password !== undefined) {
      await this.credentials.setProxyPassword(profile.id, password);
    }
    this.clients.forget(profile.id);
    this.cache.audit.record({
      profileId: profile.id,
      profileName: profile.name,
      action: 'profile.network',
      target: profile.id,
      result: 'ok',
      detail: describeNetwork(network),
    });
    return { profile, proxyPasswordSet: await this.credentials.hasProxyPassword(profile.id) };
  }

  async removeProfile(nameOrId: string): Promise<Profile> {
    const removed = this.profiles.remove(nameOrId);
    await this.credentials.deleteProfileSecret(removed.id);
    await this.credentials.deleteProxyPassword(removed.id);
    this.clients.forget(removed.id);
    await this.clearCachedData(removed.id);
    this.reviews.dropProfile(removed.id, true);
    this.drift.reset(removed.id);
    this.unsettledWrites.dropProfile(removed.id);
    this.cache.audit.record({
      profileId: removed.id,
      profileName: removed.name,
      action: 'profile.remove',
      target: removed.id,
      result: 'ok',
    });
    return removed;
  }

  /**
   * Sets the profile's screening threshold (null: the default again). Audited with the value
   * before and after; applies from the next run (the next sync's re-screens every applicant).
   */
  setScreeningThreshold(nameOrId: string, threshold: number | null): Profile {
    const before = this.profiles.find(nameOrId);
    const profile = this.profiles.setScreeningThreshold(before.id, threshold);
    this.cache.audit.record({
      profileId: profile.id,
      profileName: profile.name,
      action: 'profile.screening-threshold',
      target: profile.id,
      result: 'ok',
      detail: `screening threshold ${String(profile.screeningThreshold ?? DEFAULT_THRESHOLD)}${profile.screeningThreshold === undefined ? ' (the default)' : ''} (was: ${String(before.screeningThreshold ?? DEFAULT_THRESHOLD)})`,
    });
    return profile;
  }

  async close(): Promise<void> {
    if (this.#backupTimer !== null) clearTimeout(this.#backupTimer);
    this.#backupTimer = null;
    // Services that end before the timer (a `ledger` command) make the day's backup now.
    await this.#runDueBackup();
    await this.sync.stopAll();
    await this.screening.settled();
    this.clients.close();
    this.drift.close();
    this.screening.close();
    await this.cache.close();
    this.record.close();
  }
}

/**
 * The base URL a secret may be bound to: a remote profile's, when it keeps the https rule.
 * A profile that needs attention gets no secret until its address is fixed.
 */
function bindableBaseUrl(profile: Profile): string {
  if (profile.kind !== 'remote' || profile.baseUrl === null) {
    throw new ProfileRefused(`Profile ${profile.name} uses the embedded sandbox's own key; it has no secret to set.`);
  }
  const attention = profileAttention(profile);
  if (attention !== null) throw new ProfileRefused(`${attention} Fix it before entering a secret.`);
  return profile.baseUrl;
}
