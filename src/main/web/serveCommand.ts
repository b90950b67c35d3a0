/**
 * `npm run serve` and `ledger serve`: web mode from a terminal. The first line says where the app
 * is open, with the address's one-time token; nothing printed or logged after it ever holds the
 * token. Ctrl+C (or SIGTERM) stops it cleanly; a second Ctrl+C ends it at once.
 */
import { dataFolderOf } from '../cli/common/commonOptions.ts';
import { detectKeychain } from '../services/credentials/keychainStatus.ts';
import { KeyringSecretStore } from '../services/credentials/keyringSecretStore.ts';
import { InMemorySecretStore, type SecretStore } from '../services/credentials/secretStore.ts';
import { FileProfileStorage } from '../services/profiles/fileProfileStorage.ts';
import { isSafeExternalUrl } from '../app/externalLinks.ts';
import { createLogger, type Logger } from '../app/log.ts';
import { DataFolderInUse } from '../app/dataFolderLock.ts';
import { markStart } from '../app/startTimes.ts';
import { defaultRendererRoot } from './builtFiles.ts';
import { defaultDownloadsFolder } from './downloads.ts';
import { forkSandboxChild } from './forkSandbox.ts';
import type { SandboxChild } from '../app/embeddedSandbox.ts';
import { webPdfPrinter } from './chromiumPdfPrinter.ts';
import { openInDefaultBrowser, openSecretAddressInDefaultBrowser, type RedirectPage } from './openBrowser.ts';
import { parseServeArguments, SERVE_USAGE } from './serveArguments.ts';
import { UsageError } from '../cli/common/usageError.ts';
import { RendererNotBuilt, startWebShell, type RunningWebShell } from './webShell.ts';
import { readTlsFiles, TlsFilesUnreadable } from './tlsFiles.ts';
import { terminalLines } from './confirmationCodes.ts';
import type { TlsFiles } from './webServer.ts';

export interface ServeIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  /** Resolves when the user asks to stop (Ctrl+C, SIGTERM). */
  stopRequested: Promise<void>;
  secretStore?: SecretStore;
  rendererRoot?: string;
  /** Opens a link of the app (no secret in it) in the user's browser. */
  openBrowser?: (url: string) => boolean;
  /**
   * Opens the address with the token (never on a command line: openBrowser.ts); null when there
   * is no browser here. Tests pass their own.
   */
  openEntryAddress?: (url: string) => RedirectPage | null;
  /** Forks the sandbox's process (serve.ts passes one forked early); default: a new Node child. */
  forkSandbox?: () => SandboxChild;
  /** Called once the app is open (tests and `npm start` use it). */
  onOpen?: (shell: RunningWebShell) => void;
}

/**
 * The OS keychain where there is one. Where there is none (a server, a container, a build
 * machine), secrets and the cache's key live in this process's memory for this run only, and
 * the app says the keychain is unavailable: the cache is dropped and synced again next run,
 * never kept under a key written to disk.
 */
async function keychainOrSessionStore(log: Logger): Promise<SecretStore> {
  const status = await detectKeychain();
  if (status.available) return new KeyringSecretStore();
  log.warn(
    `${status.message} Secrets and the offline cache's key are kept in memory for this run only; ` +
      'the cache is synced again next time.',
  );
  return new InMemorySecretStore();
}

function definedPrinter(printToPdf: ((html: string) => Promise<Uint8Array>) | undefined): {
  printToPdf?: (html: string) => Promise<Uint8Array>;
} {
  return printToPdf === undefined ? {} : { printToPdf };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function runServe(args: readonly string[], io: ServeIo): Promise<number> {
  let options;
  try {
    options = parseServeArguments(args);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`ledger serve: ${error.message}\n${SERVE_USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    io.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  if (options.newToken) {
    // The running web mode mints it (RunningWebShell.newSignInAddress); this command reaches it
    // through the local control socket of issue 34, which is not in this version yet.
    io.stderr.write(
      'ledger serve --token: this version cannot reach the running web mode yet (its control socket is not built). ' +
        'For a new sign-in address, stop web mode (Ctrl+C in its terminal) and start it again: it prints one.\n',
    );
    return 1;
  }
  let tls: TlsFiles | undefined;
  try {
    tls = options.tls === null ? undefined : readTlsFiles(options.tls.certFile, options.tls.keyFile);
  } catch (error) {
    if (!(error instanceof TlsFilesUnreadable)) throw error;
    io.stderr.write(`ledger serve: ${error.message}\n`);
    return 2;
  }
  const log: Logger = createLogger((line) => io.stderr.write(`${line}\n`));
  const dataFolder = dataFolderOf(options.dataFolder, io.env);
  const secretStore = io.secretStore ?? (await keychainOrSessionStore(log));
  markStart('keychain-detected');
  let shell: RunningWebShell;
  try {
    shell = await startWebShell({
      dataFolder,
      rendererRoot: io.rendererRoot ?? defaultRendererRoot(),
      host: options.host,
      port: options.port,
      ...(tls === undefined ? {} : { tls }),
      // A Production write's question and its code (W2): on this terminal only, never on stdout's --json lines.
      terminal: (notice) => io.stderr.write(terminalLines(notice)),
      secretStore,
      settings: new FileProfileStorage(dataFolder),
      keychain: () => detectKeychain(),
      forkSandbox: io.forkSandbox ?? forkSandboxChild,
      downloadsFolder: defaultDownloadsFolder(io.env),
      // A link in the app opens in the user's browser, after the same check the desktop app makes.
      openExternal: (url) => isSafeExternalUrl(url) && (io.openBrowser ?? openInDefaultBrowser)(url),
      ...definedPrinter(webPdfPrinter(io.env)),
      app: { name: 'Ledgerdesk', version: process.env['npm_package_version'] ?? '0.1.0', platform: process.platform },
      environment: io.env,
      log,
    });
  } catch (error) {
    if (error instanceof DataFolderInUse || error instanceof RendererNotBuilt) {
      if (options.json) {
        io.stdout.write(
          JSON.stringify({
            event: 'refused',
            reason: error.name,
            message: error.message,
            ...(error instanceof DataFolderInUse ? { address: error.address } : {}),
          }) + '\n',
        );
      } else {
        io.stderr.write(`${error.message}\n`);
      }
      return 1;
    }
    io.stderr.write(`Ledgerdesk could not start in web mode: ${messageOf(error)}\n`);
    return 1;
  }

  const redirect = options.open
    ? (io.openEntryAddress ?? ((url: string) => openSecretAddressInDefaultBrowser(url, io.env)))(shell.entryUrl)
    : null;
  const opened = redirect !== null;
  if (options.json) {
    io.stdout.write(
      JSON.stringify({ event: 'open', url: shell.entryUrl, origin: shell.origin, dataFolder, browserOpened: opened }) +
        '\n',
    );
  } else {
    io.stdout.write(`Ledgerdesk is open at ${shell.entryUrl}\n`);
    io.stdout.write(
      (opened
        ? 'Opened in your browser. '
        : options.open
          ? 'No browser to open here: open the address above in one. '
          : 'Open the address above in your browser. ') +
        'It works once (it logs that browser in); tabs of that browser can then use ' +
        `${shell.origin}/.\nData folder: ${dataFolder}\nCtrl+C stops Ledgerdesk.\n`,
    );
  }
  if (options.exposed) {
    io.stderr.write(
      `Warning: Ledgerdesk listens on ${options.host}, not only on this machine: anyone who can reach it can try ` +
        'to sign in. It speaks only HTTPS; only the address above lets a browser in, and it works once: keep it to yourself.\n',
    );
  }
  markStart('open-printed');
  io.onOpen?.(shell);

  await io.stopRequested;
  if (!options.json) io.stdout.write('Stopping: finishing the work in flight…\n');
  await shell.stop();
  redirect?.remove();
  if (options.json) io.stdout.write(JSON.stringify({ event: 'stopped' }) + '\n');
  else io.stdout.write('Ledgerdesk stopped. Nothing was lost.\n');
  return 0;
}
