/**
 * Starts the services on the app data folder and connects them to the window: profiles, the
 * encrypted cache, sync, the listener; the handlers the router dispatches to; the events
 * pushed to the window. `stop()` ends them in order, so no listener request that was accepted
 * is lost and no cache write is left half done. Free of Electron (the shell passes the
 * keychain and electron-store in), so tests start the same thing in Node.
 */
import { once } from 'node:events';
import { rename, rm } from 'node:fs/promises';
import { LedgerServices } from '../services/ledgerServices.ts';
import { Credentials } from '../services/credentials/credentials.ts';
import { RecordError } from '../services/record/recordError.ts';
import type { KeychainStatus } from '../services/credentials/keychainStatus.ts';
import type { SecretStore } from '../services/credentials/secretStore.ts';
import type { KeyEscrow } from '../services/credentials/recoveryEscrow.ts';
import type { ProfileStorage } from '../services/profiles/profileStorage.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../services/profiles/profile.ts';
import { confirmProductionWrite } from '../services/profiles/profiles.ts';
import type { WriteConfirmer } from '../services/writes/writeConfirmer.ts';
import { openListener, type Listener, type ListenerEvent } from '../services/listener/listener.ts';
import type { Batch } from '../services/listener/eventBatcher.ts';
import { bankClientPort } from '../services/listener/bankClientPort.ts';
import type { BankPort } from '../services/listener/bankPort.ts';
import { forgetSealedRequests } from '../services/listener/requestLog.ts';
import { createEventPublisher } from '../ipc/eventPublisher.ts';
import { createHandlers } from '../ipc/handlers.ts';
import type { Handlers } from '../ipc/handlerTypes.ts';
import { toOnlineStatus } from '../ipc/appHandlers.ts';
import { toContractProgress } from '../ipc/syncHandlers.ts';
import { listenerStatusOf, toRequestSummary, type ConfirmQuestion } from '../ipc/listenerHandlers.ts';
import { IpcFailure } from '../ipc/serviceErrors.ts';
import type { EmbeddedSandbox } from './embeddedSandbox.ts';
import { embeddedSandboxControl, type SandboxKeeper } from '../ipc/sandboxHandlers.ts';
import { SANDBOX_RESTART_ACTION } from '../../shared/ipc/domains/embeddedSandbox.ts';
import type { Logger } from './log.ts';
import { createPartialFile } from '../services/files/partialFile.ts';
import type { Environment } from '../services/http/environmentProxy.ts';
import type { ProxyResolver } from '../services/http/systemProxy.ts';
import { defaultOutbound } from '../services/http/defaultOutbound.ts';

/** The running embedded sandbox, as far as the services need it. */
export type SandboxAddress = Pick<EmbeddedSandbox, 'baseUrl' | 'keyId' | 'keySecret'>;

export interface ServicesOptions {
  dataFolder: string;
  sandbox: SandboxAddress | null;
  /** Restarts the sandbox on its data (Settings); without one, Settings says it cannot. */
  sandboxKeeper?: SandboxKeeper;
  /** The OS keychain in the app (KeyringSecretStore); in memory in tests. */
  secretStore: SecretStore;
  /** Small settings (profiles, the active profile): electron-store in the app. */
  settings: ProfileStorage;
  keychain: () => Promise<KeychainStatus>;
  app: { name: string; version: string; platform: string };
  send: (channel: string, payload: unknown) => void;
  chooseSavePath: (defaultName: string) => Promise<string | null>;
  /** Chromium's printing of a self-contained HTML page to PDF (the review report). */
  printToPdf?: (html: string) => Promise<Uint8Array>;
  openExternal: (url: string) => boolean;
  /**
   * Asks the user something only they may answer (a native dialog in the app), e.g. before the
   * listener may send to another host. Without one, every such question is answered no.
   */
  confirm?: (question: ConfirmQuestion) => Promise<boolean>;
  /**
   * Main's own question before any write to a Production bank (review I1): the Electron app
   * passes its native dialog; none leaves the renderer's confirmation flag to decide (harnesses).
   */
  writeConfirmer?: WriteConfirmer;
  /**
   * Where remote profiles' `system` and `environment` proxy settings come from (services/http);
   * the listener's forwards without a bank follow them too. None (tests): everything direct.
   */
  network?: { environment: Environment; systemResolver: ProxyResolver | null };
  /** The data folder's recovery escrow (credentials/recoveryEscrow.ts); none: no recovery key (tests). */
  escrow?: KeyEscrow;
  /** Where Setup asks ngrok's local agent for a tunnel (127.0.0.1:4040 by default; a fake in tests). */
  ngrokAgentUrl?: string;
  log: Logger;
}

export interface RunningServices {
  handlers: Handlers;
  /** The services themselves, for `ledger` commands the control socket hands in; null when they could not open. */
  ledger: LedgerServices | null;
  /** Why they could not open, in a sentence; null when they did. */
  ledgerProblem: string | null;
  knownSecrets(): Iterable<string>;
  stop(): Promise<void>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function writeLines(file: string, lines: Iterable<string>): Promise<number> {
  const { path: partial, stream: output } = await createPartialFile(file);
  let count = 0;
  try {
    for (const line of lines) {
      count += 1;
      if (!output.write(line.endsWith('\n') ? line : line + '\n')) await once(output, 'drain');
    }
    output.end();
    await once(output, 'finish');
    await rename(partial, file);
    return count;
  } catch (error) {
    output.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

export async function startServices(options: ServicesOptions): Promise<RunningServices> {
  const { log } = options;
  // Replaced by each restart from Settings (a new loopback port, the same key).
  let sandbox = options.sandbox;
  const { secretStore, settings } = options;
  const secrets = new Set<string>();
  if (sandbox !== null) secrets.add(sandbox.keySecret);

  const publisher = createEventPublisher({
    send: options.send,
    knownSecrets: () => secrets,
    log: (message) => {
      log.error(`events: ${message}`);
    },
  });

  let ledger: LedgerServices | null = null;
  let ledgerProblem: string | null = null;
  try {
    ledger = await LedgerServices.open({
      dataFolder: options.dataFolder,
      secretStore,
      profileStorage: settings,
      embeddedBaseUrl: () => sandbox?.baseUrl ?? null,
      // Secrets stored in earlier sessions join the scrub list the moment a request uses them.
      onSecretUsed: (secret) => secrets.add(secret),
      ...(options.writeConfirmer === undefined ? {} : { writeConfirmer: options.writeConfirmer }),
      ...(options.network === undefined ? {} : { network: options.network }),
      ...(options.escrow === undefined ? {} : { escrow: options.escrow }),
    });
    if (sandbox !== null) {
      ledger.credentials.useSessionCredentials(
        EMBEDDED_SANDBOX_PROFILE_ID,
        sandbox.keyId,
        sandbox.keySecret,
        sandbox.baseUrl,
      );
    }
    for (const message of ledger.cache.opened.messages) log.warn(`cache: ${message}`);
  } catch (error) {
    // The record's own sentence (a damaged file names its newest verified backup) stands as it is.
    ledgerProblem =
      error instanceof RecordError ? messageOf(error) : `The offline cache could not open: ${messageOf(error)}`;
    log.error(ledgerProblem);
  }

  /**
   * The listener's bank: the profile's own client (its credentials, timeouts, safe retries
   * and typed errors), for hydration, reconciliation and registration.
   */
  async function bankPortFor(profileId: string): Promise<BankPort> {
    if (ledger === null) throw new IpcFailure('not_available', ledgerProblem ?? 'The services are not running.');
    const profile = ledger.profiles.find(profileId);
    if (profile.kind === 'embedded-sandbox') {
      if (sandbox === null) {
        throw new IpcFailure('not_available', 'The local sandbox bank is not running.', {
          action: SANDBOX_RESTART_ACTION,
        });
      }
    } else if ((await ledger.credentials.profileSecretState(profile)) !== 'set' || profile.baseUrl === null) {
      throw new IpcFailure('unauthorized', `No secret is stored for ${profile.name} at its current address.`, {
        action: 'Set the secret of this profile in Settings.',
      });
    }
    return bankClientPort(ledger.clients.clientFor(profile.id));
  }

  let listener: Listener | null = null;
  let listenerProblem: string | null = null;
  if (ledger !== null) {
    try {
      // Requests sealed under a data key that is gone could never be opened again.
      if (ledger.cache.opened.dataKeyReset !== null) forgetSealedRequests(ledger.cache.database);
      // In the app the listener's rows live in the encrypted cache: sealed like the bank's records.
      listener = await openListener({
        database: ledger.cache.database,
        secrets: secretStore,
        sealer: ledger.cache.sealer,
        pairWithSendLog: true,
        ...(options.network === undefined ? {} : { outbound: defaultOutbound(options.network) }),
      });
      if (sandbox !== null) listener.setBank(await bankPortFor(EMBEDDED_SANDBOX_PROFILE_ID));
    } catch (error) {
      listenerProblem = `The webhook listener could not open: ${messageOf(error)}`;
      log.error(listenerProblem);
    }
  } else {
    listenerProblem = ledgerProblem;
  }

  const unsubscribers: (() => void)[] = [];
  if (ledger !== null) {
    unsubscribers.push(
      ledger.sync.onProgress((progress) => publisher.publish('sync', 'progress', toContractProgress(progress))),
    );
    unsubscribers.push(
      ledger.clients.onConnectivity((profileId, state) =>
        publisher.publish('app', 'onlineStatus', toOnlineStatus(profileId, state, new Date())),
      ),
    );
  }
  if (listener !== null) {
    const current = listener;
    const onBatch = (batch: Batch<ListenerEvent>): void => {
      const requests = batch.items.flatMap((item) => (item.type === 'request' ? [toRequestSummary(item.request)] : []));
      // A label the bank's send log settled changes rows already shown: an empty push reloads them.
      const relabelled = batch.items.some((item) => item.type === 'label');
      if (requests.length > 0 || batch.dropped > 0 || relabelled) {
        publisher.publish('listener', 'requests', { requests, omitted: batch.dropped });
      }
      if (batch.items.some((item) => item.type === 'state')) {
        publisher.publish('listener', 'status', listenerStatusOf(current));
      }
    };
    current.on('batch', onBatch);
    unsubscribers.push(() => current.off('batch', onBatch));
  }

  /** A restarted sandbox: its address for the clients and the listener, its key for the scrub list. */
  async function useRestartedSandbox(next: SandboxAddress): Promise<boolean> {
    sandbox = next;
    secrets.add(next.keySecret);
    if (ledger === null) return false;
    ledger.credentials.useSessionCredentials(EMBEDDED_SANDBOX_PROFILE_ID, next.keyId, next.keySecret, next.baseUrl);
    if (listener !== null) listener.setBank(await bankPortFor(EMBEDDED_SANDBOX_PROFILE_ID));
    // Asked at once, so the Online badge and every waiting screen follow without waiting for the backoff.
    const checked = await ledger.clients.connectivityOf(EMBEDDED_SANDBOX_PROFILE_ID).checkNow();
    return checked.status === 'online';
  }

  // A sandbox that ends on its own is said at once (the Online badge, with the way to Settings).
  const sandboxStopped = options.sandboxKeeper?.onStopped(() => {
    void ledger?.clients.connectivityOf(EMBEDDED_SANDBOX_PROFILE_ID).checkNow();
  });
  if (sandboxStopped !== undefined) unsubscribers.push(sandboxStopped);

  // Team mode's one connection to the team server, once a window has used it.
  let teamSession: { close(): Promise<void> } | null = null;
  // The record's backups are listed and restored from the window even when the record did not open.
  const recordCredentials = new Credentials(secretStore, {
    ...(options.escrow === undefined ? {} : { escrow: options.escrow }),
  });
  const handlers = createHandlers({
    ledger,
    ledgerProblem,
    recordCredentials: () => ledger?.credentials ?? recordCredentials,
    app: { ...options.app, dataFolder: options.dataFolder },
    sandboxUrl: () => sandbox?.baseUrl ?? null,
    embeddedSandbox: embeddedSandboxControl(options.sandboxKeeper, () => sandbox, useRestartedSandbox),
    keychain: options.keychain,
    activeProfile: {
      get: () => {
        const value = settings.get('activeProfileId');
        return typeof value === 'string' ? value : null;
      },
      set: (profileId) => {
        settings.set('activeProfileId', profileId);
      },
    },
    chooseSavePath: options.chooseSavePath,
    team: {
      dataFolder: options.dataFolder,
      secretStore,
      onOpen: (session) => {
        teamSession = session;
      },
    },
    ...(options.printToPdf === undefined ? {} : { printToPdf: options.printToPdf }),
    openLink: options.openExternal,
    publisher,
    rememberSecret: (secret) => {
      secrets.add(secret);
    },
    listener,
    listenerProblem,
    bankPortFor,
    saveLines: async (defaultName, lines) => {
      const path = await options.chooseSavePath(defaultName);
      if (path === null) return { saved: false, path: null, rows: 0 };
      return { saved: true, path, rows: await writeLines(path, lines) };
    },
    confirm: options.confirm ?? (() => Promise.resolve(false)),
    ...(options.ngrokAgentUrl === undefined ? {} : { ngrokAgentUrl: options.ngrokAgentUrl }),
    audit: (entry) => {
      if (ledger === null) return;
      const services = ledger;
      let profileName = '';
      if (entry.profileId !== null) {
        try {
          profileName = services.profiles.find(entry.profileId).name;
        } catch {
          profileName = entry.profileId;
        }
      }
      services.cache.audit.record({ ...entry, profileId: entry.profileId ?? '', profileName });
    },
    requireConfirmation: async (profileId, action, confirmed) => {
      if (ledger === null) throw new IpcFailure('not_available', ledgerProblem ?? 'The services are not running.');
      const profile = ledger.profiles.find(profileId);
      await confirmProductionWrite(profile, action, null, confirmed, options.writeConfirmer ?? null);
    },
  });

  return {
    handlers,
    ledger,
    ledgerProblem,
    knownSecrets: () => secrets,
    async stop() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      // The listener first: it stops accepting, answers and keeps what is in flight.
      if (listener !== null) {
        await listener.close().catch((error: unknown) => {
          log.error(`listener: ${messageOf(error)}`);
        });
      }
      await teamSession?.close();
      // Then sync jobs (each page is one transaction) and the cache itself.
      if (ledger !== null) {
        await ledger.close().catch((error: unknown) => {
          log.error(`services: ${messageOf(error)}`);
        });
      }
    },
  };
}
