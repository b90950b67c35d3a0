/**
 * Handlers of the `embeddedSandbox` domain: where the local sandbox bank stands, and restarting
 * it on its own data from Settings. The restart is the app's (app/restartableSandbox.ts);
 * here it is only asked, timed, audited and answered in a person's words when it fails.
 */
import type { EmbeddedSandboxState, SandboxRestart } from '../../shared/ipc/domains/embeddedSandbox.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../services/profiles/profile.ts';
import type { Handlers } from './handlerTypes.ts';
import type { ListenerAuditEntry } from './listenerHandlers.ts';
import { IpcFailure } from './serviceErrors.ts';

/** Where the running sandbox answers, and its key (app/services.ts passes its own). */
export interface SandboxAddress {
  baseUrl: string;
  keyId: string;
  keySecret: string;
}

/** The app's sandbox, restartable from Settings (app/restartableSandbox.ts). */
export interface SandboxKeeper {
  state(): EmbeddedSandboxState;
  restart(): Promise<SandboxAddress>;
  /** Told when the sandbox ends on its own (a crash), not after a restart or quit. */
  onStopped(listener: () => void): () => void;
}

/** What the handlers need of the sandbox: its state, and a restart that leaves the services on the new one. */
export interface EmbeddedSandboxControl {
  state(): EmbeddedSandboxState;
  /** Restarts it; `answering` says whether the bank answered its ping afterwards. */
  restart(): Promise<{ state: EmbeddedSandboxState; answering: boolean }>;
}

export interface SandboxHandlerServices {
  embeddedSandbox: EmbeddedSandboxControl;
  audit(entry: ListenerAuditEntry): void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The control the services hand to the handlers: the keeper's state and restart, and after a
 * restart `useRestarted` (the clients, the listener and the scrub list move to the new address).
 * Without a keeper (a harness that started the services on a sandbox of its own) the state is
 * read from that sandbox and a restart is refused in words.
 */
export function embeddedSandboxControl(
  keeper: SandboxKeeper | undefined,
  current: () => SandboxAddress | null,
  useRestarted: (next: SandboxAddress) => Promise<boolean>,
): EmbeddedSandboxControl {
  return {
    state: () => {
      if (keeper !== undefined) return keeper.state();
      const sandbox = current();
      return sandbox === null
        ? { running: false, startedAt: null, stoppedAt: null, problem: 'This Ledgerdesk runs without its own sandbox.' }
        : { running: true, baseUrl: sandbox.baseUrl, startedAt: new Date(0).toISOString() };
    },
    restart: async () => {
      if (keeper === undefined) {
        throw new IpcFailure(
          'not_available',
          'This Ledgerdesk did not start the local sandbox bank, so it cannot restart it.',
        );
      }
      const next = await keeper.restart();
      const answering = await useRestarted(next);
      return { state: keeper.state(), answering };
    },
  };
}

export function createSandboxHandlers(services: SandboxHandlerServices): Pick<Handlers, 'embeddedSandbox'> {
  return {
    embeddedSandbox: {
      status: () => services.embeddedSandbox.state(),
      restart: async (): Promise<SandboxRestart> => {
        const started = performance.now();
        try {
          const { state, answering } = await services.embeddedSandbox.restart();
          const tookMs = Math.round(performance.now() - started);
          services.audit({
            profileId: EMBEDDED_SANDBOX_PROFILE_ID,
            action: 'sandbox.restart',
            target: 'local sandbox bank',
            result: 'ok',
            detail: `${answering ? 'answering' : 'not answering yet'} after ${String(tookMs)} ms`,
          });
          return { state, tookMs, answering };
        } catch (error) {
          if (error instanceof IpcFailure) throw error;
          services.audit({
            profileId: EMBEDDED_SANDBOX_PROFILE_ID,
            action: 'sandbox.restart',
            target: 'local sandbox bank',
            result: 'failed',
            detail: messageOf(error),
          });
          throw new IpcFailure('not_available', `The local sandbox bank did not start again: ${messageOf(error)}`, {
            action: 'Try Restart once more; if it keeps failing, restart Ledgerdesk. Cached data stays available.',
          });
        }
      },
    },
  };
}
