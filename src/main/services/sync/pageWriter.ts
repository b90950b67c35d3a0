/**
 * Writing a sync's pages through the cache writer, pipelined and in groups:
 *   - the next page is fetched while this one is planned (hashed, tokenized) on this thread;
 *   - planned pages are committed by the writer on its thread while this one goes on;
 *   - a planned page goes to the writer at once when it is idle; while it is busy, pages
 *     gather (up to GROUP_PAGES) and go together when it is free, as one transaction with
 *     the checkpoint of its last page. So the writer never waits for a group to fill (the
 *     first page of a sync is written while the second is fetched), and when it is the slower
 *     side its groups grow, which is when grouping pays: a commit costs about as much as the
 *     inserts of a page (the index pages and the search segment it dirties). After a crash
 *     the next run resumes after the last group kept, exactly as after a page.
 */
import type { Page } from '../bank/bankClient.ts';
import type { CacheWriter } from '../cache/cacheWriter.ts';
import type { WriteBatch } from '../cache/writeBatch.ts';

/** Pages per transaction at most: bounds what a crash or a failed write can lose, and what waits in memory. */
export const GROUP_PAGES = 16;

export interface PageSteps<Item, Value> {
  signal: AbortSignal;
  /**
   * Plans a page; `inFlight` answers for the keys of pages planned but not yet committed (the
   * newest page's value winning), and the plan returns its own page's keys.
   */
  plan: (
    page: Page<Item>,
    inFlight: InFlightKeys<Value>,
  ) => { batches: WriteBatch[]; added: number; keys: ReadonlyMap<string, Value> };
  /** The page's checkpoint, committed with it. */
  advance: (page: Page<Item>, added: number) => WriteBatch;
  /** Committed with the last page (sweep, done). */
  last: () => WriteBatch[];
  /** When the page is fetched and planned (before it is committed). */
  onPlanned?: (page: Page<Item>) => void;
  /**
   * After the page's group committed, in page order, with the page's `added`; `lastChanges`
   * are those of `last()` for the last page. The page itself is gone by then (see writePages).
   */
  onWritten: (added: number, lastChanges: number[] | null) => void;
  /** Stop early after this page (incremental sync). */
  stopAfter?: (added: number) => boolean;
  /** Fetch the next page while this one is planned (off for incremental syncs, which often stop at once). */
  prefetch?: boolean;
}

/** The keys of the pages planned but not yet committed, as `plan` sees them. */
export interface InFlightKeys<Value> {
  get(key: string): Value | undefined;
}

/**
 * The keys of every page planned and not yet committed, in one map: a record met again in a
 * later page (the list moved under the cursor) is recognised before its first copy is
 * stored, with one probe however many pages wait for the writer (a probe per waiting page
 * cost ~1.4 µs a record). Each key remembers the newest page that holds it; committing a page
 * forgets only the keys no newer page holds.
 */
export class UncommittedKeys<Value> implements InFlightKeys<Value> {
  /** Key → the number of the newest uncommitted page holding it. */
  readonly #newestPage = new Map<string, number>();
  readonly #pages = new Map<number, ReadonlyMap<string, Value>>();
  #planned = 0;
  #committed = 0;

  get(key: string): Value | undefined {
    const page = this.#newestPage.get(key);
    return page === undefined ? undefined : this.#pages.get(page)?.get(key);
  }

  /** A page planned (pages are added and committed in the same order). */
  add(keys: ReadonlyMap<string, Value>): void {
    const page = (this.#planned += 1);
    this.#pages.set(page, keys);
    for (const key of keys.keys()) this.#newestPage.set(key, page);
  }

  /** The oldest uncommitted page committed. */
  commitOldest(): void {
    const page = (this.#committed += 1);
    const keys = this.#pages.get(page);
    if (keys === undefined) return;
    this.#pages.delete(page);
    for (const key of keys.keys()) if (this.#newestPage.get(key) === page) this.#newestPage.delete(key);
  }
}

/** Yields the source's items, asking for the next one as soon as one is handed out. */
async function* prefetched<Item>(source: AsyncIterable<Item>): AsyncGenerator<Item> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  for (;;) {
    const result = await next;
    if (result.done === true) return;
    next = iterator.next();
    // Left unawaited if the consumer stops here (cancelled, or its write failed).
    next.catch(() => undefined);
    yield result.value;
  }
}

interface PlannedPage {
  added: number;
  /**
   * The page's rows and checkpoint (and for the last page, `last()`), until they are handed
   * to the writer; null after, so the heap does not carry them (nor the page's records) while
   * the writer works: that held ~2 KB a record through every young-generation collection.
   */
  batches: WriteBatch[] | null;
  /** Index in the batches where the `last()` batches start, for the last page. */
  lastFrom: number | null;
}

/**
 * Writes the pages; returns after the last write has committed or failed, never with a write
 * in flight. On a fetch failure the pages already planned are committed first, so the
 * checkpoint stands after every page fetched. A group that fails (a full disk) is written
 * again page by page by the writer, so every page that fits is kept, as when each page was
 * its own commit.
 */
export async function writePages<Item, Value>(
  writer: CacheWriter,
  pages: AsyncIterable<Page<Item>>,
  steps: PageSteps<Item, Value>,
): Promise<{ sawLast: boolean; stoppedEarly: boolean }> {
  // An object, not two variables: they change inside closures the type checker does not follow.
  const state: { writing: Promise<void> | null; busy: boolean; writeFailed: boolean } = {
    writing: null,
    busy: false,
    writeFailed: false,
  };
  let group: PlannedPage[] = [];
  const uncommitted = new UncommittedKeys<Value>();
  let sawLast = false;
  let stoppedEarly = false;

  const writeGroup = async (sending: PlannedPage[]): Promise<void> => {
    const outcome = writer.runGroup(sending.map((planned) => planned.batches ?? []));
    for (const planned of sending) planned.batches = null;
    const { kept, error } = await outcome;
    kept.forEach((changes, index) => {
      const planned = sending[index];
      if (planned === undefined) return;
      uncommitted.commitOldest();
      steps.onWritten(planned.added, planned.lastFrom === null ? null : changes.slice(planned.lastFrom));
    });
    if (error !== undefined) throw error;
  };
  const flush = async (): Promise<void> => {
    if (group.length === 0) return;
    if (state.writing !== null) await state.writing;
    const sending = group;
    group = [];
    state.busy = true;
    const written = writeGroup(sending)
      .catch((error: unknown) => {
        state.writeFailed = true;
        throw error;
      })
      .finally(() => {
        state.busy = false;
      });
    // Awaited before the next write or the return; never left unhandled meanwhile.
    written.catch(() => undefined);
    state.writing = written;
  };

  try {
    for await (const page of steps.prefetch === true ? prefetched(pages) : pages) {
      const plan = steps.plan(page, uncommitted);
      uncommitted.add(plan.keys);
      const isLast = page.nextCursor === null;
      const batches = [...plan.batches, steps.advance(page, plan.added)];
      const lastFrom = isLast ? batches.length : null;
      if (isLast) batches.push(...steps.last());
      group.push({ added: plan.added, batches, lastFrom });
      steps.onPlanned?.(page);
      sawLast = isLast;
      stoppedEarly = !isLast && steps.stopAfter?.(plan.added) === true;
      const stop = isLast || stoppedEarly || steps.signal.aborted;
      // Waits for the writer only when the group is full (or the sync ends).
      if (stop || !state.busy || group.length >= GROUP_PAGES) await flush();
      if (stop) break;
    }
    await flush();
  } catch (error) {
    // Keep what was fetched (unless writing is what failed), and let the write in flight
    // finish first: it decides where the checkpoint stands.
    if (!state.writeFailed) await flush().catch(() => undefined);
    await state.writing?.catch(() => undefined);
    throw error;
  }
  if (state.writing !== null) await state.writing;
  return { sawLast, stoppedEarly };
}
