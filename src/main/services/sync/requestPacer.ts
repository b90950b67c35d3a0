/**
 * How many of a sync's page requests may be at the bank at once: additive increase,
 * multiplicative decrease (AIMD, as TCP does with its window). A 429 halves the limit and
 * holds every new request back until its `Retry-After` has passed; each full round of
 * answers without one (as many answers as the limit) raises the limit by one again, up to
 * the configured parallelism. So a sync that meets a rate limit settles just under it
 * instead of hammering it, and recovers slowly when the limit lifts.
 */

export interface PacerClock {
  now: () => number;
  /** Resolves after `ms`, or rejects when the signal aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface PacerState {
  /** Requests allowed at once now. */
  limit: number;
  /** Requests at the bank now. */
  active: number;
  /** 429s met so far. */
  throttled: number;
}

export class RequestPacer {
  readonly #max: number;
  readonly #clock: PacerClock;
  #limit: number;
  #active = 0;
  /** Answers without a 429 since the limit last changed, towards the next increase. */
  #calm = 0;
  #pausedUntil = 0;
  /** When the limit was last halved: 429s to requests sent before then are the same episode. */
  #lastDecrease = Number.NEGATIVE_INFINITY;
  #throttled = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(max: number, clock: PacerClock) {
    if (!Number.isSafeInteger(max) || max < 1)
      throw new RangeError(`parallelism must be a whole number ≥ 1, not ${String(max)}`);
    this.#max = max;
    this.#limit = max;
    this.#clock = clock;
  }

  state(): PacerState {
    return { limit: this.#limit, active: this.#active, throttled: this.#throttled };
  }

  /**
   * Waits for a free slot (and for any Retry-After to pass); returns when the request was
   * sent, for `throttled` to tell which episode a 429 belongs to.
   */
  async acquire(signal?: AbortSignal): Promise<number> {
    for (;;) {
      signal?.throwIfAborted();
      const pause = this.#pausedUntil - this.#clock.now();
      if (pause > 0) {
        await this.#clock.sleep(pause, signal);
        continue;
      }
      if (this.#active < this.#limit) {
        this.#active += 1;
        return this.#clock.now();
      }
      await new Promise<void>((resolve, reject) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = (): void => {
          const index = this.#waiting.indexOf(wake);
          if (index >= 0) this.#waiting.splice(index, 1);
          reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        };
        this.#waiting.push(wake);
        signal?.addEventListener('abort', abort, { once: true });
      });
    }
  }

  /** The request answered (whatever the answer): its slot is free. */
  release(): void {
    this.#active = Math.max(0, this.#active - 1);
    this.#wakeOne();
  }

  /** An answer came without a 429: one step towards raising the limit. */
  succeeded(): void {
    if (this.#limit >= this.#max) return;
    this.#calm += 1;
    if (this.#calm >= this.#limit) {
      this.#calm = 0;
      this.#limit += 1;
      this.#wakeOne();
    }
  }

  /**
   * The bank answered 429: halve the limit (once for the requests that were already out when
   * it was last halved) and hold new requests back for `retryAfterMs`.
   */
  throttled(retryAfterMs: number | null, sentAt: number = this.#clock.now()): void {
    this.#throttled += 1;
    const now = this.#clock.now();
    if (retryAfterMs !== null && retryAfterMs > 0) this.#pausedUntil = Math.max(this.#pausedUntil, now + retryAfterMs);
    if (sentAt <= this.#lastDecrease) return;
    this.#limit = Math.max(1, Math.floor(this.#limit / 2));
    this.#calm = 0;
    this.#lastDecrease = now;
  }

  #wakeOne(): void {
    if (this.#active >= this.#limit) return;
    this.#waiting.shift()?.();
  }
}
