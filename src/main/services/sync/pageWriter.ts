/**
 * Writing a sync's pages through the cache writer, pipelined:
 *   - the next page is fetched while this one is planned (hashed, tokenized) on this thread;
 *   - a planned page goes to the writer at once, tagged with the sync's stream, and this
 *     thread lets go of it; the writer commits the stream's pages on its own thread, joining
 *     those already queued into one transaction (writerQueue.ts), with the checkpoint of the
 *     last. So the writer never waits for a group to fill, its groups grow when it is the
 *     slower side, and no planned page sits in this thread's heap meanwhile;
 *   - at most IN_FLIGHT_PAGES pages are handed over and not yet committed: then the sync
 *     waits for the writer, which bounds the memory the queue holds.
 * After a crash the next run resumes after the last page kept, exactly as after a page.
 */
import type { Page } from '../bank/bankClient.ts';
import type { CacheWriter } from '../cache/cacheWriter.ts';
import type { WriteBatch } from '../cache/writeBatch.ts';
import { GROUP_PAGES } from '../cache/writerQueue.ts';

/** Pages handed to the writer and not yet committed, at most: two full groups. */
export const IN_FLIGHT_PAGES = 2 * GROUP_PAGES;

/** Each run of writePages is a stream of its own for the writer (ordered, refused after a failure). */
let lastStream = 0;

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
  advance: (page: Page<Item>, added: number) => WriteBatch | readonly WriteBatch[];
  /**
   * Whether nothing follows the page (it carries `last()`): by default a page without a next
   * cursor; a stream of several windows' pages says so itself (windowedPages.ts).
   */
  isLast?: (page: Page<Item>) => boolean;
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

/**
 * Writes the pages; returns after the last write has committed or failed, never with a write
 * in flight. On a fetch failure the pages already planned are committed first, so the
 * checkpoint stands after every page fetched. When the writer cannot keep a page (a full
 * disk), it keeps every page before it and none after, and this throws its error.
 */
export async function writePages<Item, Value>(
  writer: CacheWriter,
  pages: AsyncIterable<Page<Item>>,
  steps: PageSteps<Item, Value>,
): Promise<{ sawLast: boolean; stoppedEarly: boolean }> {
  const stream = (lastStream += 1);
  const uncommitted = new UncommittedKeys<Value>();
  /** One promise a page handed over, oldest first; each settles when the writer answered (never rejects). */
  const handedOver: Promise<void>[] = [];
  // An object: it changes inside callbacks the type checker does not follow.
  const state: { failure: Error | null } = { failure: null };
  let sawLast = false;
  let stoppedEarly = false;

  const fail = (error: unknown): void => {
    state.failure ??= error instanceof Error ? error : new Error(String(error));
  };
  const handOver = (batches: WriteBatch[], added: number, lastFrom: number | null): void => {
    // The writer answers in the order it was given the pages, so these run in page order.
    const answered = writer
      .runGroup([batches], stream)
      .then(({ kept, error }) => {
        const [changes] = kept;
        if (state.failure !== null) return;
        if (changes === undefined) {
          fail(error ?? new Error('The cache writer did not keep a page, and did not say why.'));
          return;
        }
        uncommitted.commitOldest();
        steps.onWritten(added, lastFrom === null ? null : changes.slice(lastFrom));
      })
      // The writer's thread died, or onWritten threw: the sync fails with that error.
      .catch(fail);
    handedOver.push(answered);
  };
  const allAnswered = async (): Promise<void> => {
    while (handedOver.length > 0) await handedOver.shift();
  };

  try {
    for await (const page of steps.prefetch === true ? prefetched(pages) : pages) {
      if (state.failure !== null) break;
      const plan = steps.plan(page, uncommitted);
      uncommitted.add(plan.keys);
      const isLast = steps.isLast === undefined ? page.nextCursor === null : steps.isLast(page);
      const batches = [...plan.batches, ...[steps.advance(page, plan.added)].flat()];
      const lastFrom = isLast ? batches.length : null;
      if (isLast) batches.push(...steps.last());
      handOver(batches, plan.added, lastFrom);
      steps.onPlanned?.(page);
      sawLast = isLast;
      stoppedEarly = !isLast && steps.stopAfter?.(plan.added) === true;
      if (isLast || stoppedEarly || steps.signal.aborted) break;
      // The writer is behind by a full queue: wait for its oldest page.
      if (handedOver.length >= IN_FLIGHT_PAGES) await handedOver.shift();
    }
  } catch (error) {
    // A fetch failed: the pages handed over are committed first (they decide where the
    // checkpoint stands), then the fetch's error is the sync's.
    await allAnswered();
    throw error;
  }
  await allAnswered();
  if (state.failure !== null) throw state.failure;
  return { sawLast, stoppedEarly };
}
