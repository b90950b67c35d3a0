/**
 * Web mode: the second shell. The same sandbox, services and router core the Electron shell
 * starts (app/startLedgerdesk.ts), behind a token-gated HTTP server on loopback that serves
 * the built renderer and carries the IPC contract over one WebSocket. Never imports electron.
 *
 * Stopping (Ctrl+C) keeps everything: new sockets and calls are refused, calls in flight finish
 * and are answered, then the services stop in their own order (listener, sync, cache) and the
 * sandbox last; the data folder's lock goes at the very end.
 */
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { KeychainStatus } from '../services/credentials/keychainStatus.ts';
import type { SecretStore } from '../services/credentials/secretStore.ts';
import type { ProfileStorage } from '../services/profiles/profileStorage.ts';
import type { RunningLedgerdesk } from '../app/startLedgerdesk.ts';
import { openControlDoor, type ControlDoor } from '../app/controlDoor.ts';
import type { SandboxChild } from '../app/embeddedSandbox.ts';
import type { Logger } from '../app/log.ts';
import { lockDataFolder, type DataFolderLock } from '../app/dataFolderLock.ts';
import type { RecoveryKeyMade } from '../services/credentials/recoveryEscrow.ts';
import { savePathIn } from './downloads.ts';
import { TOKEN_PARAMETER, WebAccess } from './webAccess.ts';
import type { WebConnections } from './webConnections.ts';
import { createWebServer, serveWebMode, type ServedWebMode, type TlsFiles } from './webServer.ts';
import { certificateNames } from './tlsFiles.ts';
import { ConfirmationCodes, type TerminalNotice } from './confirmationCodes.ts';
import { WEB_BRIDGE_FILE } from './rendererFiles.ts';
import { markStart } from '../app/startTimes.ts';

export interface WebShellOptions {
  dataFolder: string;
  /** out/renderer, built by `npm run build`. */
  rendererRoot: string;
  /** 127.0.0.1 unless the user exposed it on purpose (`--expose`). */
  host?: string;
  /** 0: a free port. */
  port?: number;
  /** Serve over TLS with this certificate and key (required beyond loopback: serveArguments.ts, W3). */
  tls?: TlsFiles;
  /**
   * The terminal of `serve`, where a Production write's question and its code are shown (W2):
   * only someone who reads it can confirm. None: every such question is refused.
   */
  terminal?: (notice: TerminalNotice) => void;
  secretStore: SecretStore;
  /** Shown once when the folder's recovery key is made; none: no recovery escrow (tests). */
  recoveryKeyMade?: (made: RecoveryKeyMade) => void;
  /** The data folder's lock, taken by serve before it unlocked the key file; none: taken here. */
  lock?: DataFolderLock;
  settings: ProfileStorage;
  keychain: () => Promise<KeychainStatus>;
  forkSandbox: () => SandboxChild;
  /** Where exports and reports are saved (there is no save dialog in a browser tab). */
  downloadsFolder: string;
  openExternal: (url: string) => boolean;
  /** The review report as PDF (chromiumPdfPrinter.ts); none: the report dialog says why not. */
  printToPdf?: (html: string) => Promise<Uint8Array>;
  app: { name: string; version: string; platform: string };
  environment?: NodeJS.ProcessEnv;
  /**
   * Called once the server listens and answers the page, before the sandbox and the services
   * are up (issue 36): serve prints the address here, so the browser loads the page while they
   * start; the page's socket waits for them. `startWebShell` still resolves only once they are up.
   */
  onListening?: (address: { origin: string; entryUrl: string }) => void;
  log: Logger;
}

export interface RunningWebShell {
  /** http://127.0.0.1:PORT: the origin, without the token. */
  origin: string;
  /** The address with its one-time token: shown once, on the first line, never logged. */
  entryUrl: string;
  /**
   * A new one-time sign-in address (for `ledger serve --token`, once the control socket of
   * issue 34 reaches this process): the older unused one stops working; the browser signed in
   * now keeps working until the new one is opened.
   */
  newSignInAddress(): string;
  ledgerdesk: RunningLedgerdesk;
  connections: WebConnections;
  /** Refuses new work, lets calls in flight finish, stops everything; safe to call twice. */
  stop(): Promise<void>;
}

export class RendererNotBuilt extends Error {
  constructor(root: string) {
    super(`The app is not built (${join(root, 'index.html')} is missing): run npm run build first.`);
    this.name = 'RendererNotBuilt';
  }
}

function hostNameOfAddress(name: string): string {
  return name.includes(':') ? `[${name}]` : name;
}

/** host:port forms the server answers to: its bound address, and every interface's when exposed on all. */
function ownHosts(host: string, port: number): string[] {
  const names = new Set<string>();
  const add = (name: string): void => {
    names.add(`${hostNameOfAddress(name)}:${String(port)}`.toLowerCase());
  };
  if (host === '0.0.0.0' || host === '::') {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) add(address.address);
    }
  } else {
    add(host);
  }
  return [...names];
}

function urlHost(host: string, certificate: readonly string[]): string {
  // Over TLS, the address the browser opens must be a name the certificate is for.
  const named = certificate.find((name) => !/^[0-9.]+$/.test(name) && !name.includes(':'));
  if (named !== undefined) return named;
  if (host === '0.0.0.0' || host === '::') {
    const external = Object.values(networkInterfaces())
      .flatMap((addresses) => addresses ?? [])
      .find((address) => address.family === 'IPv4' && !address.internal);
    return external?.address ?? '127.0.0.1';
  }
  return host.includes(':') ? `[${host}]` : host;
}

/** The services' side of web mode, loaded once the page is served (their code is most of Ledgerdesk's). */
async function servicesCode(): Promise<{
  startLedgerdesk: typeof import('../app/startLedgerdesk.ts').startLedgerdesk;
  WebConnections: typeof import('./webConnections.ts').WebConnections;
  TabWriteConfirmer: typeof import('./tabWriteConfirmer.ts').TabWriteConfirmer;
  warmFirstScreen: typeof import('../app/warmFirstScreen.ts').warmFirstScreen;
}> {
  const [start, sockets, confirmer, warm] = await Promise.all([
    import('../app/startLedgerdesk.ts'),
    import('./webConnections.ts'),
    import('./tabWriteConfirmer.ts'),
    import('../app/warmFirstScreen.ts'),
  ]);
  return {
    startLedgerdesk: start.startLedgerdesk,
    WebConnections: sockets.WebConnections,
    TabWriteConfirmer: confirmer.TabWriteConfirmer,
    warmFirstScreen: warm.warmFirstScreen,
  };
}

export async function startWebShell(options: WebShellOptions): Promise<RunningWebShell> {
  const { log } = options;
  if (
    !existsSync(join(options.rendererRoot, 'index.html')) ||
    !existsSync(join(options.rendererRoot, WEB_BRIDGE_FILE))
  ) {
    throw new RendererNotBuilt(options.rendererRoot);
  }
  const host = options.host ?? '127.0.0.1';
  // Known once the port is; the router reads it on every call.
  const allowedOrigins: string[] = [];
  // Events reach the sockets once they exist; the services start after the server listens.
  let connections: WebConnections | null = null;
  // The sockets' side, once the services are up: a socket that comes before waits for it
  // (webServer.ts), one that comes after a failed start is told why (CLOSE_START_FAILED).
  let connectionsUp: (ready: WebConnections) => void = () => undefined;
  let startFailed: (error: unknown) => void = () => undefined;
  const connectionsReady = new Promise<WebConnections>((resolve, reject) => {
    connectionsUp = resolve;
    startFailed = reject;
  });
  // Nobody may be waiting: a failed start is still thrown by this function.
  connectionsReady.catch(() => undefined);
  // The terminal's codes: Production writes and the listener's questions (W2).
  const codes = new ConfirmationCodes({ show: options.terminal ?? (() => undefined) });
  if (options.terminal === undefined)
    log.warn('web mode has no terminal to show confirmation codes: Production writes are refused.');
  const certificate = options.tls === undefined ? [] : certificateNames(options.tls.cert);
  // The folder's lock first, before anything listens: a second writer is refused with the
  // address of the one running, and nothing of it is printed (throws DataFolderInUse).
  const lock = options.lock ?? lockDataFolder(options.dataFolder, 'web');
  let server: Server | null = null;
  let served: ServedWebMode | null = null;
  let door: ControlDoor | null = null;
  let ledgerdesk: RunningLedgerdesk;
  let code: Awaited<ReturnType<typeof servicesCode>>;
  let origin = '';
  let access: WebAccess;
  try {
    // Then the control socket: a `ledger` command or `serve --token` finds this app from the
    // moment its address is printed, and waits for its services (app/controlDoor.ts).
    door = await openControlDoor({
      dataFolder: options.dataFolder,
      lock,
      secretStore: options.secretStore,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      log,
    });
    // The door opens before the services' code is loaded and before the sandbox and the services
    // start (issue 36, item 5): the page and its files are answered at once (they need only the
    // access check and out/renderer), so the browser launches and loads the page meanwhile; its
    // socket waits for the services (webServer.ts).
    const listening = createWebServer(options.tls);
    server = listening;
    listening.listen(options.port ?? 0, host);
    await once(listening, 'listening');
    const { port } = listening.address() as AddressInfo;
    origin = `${options.tls === undefined ? 'http' : 'https'}://${urlHost(host, certificate)}:${String(port)}`;
    allowedOrigins.push(origin);
    const hosts = [...ownHosts(host, port), ...certificate.map((name) => `${hostNameOfAddress(name)}:${String(port)}`)];
    const checked = new WebAccess({ hosts, origin, secure: options.tls !== undefined });
    access = checked;
    served = serveWebMode(listening, {
      access: checked,
      connections: connectionsReady,
      rendererRoot: options.rendererRoot,
      log: log.error,
    });
    // A second start on this folder is refused with this address from now on.
    lock.announce(origin);
    // `ledger serve --token`, over the control socket: a new one-time address for a closed browser (W1).
    door.handlers.signInAddress = () => `${origin}/?${TOKEN_PARAMETER}=${checked.mintSignInToken()}`;
    markStart('listening');
    options.onListening?.({ origin, entryUrl: `${origin}/?${TOKEN_PARAMETER}=${checked.token}` });
    code = await servicesCode();
    markStart('services-code-imported');
    const confirmer = new code.TabWriteConfirmer(() => connections, codes);
    ledgerdesk = await code.startLedgerdesk({
      dataFolder: options.dataFolder,
      shell: 'web',
      forkSandbox: options.forkSandbox,
      secretStore: options.secretStore,
      lock,
      controlDoor: door,
      ...(options.recoveryKeyMade === undefined ? {} : { recoveryKeyMade: options.recoveryKeyMade }),
      settings: options.settings,
      keychain: options.keychain,
      app: options.app,
      // The router trusts a socket this server accepted, showing the page's own origin.
      senderPolicy: { isOwnWindow: (id) => connections?.isOwnConnection(id) ?? false, allowedOrigins },
      send: (channel, payload) => connections?.publish(channel, payload),
      chooseSavePath: (name) => savePathIn(options.downloadsFolder, name),
      openExternal: options.openExternal,
      ...(options.printToPdf === undefined ? {} : { printToPdf: options.printToPdf }),
      confirm: (question) => connections?.askCaller(question) ?? Promise.resolve(false),
      // The desktop app asks in its native dialog; web mode asks the calling tab for the terminal's code.
      writeConfirmer: confirmer,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      log,
    });
  } catch (error) {
    // The sockets waiting for the services are told the start failed (the page says so), then
    // the server closes, the control socket, and the lock goes (startLedgerdesk's own failure
    // released it already; releasing twice is harmless).
    startFailed(error);
    if (server !== null) await closeAfterFailure(server, served);
    door?.servicesUp(null);
    await door?.close();
    lock.release();
    throw error;
  }
  const ready = new code.WebConnections({
    router: ledgerdesk.router,
    codes,
    origin,
    log: log.warn,
  });
  connections = ready;
  // One browser at a time: a new sign-in ends the sockets of the one before.
  access.onSignIn((signIn) => {
    ready.closeOtherSignIns(signIn.id);
  });
  connectionsUp(ready);
  // The first screen's calls made once here, while the browser still loads the page
  // (app/warmFirstScreen.ts says why); after the sockets already waiting were let in.
  const warm = code.warmFirstScreen;
  setImmediate(() => {
    void warm(ledgerdesk.services.handlers, () => ledgerdesk.services.knownSecrets());
  });
  const liveServer: Server = server;
  const liveAccess: WebAccess = access;

  let stopping: Promise<void> | null = null;
  return {
    origin,
    entryUrl: `${origin}/?${TOKEN_PARAMETER}=${liveAccess.token}`,
    newSignInAddress: () => `${origin}/?${TOKEN_PARAMETER}=${liveAccess.mintSignInToken()}`,
    ledgerdesk,
    connections: ready,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => {
          liveServer.close(() => {
            resolve();
          });
        });
        await ready.close();
        liveServer.closeAllConnections();
        await closed;
        await ledgerdesk.stop();
      })();
      return stopping;
    },
  };
}

/** Stops listening after a failed start, once the sockets told of it have closed (webServer.ts). */
async function closeAfterFailure(server: Server, served: ServedWebMode | null): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  await served?.failureTold();
  // Idle keep-alive sockets of the page do not hold the stop.
  server.closeAllConnections();
  await closed;
}
