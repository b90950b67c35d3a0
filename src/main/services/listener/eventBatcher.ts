/**
 * Pushes to subscribers in batches: one push per flush interval or per full batch, never
 * one per request, so a flood of notifications does not become a flood of IPC messages.
 * The buffer is bounded: past it the oldest events are dropped and the next batch says how
 * many, so a subscriber knows to re-read the log (which has everything) instead.
 */
export interface Batch<Item> {
  items: Item[];
  /** Events dropped since the previous batch because the subscriber fell behind. */
  dropped: number;
}

export interface BatchingOptions {
  /** How long an event may wait for company before it is pushed. */
  flushMs: number;
  /** A batch never holds more than this; a full batch is pushed at once. */
  maxBatch: number;
  /** Events waiting at most; beyond it the oldest are dropped and counted. */
  maxBuffered: number;
}

const DEFAULT_BATCHING: BatchingOptions = { flushMs: 100, maxBatch: 500, maxBuffered: 10_000 };

export class EventBatcher<Item> {
  readonly #options: BatchingOptions;
  readonly #push: (batch: Batch<Item>) => void;
  #buffer: Item[] = [];
  #dropped = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(push: (batch: Batch<Item>) => void, options: Partial<BatchingOptions> = {}) {
    this.#options = { ...DEFAULT_BATCHING, ...options };
    this.#push = push;
  }

  get pending(): number {
    return this.#buffer.length;
  }

  add(item: Item): void {
    this.#buffer.push(item);
    if (this.#buffer.length > this.#options.maxBuffered) {
      const excess = this.#buffer.length - this.#options.maxBuffered;
      this.#buffer.splice(0, excess);
      this.#dropped += excess;
    }
    if (this.#buffer.length >= this.#options.maxBatch) {
      this.#flushOne();
    } else if (this.#timer === null) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.flush();
      }, this.#options.flushMs);
    }
  }

  /** Push everything waiting now, in batches of at most maxBatch. */
  flush(): void {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    while (this.#buffer.length > 0 || this.#dropped > 0) this.#flushOne();
  }

  #flushOne(): void {
    const items = this.#buffer.splice(0, this.#options.maxBatch);
    const dropped = this.#dropped;
    this.#dropped = 0;
    if (this.#buffer.length === 0 && this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    this.#push({ items, dropped });
  }
}
