/**
 * What both shells start, in the same order, on one data folder: the embedded sandbox bank in
 * its own process (its key kept in the keychain), the services (profiles, keychain, cache,
 * sync, listener, review, audit), and the router core in front of their handlers. The Electron
 * shell (index.ts) and web mode (web/webShell.ts) differ only in what they pass in: how the
 * sandbox process is forked, where settings live, who may call, how events reach the page,
 * and how the user is asked. `stop()` ends everything in the order nothing is lost: the
 * services (listener keeps what is in flight, sync pages finish, the cache closes), then the
 * sandbox (deliveries in flight finish).
 */
import { join } from 'node:path';
import type { KeychainStatus } from '../services/credentials/keychainStatus.ts';
import { embeddedSandboxKey } from '../services/credentials/sandboxKey.ts';
import type { SecretStore } from '../services/credentials/secretStore.ts';
import type { ProfileStorage } from '../services/profiles/profileStorage.ts';
import type { ConfirmQuestion } from '../ipc/listenerHandlers.ts';
import { createRouter, type Router, type RouterLogEntry } from '../ipc/routerCore.ts';
import type { SenderPolicy } from '../ipc/senderPolicy.ts';
import {
  EMBEDDED_SANDBOX_FILE,
  embeddedSandboxIsLean,
  LEAN_SANDBOX_VARIABLE,
  startEmbeddedSandbox,
  type EmbeddedSandbox,
  type SandboxChild,
} from './embeddedSandbox.ts';
import { RestartableSandbox } from './restartableSandbox.ts';
import type { Logger } from './log.ts';
import { startServices, type RunningServices } from './services.ts';
import type { WriteConfirmer } from '../services/writes/writeConfirmer.ts';
import { syncEmbeddedSandboxOnFirstOpen, type FirstOpenSync } from './firstOpenSync.ts';
import { lockDataFolder, type DataFolderLock, type WriterShell } from './dataFolderLock.ts';
import { dataFolderModeLine, ownDataFolder } from '../services/files/dataFolderMode.ts';
import { markStart } from './startTimes.ts';
import { RecoveryEscrow, type RecoveryKeyMade } from '../services/credentials/recoveryEscrow.ts';
import { openControlDoor, type ControlDoor } from './controlDoor.ts';
import type { ProxyResolver } from '../services/http/systemProxy.ts';

export interface LedgerdeskOptions {
  dataFolder: string;
  /** Which shell starts: the data folder's lock names it (one writer per folder, either shell). */
  shell: WriterShell;
  /**
   * The folder's lock, when the shell took it itself before anything else (web mode takes it
   * before it asks for the key file's passphrase); released by stop() like one taken here.
   */
  lock?: DataFolderLock;
  /**
   * Shown once when the data folder's recovery key is made (credentials/recoveryEscrow.ts);
   * none: no recovery escrow is kept (tests).
   */
  recoveryKeyMade?: (made: RecoveryKeyMade) => void;
  /** Starts the sandbox's own process (a utilityProcess in Electron, a Node child in web mode). */
  forkSandbox: () => SandboxChild;
  secretStore: SecretStore;
  settings: ProfileStorage;
  keychain: () => Promise<KeychainStatus>;
  app: { name: string; version: string; platform: string };
  /** Who may call: the shell's own windows (Electron) or its own sockets (web mode). */
  senderPolicy: SenderPolicy;
  send: (channel: string, payload: unknown) => void;
  chooseSavePath: (defaultName: string) => Promise<string | null>;
  printToPdf?: (html: string) => Promise<Uint8Array>;
  openExternal: (url: string) => boolean;
  confirm?: (question: ConfirmQuestion) => Promise<boolean>;
  /** Main's own question before every write to a Production bank (I1); none: the caller's flag decides. */
  writeConfirmer?: WriteConfirmer;
  environment?: NodeJS.ProcessEnv;
  /**
   * The system's proxy per URL (Chromium's, in the desktop app); web mode has none, and its
   * profiles on "the system's proxy settings" read HTTPS_PROXY / HTTP_PROXY / NO_PROXY instead.
   */
  systemProxy?: ProxyResolver;
  /**
   * The folder's control socket, opened by the shell before it called (web mode: before it
   * printed its address, issue 36); none: opened here, before the sandbox and the services.
   */
  controlDoor?: ControlDoor;
  log: Logger;
}

export interface RunningLedgerdesk {
  services: RunningServices;
  router: Router;
  sandbox: EmbeddedSandbox | null;
  /** The data folder's lock, held until stop() ends; web mode announces its address on it. */
  lock: Pick<DataFolderLock, 'announce'>;
  /** Web mode: how `ledger serve --token` gets a new sign-in address over the control socket. */
  offerSignInAddress(mint: () => string): void;
  /** The first open's sync of the embedded sandbox (firstOpenSync.ts): started in the background, never awaited by start. */
  firstOpenSync: Promise<FirstOpenSync>;
  /** Ends the services, then the sandbox; never throws (problems are logged). */
  stop(): Promise<void>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The app's sandbox, started now and restartable from Settings on the same data file and key.
 * A failure to start is logged and kept as its state's problem: the app runs on its cache.
 */
async function keepSandbox(options: LedgerdeskOptions): Promise<RestartableSandbox> {
  const { log } = options;
  const keeper = new RestartableSandbox({
    start: async () => {
      const key = await embeddedSandboxKey(options.secretStore);
      if (!key.kept) log.warn('embedded sandbox: the keychain could not keep its key; a new one is used for this run.');
      return startEmbeddedSandbox({
        fork: options.forkSandbox,
        dataFile: join(options.dataFolder, EMBEDDED_SANDBOX_FILE),
        key: { keyId: key.keyId, keySecret: key.keySecret },
        lean:
          (options.environment ?? process.env)[LEAN_SANDBOX_VARIABLE] === '1' ||
          embeddedSandboxIsLean(options.settings),
      });
    },
    onUnexpectedExit: (code) => {
      log.error(
        `the embedded sandbox bank stopped (exit code ${String(code)}); the cache stays readable, and Settings can restart it.`,
      );
    },
  });
  if ((await keeper.start()) === null) {
    const state = keeper.state();
    log.error(`embedded sandbox: ${state.running ? 'started' : state.problem}`);
  }
  return keeper;
}

/**
 * Starts everything on the data folder, or throws DataFolderInUse (before anything starts)
 * when another Ledgerdesk, desktop or web, is its writer.
 */
export async function startLedgerdesk(options: LedgerdeskOptions): Promise<RunningLedgerdesk> {
  const folderMode = dataFolderModeLine(options.dataFolder, ownDataFolder(options.dataFolder));
  if (folderMode !== null) options.log.warn(folderMode);
  const lock = options.lock ?? lockDataFolder(options.dataFolder, options.shell);
  markStart('data-folder-locked');
  try {
    return await startOnLockedFolder(options, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startOnLockedFolder(options: LedgerdeskOptions, lock: DataFolderLock): Promise<RunningLedgerdesk> {
  // The control socket first, before the sandbox and the services (issue 36; controlDoor.ts):
  // web mode opens it itself before it prints its address, the desktop app here.
  const door =
    options.controlDoor ??
    (await openControlDoor({
      dataFolder: options.dataFolder,
      lock,
      secretStore: options.secretStore,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      log: options.log,
    }));
  try {
    return await startBehindControl(options, lock, door);
  } catch (error) {
    // Commands waiting for the services are told they did not open.
    door.servicesUp(null);
    await door.close();
    throw error;
  }
}

async function startBehindControl(
  options: LedgerdeskOptions,
  lock: DataFolderLock,
  door: ControlDoor,
): Promise<RunningLedgerdesk> {
  const { log } = options;
  const keeper = await keepSandbox(options);
  const sandbox = keeper.current();
  markStart('sandbox-ready');
  const services = await startServices({
    dataFolder: options.dataFolder,
    sandbox,
    sandboxKeeper: keeper,
    secretStore: options.secretStore,
    settings: options.settings,
    keychain: options.keychain,
    app: options.app,
    send: options.send,
    chooseSavePath: options.chooseSavePath,
    ...(options.printToPdf === undefined ? {} : { printToPdf: options.printToPdf }),
    openExternal: options.openExternal,
    ...(options.confirm === undefined ? {} : { confirm: options.confirm }),
    ...(options.writeConfirmer === undefined ? {} : { writeConfirmer: options.writeConfirmer }),
    network: { environment: options.environment ?? process.env, systemResolver: options.systemProxy ?? null },
    ...(options.recoveryKeyMade === undefined
      ? {}
      : {
          escrow: new RecoveryEscrow(options.dataFolder, options.recoveryKeyMade, options.environment ?? process.env),
        }),
    log,
  });
  markStart('services-started');
  door.servicesUp(services);
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: options.senderPolicy,
    knownSecrets: () => services.knownSecrets(),
    log: (entry: RouterLogEntry) => {
      log[entry.level](`ipc ${entry.channel}: ${entry.message}`);
    },
  });
  // In the background: the window opens at once and shows the job as it runs.
  const firstOpenSync: Promise<FirstOpenSync> =
    sandbox === null
      ? Promise.resolve({ started: false, reason: 'failed' })
      : syncEmbeddedSandboxOnFirstOpen(services.handlers, log);
  let stopping: Promise<void> | null = null;
  return {
    services,
    router,
    // The one running now: a restart from Settings replaces it.
    get sandbox() {
      return keeper.current();
    },
    lock: {
      announce: (address) => {
        lock.announce(address);
      },
    },
    firstOpenSync,
    offerSignInAddress: (mint) => {
      door.handlers.signInAddress = mint;
    },
    stop() {
      stopping ??= (async () => {
        // No command is taken once stopping starts; one in flight is answered first.
        await door.close();
        // Its job, once started, is the sync service's: stopping the services lets its page finish.
        await firstOpenSync;
        try {
          await services.stop();
        } catch (error) {
          log.error(`shutdown: ${messageOf(error)}`);
        }
        try {
          await keeper.stop();
        } catch (error) {
          log.error(`shutdown: ${messageOf(error)}`);
        }
        // Last: the folder is free only once nothing writes to it.
        lock.release();
      })();
      return stopping;
    },
  };
}
