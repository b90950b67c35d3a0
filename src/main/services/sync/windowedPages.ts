/**
 * The pages of several date windows walked side by side, as one stream for the page writer:
 *   - a bounded number of walkers (the sync's parallelism) each take the next window left
 *     and page through it with its own cursor, newest first;
 *   - every page request waits for the pacer (requestPacer.ts: AIMD on 429, Retry-After);
 *   - fetched pages wait in a queue of at most `pagesAhead`; a walker with a page and no room
 *     waits before it fetches again, so pages fetched and not yet planned are bounded by
 *     `pagesAhead` plus one per walker, however slow the writer;
 *   - pages are yielded in the order they arrive, each tagged with its window; the last
 *     window's last page is marked `final` (it carries the job's sweep and completion).
 * When a walk fails, the pages already fetched are yielded first (so their checkpoints are
 * kept), then its error is thrown; the other walkers are stopped.
 */
import { BankError } from '../bank/bankError.ts';
import type { Page, PageOptions } from '../bank/bankClient.ts';
import type { WindowCheckpoint } from '../cache/syncWindowCheckpoints.ts';
import type { RequestPacer } from './requestPacer.ts';

export interface WindowPage<Item> extends Page<Item> {
  window: number;
  /** The last page of the last window: nothing follows it. */
  final: boolean;
}

/** A window's pages after a cursor (null: from its first page). */
export type WindowPagesOf<Item> = (
  window: WindowCheckpoint,
  after: string | null,
  onRetry: NonNullable<PageOptions['onRetry']>,
) => AsyncIterator<Page<Item>>;

export interface WindowWalkOptions {
  pacer: RequestPacer;
  /** Windows walked at once at most. */
  walkers: number;
  /** Fetched pages waiting to be planned, at most. */
  pagesAhead: number;
  signal: AbortSignal;
  /** A window's walk restarted after its requests ran out of retries on 429s, at most. */
  rateLimitedRestarts?: number;
}

const RATE_LIMITED_RESTARTS = 5;

/** A page or the end of a walker, waiting for the consumer. */
type Arrival<Item> = { page: Page<Item>; window: number };

export async function* windowedPages<Item>(
  windows: readonly WindowCheckpoint[],
  pagesOf: WindowPagesOf<Item>,
  options: WindowWalkOptions,
): AsyncGenerator<WindowPage<Item>> {
  const left = windows.filter((window) => !window.done);
  let finished = windows.length - left.length;
  const stop = new AbortController();
  const onAbort = (): void => {
    stop.abort(options.signal.reason);
  };
  options.signal.addEventListener('abort', onAbort, { once: true });
  const signal = stop.signal;
  const queue: Arrival<Item>[] = [];
  const state: { failure: unknown; hasFailure: boolean; walking: number } = {
    failure: undefined,
    hasFailure: false,
    walking: 0,
  };
  /** Woken when the queue gains a page, a walker ends, or it loses a page (room for one more). */
  let wakeConsumer: (() => void) | null = null;
  const wakeProducers: (() => void)[] = [];
  // A stopped stream wakes every walker waiting for room, so each sees it and ends.
  signal.addEventListener(
    'abort',
    () => {
      for (const wake of wakeProducers.splice(0)) wake();
    },
    { once: true },
  );
  const nudgeConsumer = (): void => {
    const wake = wakeConsumer;
    wakeConsumer = null;
    wake?.();
  };

  const put = async (arrival: Arrival<Item>): Promise<void> => {
    while (queue.length >= options.pagesAhead && !signal.aborted) {
      await new Promise<void>((resolve) => wakeProducers.push(resolve));
    }
    signal.throwIfAborted();
    queue.push(arrival);
    nudgeConsumer();
  };

  const walk = async (window: WindowCheckpoint): Promise<void> => {
    let cursor = window.cursor;
    // An object: the retry callback changes it while a request is out.
    const request = { sentAt: 0, throttles: 0 };
    const onRetry: NonNullable<PageOptions['onRetry']> = (notice) => {
      if (notice.status !== 429) return;
      request.throttles += 1;
      options.pacer.throttled(notice.retryAfterMs, request.sentAt);
    };
    let pages = pagesOf(window, cursor, onRetry);
    let restarts = 0;
    try {
      for (;;) {
        request.sentAt = await options.pacer.acquire(signal);
        const throttlesBefore = request.throttles;
        let result: IteratorResult<Page<Item>>;
        try {
          result = await pages.next();
        } catch (error) {
          const limited = error instanceof BankError && error.kind === 'rate-limited';
          if (!limited || restarts >= (options.rateLimitedRestarts ?? RATE_LIMITED_RESTARTS) || signal.aborted) {
            throw error;
          }
          // The bank still refuses after every retry: wait as told, with fewer at once, and
          // walk on from the last page kept.
          restarts += 1;
          options.pacer.throttled((error.retryAfterSeconds ?? 1) * 1000, request.sentAt);
          pages = pagesOf(window, cursor, onRetry);
          continue;
        } finally {
          options.pacer.release();
        }
        if (request.throttles === throttlesBefore) options.pacer.succeeded();
        if (result.done === true) return;
        const page = result.value;
        cursor = page.nextCursor;
        await put({ page, window: window.index });
        if (page.nextCursor === null) return;
      }
    } finally {
      await pages.return?.(undefined);
    }
  };

  const next = { window: 0 };
  const walker = async (): Promise<void> => {
    state.walking += 1;
    try {
      for (let window = left[next.window++]; window !== undefined; window = left[next.window++]) {
        await walk(window);
      }
    } catch (error) {
      if (!state.hasFailure) {
        state.hasFailure = true;
        state.failure = error;
      }
      stop.abort(error);
    } finally {
      state.walking -= 1;
      nudgeConsumer();
    }
  };
  const walkers = Array.from({ length: Math.max(1, Math.min(options.walkers, left.length)) }, () => walker());

  try {
    for (;;) {
      const arrival = queue.shift();
      if (arrival !== undefined) {
        wakeProducers.shift()?.();
        const last = arrival.page.nextCursor === null;
        if (last) finished += 1;
        yield { ...arrival.page, window: arrival.window, final: last && finished === windows.length };
        continue;
      }
      if (state.walking === 0) break;
      await new Promise<void>((resolve) => {
        wakeConsumer = resolve;
      });
    }
    if (state.hasFailure) throw state.failure;
  } finally {
    // Stopped early (cancelled, or the writer failed) or done: no walker outlives the stream.
    stop.abort(new Error('stopped'));
    options.signal.removeEventListener('abort', onAbort);
    for (const wake of wakeProducers.splice(0)) wake();
    await Promise.allSettled(walkers);
  }
}
