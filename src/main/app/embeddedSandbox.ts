/**
 * The embedded sandbox bank runs in its own process (an Electron utilityProcess running
 * out/main/sandbox.js), so its HTTP server, SQLite writes and webhook deliveries never stall
 * the main process. This is the parent's side of the conversation, free of Electron: the
 * shell passes a `fork` that returns the utility process.
 *
 *   parent → child: { type: 'start', dataFile, keyId, keySecret, lean }   { type: 'stop' }
 *   child → parent: { type: 'ready', baseUrl, keyId, keySecret }   { type: 'failed', message }
 *                   { type: 'stopped' }
 */

import type { ProfileStorage } from '../services/profiles/profileStorage.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../services/profiles/profile.ts';
import { Profiles } from '../services/profiles/profiles.ts';

/** The embedded sandbox's data file in the data folder, for the app, web mode and `ledger` alike. */
export const EMBEDDED_SANDBOX_FILE = 'sandbox.db';

/** `LEDGERDESK_SANDBOX_LEAN=1`: the embedded sandbox answers lean whatever its profile says (development). */
export const LEAN_SANDBOX_VARIABLE = 'LEDGERDESK_SANDBOX_LEAN';

/** The key comes from the parent (kept in the keychain): the child never makes or stores one. */
export type SandboxCommand =
  { type: 'start'; dataFile: string; keyId: string; keySecret: string; lean?: boolean } | { type: 'stop' };

export type SandboxReport =
  | { type: 'ready'; baseUrl: string; keyId: string; keySecret: string }
  | { type: 'failed'; message: string }
  | { type: 'stopped' };

/** The parts of Electron's UtilityProcess used here. */
export interface SandboxChild {
  postMessage(message: SandboxCommand): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

export interface EmbeddedSandbox {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  /** Asks the sandbox to finish what is in flight and close its database; kills it after a grace period. */
  stop(): Promise<void>;
  /** Called when the sandbox process ends on its own (not after stop()). */
  onExit(listener: (code: number) => void): void;
}

export interface EmbeddedSandboxOptions {
  fork(): SandboxChild;
  dataFile: string;
  /** The sandbox's API key (embeddedSandboxKey). */
  key: { keyId: string; keySecret: string };
  /** Answer in the real service's lean shapes (the profile's `lean`, or LEDGERDESK_SANDBOX_LEAN=1). */
  lean?: boolean;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
}

function isReport(message: unknown): message is SandboxReport {
  if (typeof message !== 'object' || message === null) return false;
  const report = message as Record<string, unknown>;
  if (report['type'] === 'ready') {
    return (
      typeof report['baseUrl'] === 'string' &&
      typeof report['keyId'] === 'string' &&
      typeof report['keySecret'] === 'string'
    );
  }
  if (report['type'] === 'failed') return typeof report['message'] === 'string';
  return report['type'] === 'stopped';
}

/**
 * How long the sandbox's process may take to load and open its bank. About a second on an idle
 * machine, but 22 s was measured under a load of 22 on two cores: giving up at 30 s left such a
 * run without its sandbox, so only a process that is truly stuck is given up on.
 */
const START_TIMEOUT_MS = 120_000;

export function startEmbeddedSandbox(options: EmbeddedSandboxOptions): Promise<EmbeddedSandbox> {
  const child = options.fork();
  const exitListeners: ((code: number) => void)[] = [];
  let exited: number | null = null;
  let stopping = false;
  let stoppedResolve: (() => void) | null = null;

  return new Promise<EmbeddedSandbox>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill();
      reject(new Error('The embedded sandbox bank did not start in time.'));
    }, options.startTimeoutMs ?? START_TIMEOUT_MS);

    child.on('exit', (code) => {
      exited = code;
      stoppedResolve?.();
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(new Error(`The embedded sandbox bank stopped while starting (exit code ${code}).`));
        return;
      }
      if (!stopping) for (const listener of exitListeners) listener(code);
    });

    child.on('message', (message) => {
      if (!isReport(message)) return;
      if (message.type === 'stopped') {
        stoppedResolve?.();
        return;
      }
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (message.type === 'failed') {
        child.kill();
        reject(new Error(`The embedded sandbox bank could not start: ${message.message}`));
        return;
      }
      resolve({
        baseUrl: message.baseUrl,
        keyId: message.keyId,
        keySecret: message.keySecret,
        onExit: (listener) => exitListeners.push(listener),
        stop: () =>
          new Promise<void>((done) => {
            stopping = true;
            if (exited !== null) {
              done();
              return;
            }
            const grace = setTimeout(() => {
              child.kill();
              done();
            }, options.stopTimeoutMs ?? 5_000);
            stoppedResolve = () => {
              clearTimeout(grace);
              done();
            };
            child.postMessage({ type: 'stop' });
          }),
      });
    });

    child.postMessage({
      type: 'start',
      dataFile: options.dataFile,
      keyId: options.key.keyId,
      keySecret: options.key.keySecret,
      lean: options.lean === true,
    });
  });
}

/** Whether the embedded sandbox's profile asks for the real service's lean shapes (`ledger profile update … --lean`). */
export function embeddedSandboxIsLean(storage: ProfileStorage): boolean {
  try {
    return new Profiles(storage).find(EMBEDDED_SANDBOX_PROFILE_ID).lean === true;
  } catch {
    // Unreadable settings: the sandbox starts in its own shapes, and the app says what is wrong elsewhere.
    return false;
  }
}
