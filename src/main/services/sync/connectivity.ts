/**
 * Online or offline, per profile, from real outcomes: any answer from the bank means online;
 * a refused connection, a timeout or a 502/503/504 means offline. While offline, a ping is
 * tried with exponential backoff (1 s, 2 s, 4 s … up to a minute, with jitter) until the bank
 * answers. Reads never wait for any of this: they come from the cache and say how old they are.
 */
export type ConnectivityStatus = 'unknown' | 'online' | 'offline';

export interface ConnectivityState {
  status: ConnectivityStatus;
  /** ISO time of the last change. */
  since: string;
  /** Why it is offline, in one sentence. */
  reason: string | null;
  /** When the next ping is due while offline. */
  nextCheckAt: string | null;
}

export interface ConnectivityOptions {
  ping: () => Promise<void>;
  firstDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
  now?: () => Date;
}

type Listener = (state: ConnectivityState) => void;

export class Connectivity {
  readonly #ping: () => Promise<void>;
  readonly #firstDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #random: () => number;
  readonly #now: () => Date;
  readonly #listeners = new Set<Listener>();
  #state: ConnectivityState;
  #delayMs: number;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(options: ConnectivityOptions) {
    this.#ping = options.ping;
    this.#firstDelayMs = options.firstDelayMs ?? 1_000;
    this.#maxDelayMs = options.maxDelayMs ?? 60_000;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? (() => new Date());
    this.#delayMs = this.#firstDelayMs;
    this.#state = { status: 'unknown', since: this.#now().toISOString(), reason: null, nextCheckAt: null };
  }

  get state(): ConnectivityState {
    return { ...this.#state };
  }

  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The bank answered (whatever it said). */
  reportReachable(): void {
    this.#delayMs = this.#firstDelayMs;
    this.#clearTimer();
    if (this.#state.status !== 'online') this.#set({ status: 'online', reason: null, nextCheckAt: null });
  }

  /** The bank could not be reached; starts the backed-off ping if not already running. */
  reportUnreachable(reason: string): void {
    if (this.#stopped) return;
    if (this.#state.status !== 'offline') {
      this.#delayMs = this.#firstDelayMs;
      this.#set({ status: 'offline', reason, nextCheckAt: null });
    }
    if (this.#timer === null) this.#schedule();
  }

  /** Checks now (the user pressed "retry"). */
  async checkNow(): Promise<ConnectivityState> {
    try {
      await this.#ping();
      this.reportReachable();
    } catch (error) {
      this.reportUnreachable(error instanceof Error ? error.message : String(error));
    }
    return this.state;
  }

  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
    this.#listeners.clear();
  }

  #schedule(): void {
    const delay = Math.round(this.#delayMs / 2 + (this.#random() * this.#delayMs) / 2);
    this.#delayMs = Math.min(this.#maxDelayMs, this.#delayMs * 2);
    this.#state = { ...this.#state, nextCheckAt: new Date(this.#now().getTime() + delay).toISOString() };
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#stopped) return;
      void this.#ping().then(
        () => {
          this.reportReachable();
        },
        (error: unknown) => {
          if (this.#stopped) return;
          this.#state = { ...this.#state, reason: error instanceof Error ? error.message : String(error) };
          this.#schedule();
        },
      );
    }, delay);
    // Never keep a command-line process alive just to ping.
    this.#timer.unref();
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #set(change: Omit<ConnectivityState, 'since'>): void {
    this.#state = { ...change, since: this.#now().toISOString() };
    for (const listener of this.#listeners) listener(this.state);
  }
}
