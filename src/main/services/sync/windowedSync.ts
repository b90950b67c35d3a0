/**
 * A list sync walking date windows side by side (pending transactions, webhook sends): the
 * windows are planned once per run (windowPlan.ts) and kept with the job's checkpoint, so a
 * stopped or killed run resumes each window after its own last page kept. Pages of every
 * window go through one page writer stream (pageWriter.ts); each carries its window's
 * checkpoint, and the last window's last page carries the job's sweep and completion.
 */
import type { Page, PageOptions } from '../bank/bankClient.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { SyncKind } from '../cache/syncCheckpoints.ts';
import type { WindowCheckpoint } from '../cache/syncWindowCheckpoints.ts';
import type { WriteBatch } from '../cache/writeBatch.ts';
import { coverageOf, type DateWindow, type DayCount } from './dateWindows.ts';
import { writePages, type InFlightKeys } from './pageWriter.ts';
import { RequestPacer } from './requestPacer.ts';
import { windowedPages, type WindowPage } from './windowedPages.ts';
import { planWindows } from './windowPlan.ts';

/** Windows planned per window walked at once: spare ones even out windows of unequal size. */
const WINDOWS_PER_WALKER = 3;

export interface WindowedSyncJob<Item, Value> {
  cache: OfflineCache;
  profileId: string;
  kind: SyncKind;
  key: string;
  range: DateWindow;
  /** Windows walked at once (and the pacer's ceiling). */
  parallelism: number;
  pageSize: number;
  /** Whether this run continues a stopped one (its windows are in the checkpoint). */
  resumed: boolean;
  signal: AbortSignal;
  now: () => string;
  /** The bank's pages of a window, after a cursor. */
  pagesOf: (window: DateWindow, options: PageOptions) => AsyncGenerator<Page<Item>>;
  /** Pages of a window from a checkpoint, starting over if the bank refuses a stale cursor. */
  resumable: (
    pagesAfter: (after: string | null) => AsyncGenerator<Page<Item>>,
    after: string | null,
  ) => AsyncGenerator<Page<Item>>;
  /** A record's creation date (YYYY-MM-DD, UTC), for the ETA and the probes. */
  createdDateOf: (item: Item) => string | null;
  cachedDays: () => DayCount[];
  plan: (
    page: Page<Item>,
    inFlight: InFlightKeys<Value>,
  ) => { batches: WriteBatch[]; added: number; keys: ReadonlyMap<string, Value> };
  /** Committed with the job's last page (sweep, completion). */
  last: () => WriteBatch[];
  /** Progress: fetched on arrival, written on commit. */
  onProgress: (event: WindowedProgress) => void;
  onWritten: (added: number, lastChanges: number[] | null) => void;
}

export interface WindowedProgress {
  fetched: number;
  pages: number;
  windowsDone: number;
  windowsTotal: number;
  /** Requests the pacer allows at once now (lower after a 429). */
  parallelism: number;
  /** How much of the job is done, 0 to 1 (by the windows' days and weights), and how much was at this run's start. */
  share: number;
  shareAtStart: number;
}

/** Walks the job's windows into the cache; returns whether its last page was written. */
export async function syncInWindows<Item, Value>(job: WindowedSyncJob<Item, Value>): Promise<{ sawLast: boolean }> {
  const windows = await windowsOf(job);
  const pacer = new RequestPacer(job.parallelism, {
    now: () => performance.now(),
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          },
          { once: true },
        );
      }),
  });
  const oldestSeen = new Map<number, string>();
  const done = new Set(windows.filter((window) => window.done).map((window) => window.index));
  const totalWeight = windows.reduce((sum, window) => sum + window.weight, 0) || 1;
  const shareNow = (): number => {
    let covered = 0;
    for (const window of windows) {
      const coverage = done.has(window.index)
        ? 1
        : coverageOf({ fromDate: window.spanFrom, toDate: window.spanTo }, oldestSeen.get(window.index) ?? null);
      covered += window.weight * coverage;
    }
    return covered / totalWeight;
  };
  const shareAtStart = shareNow();
  let fetched = 0;
  let pages = 0;
  const stream = windowedPages<Item>(
    windows,
    (window, after, onRetry) =>
      job.resumable(
        (cursor) =>
          job.pagesOf(window, {
            startAfter: cursor,
            pageSize: job.pageSize,
            signal: job.signal,
            onRetry,
          }),
        after,
      ),
    { pacer, walkers: job.parallelism, pagesAhead: Math.max(2, job.parallelism), signal: job.signal },
  );
  const result = await writePages<Item, Value>(job.cache.writer, stream, {
    signal: job.signal,
    plan: job.plan,
    isLast: (page) => (page as WindowPage<Item>).final,
    advance: (page, added) => {
      const { window } = page as WindowPage<Item>;
      const batches = job.cache.windowCheckpoints.advanceBatches(
        job.profileId,
        job.kind,
        job.key,
        window,
        page.nextCursor,
        page.items.length,
        added,
        job.now(),
      );
      return batches;
    },
    last: () => [...job.last(), job.cache.windowCheckpoints.forgetBatch(job.profileId, job.kind, job.key)],
    onPlanned: (page) => {
      const { window } = page as WindowPage<Item>;
      const oldest = page.items.at(-1);
      const date = oldest === undefined ? null : job.createdDateOf(oldest);
      const before = oldestSeen.get(window);
      if (date !== null && (before === undefined || date < before)) oldestSeen.set(window, date);
      if (page.nextCursor === null) done.add(window);
      fetched += page.items.length;
      pages += 1;
      job.onProgress({
        fetched,
        pages,
        windowsDone: done.size,
        windowsTotal: windows.length,
        parallelism: pacer.state().limit,
        share: shareNow(),
        shareAtStart,
      });
    },
    onWritten: job.onWritten,
  });
  return { sawLast: result.sawLast };
}

/** The job's windows: those of the run it resumes, or newly planned and recorded. */
async function windowsOf<Item, Value>(job: WindowedSyncJob<Item, Value>): Promise<WindowCheckpoint[]> {
  const store = job.cache.windowCheckpoints;
  if (job.resumed) {
    const kept = store.of(job.profileId, job.kind, job.key);
    if (kept.length > 0) return kept;
  }
  const planned = await planWindows({
    range: job.range,
    count: job.parallelism * WINDOWS_PER_WALKER,
    cachedDays: job.cachedDays(),
    // Fewer cached records than a few pages a window: the cache says too little, probe instead.
    enoughCached: job.pageSize * job.parallelism,
    newestIn: async (window) => {
      const pages = job.pagesOf(window, { pageSize: 1, signal: job.signal });
      try {
        const first = await pages.next();
        const item = first.done === true ? undefined : first.value.items[0];
        return item === undefined ? null : job.createdDateOf(item);
      } finally {
        await pages.return(undefined);
      }
    },
    probes: job.parallelism,
    today: job.now().slice(0, 10),
  });
  return store.plan(job.profileId, job.kind, job.key, planned);
}
