/**
 * Online or offline, per profile, from real outcomes: any answer from the bank means online;
 * a refused connection, a timeout or a 502/503/504 means offline. While offline, a ping is
 * tried with exponential backoff (1 s, 2 s, 4 s … up to a minute, with jitter) until the bank
 * answers. Reads never wait for any of this: they come from the cache and say how old they are.
 */
type ConnectivityStatus = 'unknown' | 'online' | 'offline';

export interface ConnectivityState {
  status: ConnectivityStatus;
  /** ISO time of the last change. */
  since: string;
  /** Why it is offline, in a person's words (reasonForPeople). */
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

const UNREACHABLE = 'The bank cannot be reached. Check your network connection, then try again.';

/**
 * Why the bank is out of reach, as the person at the window reads it: the bank error's own
 * sentence for people (forPeople: what happened and what to do), never the endpoint, the
 * address or the socket's error code ("GET /ping: … ECONNREFUSED" stays in the log and the CLI).
 */
export function reasonForPeople(failure: unknown): string {
  const forPeople = (failure as { forPeople?: unknown } | null | undefined)?.forPeople;
  if (typeof forPeople === 'object' && forPeople !== null) {
    const { message, action } = forPeople as { message?: unknown; action?: unknown };
    if (typeof message === 'string' && message !== '')
      return typeof action === 'string' && action !== '' ? `${message} ${action}` : message;
  }
  // A profile that cannot be asked yet (its sandbox not started, a secret to enter) says so itself.
  if (failure instanceof Error && (failure.name === 'ProfileNotReady' || failure.name === 'SecretNeedsReentry'))
    return failure.message;
  return UNREACHABLE;
}

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
      this.reportUnreachable(reasonForPeople(error));
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
          this.#state = { ...this.#state, reason: reasonForPeople(error) };
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
