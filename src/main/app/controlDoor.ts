/**
 * A running Ledgerdesk's control socket (controlSocket.ts), opened before its services start
 * (issue 36): from the moment the data folder's lock is held and, in web mode, before the
 * address is printed, a `ledger` command or `ledger serve --token` finds the app that holds the
 * folder. A command that comes while the services start waits for them, it is not refused; if
 * they do not open, it is told why. Light on purpose: web mode opens it before it loads the
 * services' code, which the command runner (hostedLedger.ts) is loaded with on first use.
 */
import type { SecretStore } from '../services/credentials/secretStore.ts';
import type { RunningServices } from './services.ts';
import type { DataFolderLock } from './dataFolderLock.ts';
import type { Logger } from './log.ts';
import { startControlServer, type ControlHandlers, type ControlServer } from './controlSocket.ts';

export interface ControlDoor {
  /** What the socket answers; web mode sets `signInAddress` once it listens. */
  handlers: ControlHandlers;
  server: ControlServer | null;
  /** The services are up (or did not open: null): commands waiting for them run now, or are told why. */
  servicesUp(services: RunningServices | null): void;
  /** No command is taken any more; one in flight is answered first. */
  close(): Promise<void>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function openControlDoor(options: {
  dataFolder: string;
  lock: DataFolderLock;
  secretStore: SecretStore;
  environment?: NodeJS.ProcessEnv;
  log: Logger;
}): Promise<ControlDoor> {
  const env = options.environment ?? process.env;
  let servicesUp: (services: RunningServices | null) => void = () => undefined;
  const servicesReady = new Promise<RunningServices | null>((resolve) => {
    servicesUp = resolve;
  });
  // `ledger` commands started while this app runs are run here, on these services (one writer).
  const handlers: ControlHandlers = {
    ledger: async (args, stdin) => {
      const services = await servicesReady;
      // Services that did not open are not opened a second time for a command: it is told why.
      if (services?.ledger == null) {
        return {
          code: 1,
          stdout: '',
          stderr: `ledger: the running Ledgerdesk could not open this data folder's services (${services?.ledgerProblem ?? 'see its log'}); stop it, fix that, and run this again.\n`,
        };
      }
      // Loaded on first use: the command runner is all of `ledger`, none of which a start needs.
      const { runHostedLedger } = await import('./hostedLedger.ts');
      return runHostedLedger(args, stdin, { services: services.ledger, secretStore: options.secretStore, env });
    },
  };
  let server: ControlServer | null = null;
  try {
    server = await startControlServer(options.dataFolder, handlers, env);
    options.lock.announceSocket(server.path);
  } catch (error) {
    options.log.warn(`control socket: ${messageOf(error)}; ledger commands are refused while this app runs.`);
  }
  let closing: Promise<void> | null = null;
  return {
    handlers,
    server,
    servicesUp,
    close() {
      closing ??= (server?.close() ?? Promise.resolve()).catch((error: unknown) => {
        options.log.error(`shutdown: ${messageOf(error)}`);
      });
      return closing;
    },
  };
}
