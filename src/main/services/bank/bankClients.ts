/**
 * One BankClient per profile, built from the profile and its credentials, and the profile's
 * online/offline status fed by every request the client makes. A changed profile (address,
 * key id) gets a new client on next use. A profile that needs attention (an address that
 * breaks the https rule) or its secret again gets no client at all: no request, not even the
 * unauthenticated offline ping, leaves for it.
 */
import { SecretNeedsReentry, type Credentials } from '../credentials/credentials.ts';
import { networkOf, profileAttention, type Profile } from '../profiles/profile.ts';
import type { Environment } from '../http/environmentProxy.ts';
import { directPolicy, profilePolicy } from '../http/networkPolicy.ts';
import type { ProxyResolver } from '../http/systemProxy.ts';
import type { HttpTransport, NetworkPolicy } from '../http/transport.ts';
import type { Profiles } from '../profiles/profiles.ts';
import { Connectivity, reasonForPeople, type ConnectivityState } from '../sync/connectivity.ts';
import { SANDBOX_RESTART_ACTION } from '../../../shared/ipc/domains/embeddedSandbox.ts';
import { BankClient } from './bankClient.ts';
import type { BankHttpOptions, BankTimeouts } from './bankHttp.ts';
import type { DriftObservation } from './fieldDrift.ts';
import type { RetryPolicy } from './retryPolicy.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export class ProfileNotReady extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileNotReady';
  }

  get answer(): ContractAnswer {
    return { code: 'not_available', retryable: true };
  }
}

export interface BankClientsOptions {
  profiles: Profiles;
  credentials: Credentials;
  /** The embedded sandbox's address while it runs; null when it is not running. */
  embeddedBaseUrl?: () => string | null;
  timeouts?: Partial<BankTimeouts>;
  retry?: Partial<RetryPolicy>;
  /** The backed-off ping while offline: first and longest wait. */
  ping?: { firstDelayMs?: number; maxDelayMs?: number };
  /** Told what each answer of a profile's bank showed of drift (fieldDrift.ts). */
  onDrift?: (profileId: string, observation: DriftObservation) => void;
  /** The one transport; the process's shared one by default. */
  transport?: HttpTransport;
  /**
   * Where the system's and the environment's proxy settings come from: the process's
   * environment, and Chromium's resolver in the desktop app (null elsewhere). Without it,
   * remote profiles read no environment and have no system resolver (tests).
   */
  network?: { environment: Environment; systemResolver: ProxyResolver | null };
}

type ConnectivityListener = (profileId: string, state: ConnectivityState) => void;

export class BankClients {
  readonly #options: BankClientsOptions;
  readonly #clients = new Map<string, { client: BankClient; version: string }>();
  readonly #connectivity = new Map<string, Connectivity>();
  readonly #listeners = new Set<ConnectivityListener>();

  constructor(options: BankClientsOptions) {
    this.#options = options;
  }

  clientFor(profileId: string): BankClient {
    const profile = this.#options.profiles.find(profileId);
    this.#refuseIfWaiting(profile);
    const baseUrl = this.#baseUrlOf(profile);
    const version = `${profile.updatedAt}|${baseUrl}`;
    const cached = this.#clients.get(profile.id);
    if (cached !== undefined && cached.version === version) return cached.client;
    const connectivity = this.connectivityOf(profile.id);
    const client = this.#build(profile, baseUrl, {
      embeddedSandbox: profile.kind === 'embedded-sandbox',
      onReachability: (reachable, failure) => {
        if (reachable) connectivity.reportReachable();
        else connectivity.reportUnreachable(reasonForPeople(failure));
      },
    });
    this.#clients.set(profile.id, { client, version });
    return client;
  }

  connectivityOf(profileId: string): Connectivity {
    let connectivity = this.#connectivity.get(profileId);
    if (connectivity === undefined) {
      connectivity = new Connectivity({
        ...this.#options.ping,
        // One attempt per ping, no retries of its own: the backoff is Connectivity's.
        ping: async () => {
          const profile = this.#options.profiles.find(profileId);
          this.#refuseIfWaiting(profile);
          await this.#build(profile, this.#baseUrlOf(profile), {
            retry: { maxAttempts: 1 },
            embeddedSandbox: profile.kind === 'embedded-sandbox',
          }).ping();
        },
      });
      connectivity.onChange((state) => {
        for (const listener of this.#listeners) listener(profileId, state);
      });
      this.#connectivity.set(profileId, connectivity);
    }
    return connectivity;
  }

  onConnectivity(listener: ConnectivityListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  forget(profileId: string): void {
    this.#clients.delete(profileId);
    this.#connectivity.get(profileId)?.stop();
    this.#connectivity.delete(profileId);
  }

  close(): void {
    for (const connectivity of this.#connectivity.values()) connectivity.stop();
    this.#connectivity.clear();
    this.#clients.clear();
    this.#listeners.clear();
  }

  /**
   * How the profile reaches its bank: the embedded sandbox always directly; any other profile
   * by its network settings (its proxy password read from the keychain once per client).
   */
  policyFor(profile: Profile): NetworkPolicy {
    if (profile.kind === 'embedded-sandbox') return directPolicy();
    const credentials = this.#options.credentials;
    let password: Promise<string | null> | null = null;
    return profilePolicy(networkOf(profile), {
      environment: this.#options.network?.environment ?? {},
      systemResolver: this.#options.network?.systemResolver ?? null,
      proxyPassword: () => {
        password ??= credentials.proxyPassword(profile.id);
        return password;
      },
    });
  }

  #build(profile: Profile, baseUrl: string, extra: Partial<BankHttpOptions>): BankClient {
    const credentials = this.#options.credentials;
    const onDrift = this.#options.onDrift;
    return new BankClient(
      {
        profileName: profile.name,
        authScheme: profile.authScheme,
        baseUrl,
        network: this.policyFor(profile),
        ...(this.#options.transport === undefined ? {} : { transport: this.#options.transport }),
        // Bound to the address this client sends to: a secret entered for another origin is refused.
        authorization: () => credentials.authorizationFor({ ...profile, baseUrl }),
        ...(this.#options.timeouts ? { timeouts: this.#options.timeouts } : {}),
        ...(this.#options.retry ? { retry: this.#options.retry } : {}),
        ...extra,
      },
      onDrift === undefined
        ? {}
        : {
            onDrift: (observation) => {
              onDrift(profile.id, observation);
            },
          },
    );
  }

  #refuseIfWaiting(profile: Profile): void {
    const attention = profileAttention(profile);
    if (attention !== null) throw new ProfileNotReady(attention);
    if (profile.secretDropped !== undefined) throw new SecretNeedsReentry(profile.name, profile.secretDropped);
  }

  #baseUrlOf(profile: Profile): string {
    if (profile.kind === 'embedded-sandbox') {
      const baseUrl = this.#options.embeddedBaseUrl?.() ?? null;
      if (baseUrl === null)
        throw new ProfileNotReady(`The local sandbox bank is not running. ${SANDBOX_RESTART_ACTION}`);
      return baseUrl;
    }
    if (profile.baseUrl === null) throw new ProfileNotReady(`Profile ${profile.name} has no base address.`);
    return profile.baseUrl;
  }
}
