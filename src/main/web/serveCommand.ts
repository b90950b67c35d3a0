/**
 * `npm run serve` and `ledger serve`: web mode from a terminal. The first line says where the app
 * is open, with the address's one-time token; nothing printed or logged after it ever holds the
 * token. Ctrl+C (or SIGTERM) stops it cleanly; a second Ctrl+C ends it at once.
 */
import { dataFolderOf } from '../cli/common/commonOptions.ts';
import { detectKeychain } from '../services/credentials/keychainStatus.ts';
import type { SecretStore } from '../services/credentials/secretStore.ts';
import { KeyFileUnreadable, WeakPassphrase, WrongPassphrase } from '../services/credentials/keyFile.ts';
import type { SecretInput } from '../cli/ledger/readSecret.ts';
import { SecretInputProblem } from '../cli/ledger/readSecret.ts';
import { FileProfileStorage } from '../services/profiles/fileProfileStorage.ts';
import { isSafeExternalUrl } from '../app/externalLinks.ts';
import { createLogger, type Logger } from '../app/log.ts';
import {
  DataFolderInUse,
  folderHolder,
  holderName,
  lockDataFolder,
  type DataFolderLock,
} from '../app/dataFolderLock.ts';
import { askControlSocket } from '../app/controlSocket.ts';
import type { RecoveryKeyMade } from '../services/credentials/recoveryEscrow.ts';
import { startUnlockServer, type Unlocked } from './unlockServer.ts';
import { stopAtRisk } from './stopWords.ts';
import { openDataFolderSecrets, PassphraseNeeded, PassphraseProblem } from '../app/dataFolderSecrets.ts';
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
  /** The terminal the key file's passphrase is asked on, without echo (none, or not a TTY: never asked). */
  stdin?: SecretInput['stdin'];
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

/** Failures of the key file's passphrase: one sentence, exit 1, nothing changed. */
const KEY_FAILURES = [
  PassphraseNeeded,
  PassphraseProblem,
  WrongPassphrase,
  WeakPassphrase,
  KeyFileUnreadable,
  SecretInputProblem,
];

/**
 * The OS keychain where there is one; where there is none (a server, a container), the data
 * folder's key file under the officer's passphrase (app/dataFolderSecrets.ts): never memory only,
 * which lost the cache's key, and with it every review, at each restart (issue 34).
 */
async function keysOf(
  dataFolder: string,
  passphraseFile: string | null,
  io: ServeIo,
  log: Logger,
): Promise<SecretStore> {
  const opened = await openDataFolderSecrets(dataFolder, {
    file: passphraseFile,
    env: io.env,
    terminal:
      io.stdin === undefined
        ? null
        : { stdin: io.stdin, prompt: { write: (text: string) => io.stderr.write(text) !== false } },
  });
  if (opened.where.kind === 'key-file') {
    log.info(
      `${opened.where.created ? 'Made the key file' : 'Unlocked the key file'} ${opened.where.file}: ` +
        "this machine has no keychain, so the data folder's secrets are kept there under your passphrase.",
    );
  }
  return opened.store;
}

function recoveryNotice(made: RecoveryKeyMade): string {
  return (
    `\nThis data folder's recovery key was made. It is shown this once:\n\n  ${made.key}\n\n` +
    `It is also in ${made.file} (readable only by you). Move that file offline now (a USB stick in a safe, or ` +
    'print it and delete it): with it, `ledger record recover --recovery-key FILE` brings the record back after the ' +
    'keychain or the passphrase is lost; whoever holds it can open the record.\n\n'
  );
}

/**
 * `ledger serve --token`: the web mode running on the folder mints a new one-time sign-in
 * address, asked over its control socket (issue 35 W1); printed with the address, like a start.
 */
async function newSignInAddress(dataFolder: string, json: boolean, io: ServeIo): Promise<number> {
  const holder = folderHolder(dataFolder);
  if (holder === null || holder.shell !== 'web' || holder.socket === null) {
    io.stderr.write(
      holder === null
        ? `ledger serve --token: no web mode is running on ${dataFolder}: start it with npm run serve (it prints a sign-in address).\n`
        : `ledger serve --token: ${holderName(holder)} holds ${dataFolder}, not web mode${holder.shell === 'web' ? ' that takes commands' : ''}: there is no sign-in address to give.\n`,
    );
    return 1;
  }
  const answer = await askControlSocket(holder.socket, { request: 'sign-in-address' });
  if (answer === null || !('address' in answer)) {
    io.stderr.write(
      `ledger serve --token: ${holderName(holder)} did not give a sign-in address${answer !== null && 'refused' in answer ? ` (${answer.refused})` : ''}.\n`,
    );
    return 1;
  }
  if (json) io.stdout.write(JSON.stringify({ event: 'sign-in', url: answer.address }) + '\n');
  else
    io.stdout.write(
      `Sign in to Ledgerdesk at ${answer.address}\nIt works once; the browser signed in before keeps working until it is opened.\n`,
    );
  return 0;
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
  if (options.newToken) return newSignInAddress(dataFolderOf(options.dataFolder, io.env), options.json, io);
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
  let shell: RunningWebShell;
  let lock: DataFolderLock | null = null;
  // The browser that unlocked on the unlock page, to be sent on to the sign-in once web mode is up.
  let unlocked: Unlocked | null = null;
  let port = options.port;
  // The recovery key made during the start: shown once the address is printed.
  const recoveryNotices: string[] = [];
  // Whether the address was printed (the page served) before the start failed or finished.
  let printed = false as boolean;
  let redirect = null as RedirectPage | null;
  const printOpen = (address: { origin: string; entryUrl: string }, opened: boolean): void => {
    if (options.json) {
      io.stdout.write(
        JSON.stringify({
          event: 'open',
          url: address.entryUrl,
          origin: address.origin,
          dataFolder,
          browserOpened: opened,
        }) + '\n',
      );
    } else {
      io.stdout.write(`Ledgerdesk is open at ${address.entryUrl}\n`);
      io.stdout.write(
        (opened
          ? 'Opened in your browser. '
          : options.open
            ? 'No browser to open here: open the address above in one. '
            : 'Open the address above in your browser. ') +
          'It works once (it logs that browser in); tabs of that browser can then use ' +
          `${address.origin}/.\nData folder: ${dataFolder}\nCtrl+C stops Ledgerdesk.\n`,
      );
    }
    if (options.exposed) {
      io.stderr.write(
        `Warning: Ledgerdesk listens on ${options.host}, not only on this machine: anyone who can reach it can try ` +
          'to sign in. It speaks only HTTPS; only the address above lets a browser in, and it works once: keep it to yourself.\n',
      );
    }
    markStart('open-printed');
  };
  try {
    // The folder's lock first: no key file is read, made or changed by a second writer.
    lock = lockDataFolder(dataFolder, 'web');
    let secretStore: SecretStore;
    try {
      secretStore = io.secretStore ?? (await keysOf(dataFolder, options.passphraseFile, io, log));
    } catch (error) {
      if (!(error instanceof PassphraseNeeded)) throw error;
      // No file and no terminal: the first page is the unlock page, before any service starts.
      const waiting = await startUnlockServer({
        dataFolder,
        host: options.host,
        port: options.port,
        ...(tls === undefined ? {} : { tls }),
      });
      if (options.json) io.stdout.write(JSON.stringify({ event: 'locked', url: waiting.url, dataFolder }) + '\n');
      else
        io.stdout.write(
          `Ledgerdesk is locked: this machine has no keychain, and ${dataFolder}'s key file needs its passphrase.\n` +
            `Open ${waiting.url} in your browser to unlock it (or start with --passphrase-file FILE).\n`,
        );
      const answered = await Promise.race([waiting.unlocked, io.stopRequested.then(() => null)]);
      await waiting.close();
      if (answered === null) {
        lock.release();
        io.stdout.write(
          options.json ? '{"event":"stopped"}\n' : 'Ledgerdesk stopped before it was unlocked: nothing was opened.\n',
        );
        return 0;
      }
      unlocked = answered;
      port = waiting.port;
      secretStore = answered.store;
      log.info(`Unlocked the key file ${answered.store.file} from the unlock page.`);
    }
    markStart('keychain-detected');
    const openedAt = (address: { origin: string; entryUrl: string }): void => {
      printed = true;
      // The tab that typed the passphrase signs in with this start's one-time address.
      unlocked?.sendOn(address.entryUrl);
      redirect =
        options.open && unlocked === null
          ? (io.openEntryAddress ?? ((url: string) => openSecretAddressInDefaultBrowser(url, io.env)))(address.entryUrl)
          : null;
      printOpen(address, redirect !== null);
    };
    shell = await startWebShell({
      // The address is printed (and the browser opened) as soon as the page is served, before the
      // sandbox and the services are up (issue 36): the browser's launch and the page's load run
      // while they start, and the page's socket waits for them.
      onListening: openedAt,
      dataFolder,
      lock,
      rendererRoot: io.rendererRoot ?? defaultRendererRoot(),
      host: options.host,
      port,
      ...(tls === undefined ? {} : { tls }),
      // A Production write's question and its code (W2): on this terminal only, never on stdout's --json lines.
      terminal: (notice) => io.stderr.write(terminalLines(notice)),
      secretStore,
      // Shown once, here on the terminal (never on stdout's --json lines): the way back to the record (issue 34).
      ...(io.secretStore === undefined
        ? { recoveryKeyMade: (made: RecoveryKeyMade) => recoveryNotices.push(recoveryNotice(made)) }
        : {}),
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
    // A recovery key made before the start failed is still shown: its file exists now.
    for (const notice of recoveryNotices.splice(0)) io.stderr.write(notice);
    if (!printed) unlocked?.sendOn(null);
    redirect?.remove();
    lock?.release();
    if (KEY_FAILURES.some((kind) => error instanceof kind)) {
      io.stderr.write(`ledger serve: ${messageOf(error)}\n`);
      return 1;
    }
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
    // After the address was printed, a supervisor reading --json learns the start failed.
    if (printed && options.json) io.stdout.write(JSON.stringify({ event: 'failed', message: messageOf(error) }) + '\n');
    return 1;
  }

  // After the address, not before it: the start stays a few lines (issue 38), and the recovery key
  // is the last thing on the terminal, where it is seen.
  for (const notice of recoveryNotices.splice(0)) io.stderr.write(notice);
  io.onOpen?.(shell);

  await io.stopRequested;
  if (!options.json) io.stdout.write('Stopping: finishing the work in flight…\n');
  const audit = shell.ledgerdesk.services.ledger?.cache.audit ?? null;
  await shell.stop();
  redirect?.remove();
  const atRisk = stopAtRisk(audit);
  if (options.json)
    io.stdout.write(JSON.stringify({ event: 'stopped', ...(atRisk === null ? {} : { atRisk }) }) + '\n');
  else io.stdout.write(atRisk === null ? 'Ledgerdesk stopped. Nothing was lost.\n' : `Ledgerdesk stopped. ${atRisk}\n`);
  return 0;
}
