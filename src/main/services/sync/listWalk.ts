/**
 * One list walked into the cache, the way every list sync walks (issue 36: the one walker the
 * recipes share): date windows side by side (windowedSync.ts), or one cursor page after page;
 * each page written by the cache writer with its checkpoint (pageWriter.ts), the last page
 * with the sweep and the completion. A walk that ends without a last page to carry them (every
 * window empty, or an incremental walk that stopped at a page with nothing new) completes in
 * a transaction of its own. Cancelled, it stops after the page at hand; the next run resumes
 * after the last page kept.
 */
import type { Page, PageOptions } from '../bank/bankClient.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { Checkpoint, SyncKind } from '../cache/syncCheckpoints.ts';
import type { WriteBatch } from '../cache/writeBatch.ts';
import type { DateWindow, DayCount } from './dateWindows.ts';
import { writePages, type InFlightKeys } from './pageWriter.ts';
import { syncInWindows, type WindowedProgress } from './windowedSync.ts';

/** Pages of a list from a checkpoint, starting over if the bank refuses a stale cursor. */
export type Resumable = <Item>(
  pagesAfter: (after: string | null) => AsyncGenerator<Page<Item>>,
  after: string | null,
) => AsyncGenerator<Page<Item>>;

/** A page planned for the writer: its statements, how many records are new, and its keys. */
interface PlannedPage<Value> {
  batches: WriteBatch[];
  added: number;
  keys: ReadonlyMap<string, Value>;
}

/** What a list walk needs to know of the list: where its pages come from and how one is written. */
export interface ListSource<Item, Value> {
  /** The bank's pages of the list within a date window (all of it: `{}`), after a cursor. */
  pages: (window: DateWindow, options: PageOptions) => AsyncGenerator<Page<Item>>;
  /** The date range walked. */
  range: DateWindow;
  /** A record's creation date (YYYY-MM-DD, UTC): windows, probes and the time left. */
  createdDateOf: (item: Item) => string | null;
  /** The list's cached records per creation day, where a new run cuts its windows. */
  cachedDays: () => DayCount[];
  plan: (page: Page<Item>, inFlight: InFlightKeys<Value>) => PlannedPage<Value>;
  /** Committed with the last page: rows the bank no longer lists, removed. */
  sweep?: () => WriteBatch;
  /** About how many records the list holds, when known: the share of a one-cursor walk done. */
  expectedRecords?: number;
}

export interface ListWalkJob {
  cache: OfflineCache;
  profileId: string;
  kind: SyncKind;
  /** The checkpoint's key. */
  key: string;
  checkpoint: Checkpoint;
  resumed: boolean;
  /** Date windows side by side (else one cursor). */
  windowed: boolean;
  /** Stop after the first page with nothing new (records that never change once made). */
  incremental: boolean;
  parallelism: number;
  pageSize: number;
  signal: AbortSignal;
  now: () => string;
  resumable: Resumable;
  /** On each page fetched: the walk's counts so far (absolute), and its windows' share when windowed. */
  onFetched: (progress: WalkProgress) => void;
  /** On each page committed: its new records, and the rows the sweep removed with the last page. */
  onWritten: (added: number, removed: number | null) => void;
}

export interface WalkProgress {
  fetched: number;
  pages: number;
  /** The oldest creation date seen so far (lists are newest first). */
  oldestDate: string | null;
  /** Set when windowed: windows done, the pacer's limit and the share of the job done. */
  windows: Omit<WindowedProgress, 'fetched' | 'pages'> | null;
}

/** Walks the list; returns whether it completed (false: cancelled). */
export async function walkList<Item, Value>(job: ListWalkJob, list: ListSource<Item, Value>): Promise<boolean> {
  const { cache, profileId, kind, key, signal } = job;
  const checkpoints = cache.checkpoints;
  const last = (): WriteBatch[] => [
    ...(list.sweep === undefined ? [] : [list.sweep()]),
    checkpoints.doneBatch(profileId, kind, key, job.now()),
  ];
  const written = (added: number, lastChanges: number[] | null): void => {
    job.onWritten(added, lastChanges === null || list.sweep === undefined ? null : (lastChanges[0] ?? 0));
  };
  let oldestDate: string | null = null;
  const seen = (page: Page<Item>): void => {
    const oldest = page.items.at(-1);
    const date = oldest === undefined ? null : list.createdDateOf(oldest);
    if (date !== null && (oldestDate === null || date < oldestDate)) oldestDate = date;
  };
  let sawLast: boolean;
  let stoppedEarly = false;
  if (job.windowed && !job.incremental) {
    const walked = await syncInWindows<Item, Value>({
      cache,
      profileId,
      kind,
      key,
      range: list.range,
      parallelism: job.parallelism,
      pageSize: job.pageSize,
      resumed: job.resumed,
      signal,
      now: job.now,
      pagesOf: list.pages,
      resumable: job.resumable,
      createdDateOf: list.createdDateOf,
      cachedDays: list.cachedDays,
      plan: list.plan,
      last,
      onProgress: ({ fetched, pages, ...windows }) => {
        job.onFetched({ fetched, pages, oldestDate, windows });
      },
      onWritten: written,
    });
    sawLast = walked.sawLast;
  } else {
    let fetched = 0;
    let pages = 0;
    const walked = await writePages<Item, Value>(
      cache.writer,
      job.resumable(
        (after) => list.pages(list.range, { startAfter: after, pageSize: job.pageSize, signal }),
        job.checkpoint.cursor,
      ),
      {
        signal,
        // An incremental walk often stops at its first page: fetching the next one would be waste.
        prefetch: !job.incremental,
        plan: list.plan,
        advance: (page, added) =>
          checkpoints.advanceBatch(profileId, kind, key, page.nextCursor, page.items.length, added, job.now()),
        last,
        onPlanned: (page) => {
          seen(page);
          fetched += page.items.length;
          pages += 1;
          const expected = list.expectedRecords;
          const end = page.nextCursor === null;
          job.onFetched({
            fetched,
            pages,
            oldestDate,
            windows:
              expected === undefined
                ? null
                : {
                    windowsDone: end ? 1 : 0,
                    windowsTotal: 1,
                    parallelism: 1,
                    share: end ? 1 : Math.min(0.99, fetched / Math.max(1, expected)),
                    shareAtStart: 0,
                  },
          });
        },
        onWritten: written,
        ...(job.incremental ? { stopAfter: (added: number) => added === 0 } : {}),
      },
    );
    sawLast = walked.sawLast;
    stoppedEarly = walked.stoppedEarly;
  }
  if (signal.aborted && !sawLast && !stoppedEarly) return false;
  if (!sawLast) {
    // No last page carried the sweep and the completion: one transaction of their own.
    const [removed] = await cache.writer.run(last());
    if (list.sweep !== undefined) job.onWritten(0, removed ?? 0);
  }
  return true;
}
