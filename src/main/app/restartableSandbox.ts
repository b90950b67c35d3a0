/**
 * The embedded sandbox bank as the app keeps it: started once at launch, and started again on
 * the same data file when the person asks (Settings › Local sandbox bank › Restart), whether it
 * stopped on its own, never started, or still runs and misbehaves. A restart lets the running
 * one finish what is in flight (its `stop`), then starts a new process on the same file with
 * the same key; the address changes (a new loopback port), so whoever sends to the sandbox
 * reads `current()` and is told of each new one through `onRestart`.
 */
import type { EmbeddedSandbox } from './embeddedSandbox.ts';

/** Where the sandbox stands, as Settings shows it. */
export type SandboxState =
  | { running: true; baseUrl: string; startedAt: string }
  | { running: false; startedAt: string | null; stoppedAt: string | null; problem: string };

export interface RestartableSandboxOptions {
  /** Starts one sandbox process (startEmbeddedSandbox with the app's fork, file and key). */
  start: () => Promise<EmbeddedSandbox>;
  now?: () => Date;
  /** Told when a running sandbox ends on its own (not after stop() or a restart). */
  onUnexpectedExit?: (code: number) => void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class RestartableSandbox {
  readonly #options: RestartableSandboxOptions;
  readonly #now: () => Date;
  readonly #restartListeners = new Set<(sandbox: EmbeddedSandbox) => void>();
  readonly #stopListeners = new Set<() => void>();
  #sandbox: EmbeddedSandbox | null = null;
  #state: SandboxState = { running: false, startedAt: null, stoppedAt: null, problem: 'Not started yet.' };
  #generation = 0;
  #restarting: Promise<EmbeddedSandbox> | null = null;

  constructor(options: RestartableSandboxOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** The running sandbox; null when it never started or its process ended. */
  current(): EmbeddedSandbox | null {
    return this.#state.running ? this.#sandbox : null;
  }

  state(): SandboxState {
    return this.#state;
  }

  /** The first start, at launch; a failure is kept as the state's problem, never thrown. */
  async start(): Promise<EmbeddedSandbox | null> {
    try {
      return await this.#startOne();
    } catch {
      return null;
    }
  }

  /**
   * Stops the running sandbox (deliveries in flight finish), starts a new one on the same data
   * file and tells the listeners its new address. Two restarts asked at once share one. Throws
   * with the reason when the new one cannot start (the state says so too).
   */
  restart(): Promise<EmbeddedSandbox> {
    this.#restarting ??= (async () => {
      try {
        const previous = this.#sandbox;
        // Its exit from here on is ours, not news.
        this.#generation += 1;
        if (previous !== null) await previous.stop();
        const next = await this.#startOne();
        for (const listener of this.#restartListeners) listener(next);
        return next;
      } finally {
        this.#restarting = null;
      }
    })();
    return this.#restarting;
  }

  onRestart(listener: (sandbox: EmbeddedSandbox) => void): () => void {
    this.#restartListeners.add(listener);
    return () => this.#restartListeners.delete(listener);
  }

  /** Told when the running sandbox ends on its own, so whoever shows it can say so at once. */
  onStopped(listener: () => void): () => void {
    this.#stopListeners.add(listener);
    return () => this.#stopListeners.delete(listener);
  }

  /** At quit: stops the running sandbox, if any. */
  async stop(): Promise<void> {
    this.#generation += 1;
    const sandbox = this.#sandbox;
    this.#sandbox = null;
    if (this.#state.running) {
      this.#state = {
        running: false,
        startedAt: this.#state.startedAt,
        stoppedAt: this.#now().toISOString(),
        problem: 'Stopped.',
      };
    }
    await sandbox?.stop();
  }

  async #startOne(): Promise<EmbeddedSandbox> {
    const startedBefore = this.#state.startedAt;
    let sandbox: EmbeddedSandbox;
    try {
      sandbox = await this.#options.start();
    } catch (error) {
      this.#sandbox = null;
      this.#state = {
        running: false,
        startedAt: startedBefore,
        stoppedAt: this.#now().toISOString(),
        problem: `It could not start: ${messageOf(error)}`,
      };
      throw error;
    }
    const generation = this.#generation;
    const startedAt = this.#now().toISOString();
    this.#sandbox = sandbox;
    this.#state = { running: true, baseUrl: sandbox.baseUrl, startedAt };
    sandbox.onExit((code) => {
      // A sandbox replaced since (restart, quit) is not the one the app runs on.
      if (generation !== this.#generation || this.#sandbox !== sandbox) return;
      this.#state = {
        running: false,
        startedAt,
        stoppedAt: this.#now().toISOString(),
        problem: `It stopped on its own (exit code ${String(code)}).`,
      };
      this.#options.onUnexpectedExit?.(code);
      for (const listener of this.#stopListeners) listener();
    });
    return sandbox;
  }
}
