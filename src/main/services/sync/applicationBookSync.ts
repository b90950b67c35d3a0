/**
 * The application book's sync (issue 24): every account application of the bank (or those of
 * one status, or created in a date range), and every person and business application they
 * name, each kept once.
 *
 * Three list walks, one after another, each the pending sync's windowed walk (windowedSync.ts:
 * date windows side by side, a shared request pacer that slows down on 429, pages written by
 * the cache writer with their window's checkpoint, so a killed run resumes each window after
 * its last page kept): the applications, then the people, then the businesses. A walk has a
 * checkpoint of its own (`<job key>|applications`, `|people`, `|businesses`); one completed
 * during the current run is not walked again when a stopped run resumes. Then the applicants
 * the applications name that no list returned are asked for one by one (as many at once as
 * the walks); a 404 is kept as "not returned by the bank".
 *
 * The bank's lists have no "changed since" filter, so a later run reads the lists again, but
 * in pages of up to 1,000: a resync of 10,000 applications and 12,000 people is about 25
 * requests, not one per applicant, and it writes only what is new or changed (a keyed digest
 * of each record decides), so an unchanged book costs reads, not writes.
 */
import type { BankClient, Page, PageOptions, ReceivedRecord } from '../bank/bankClient.ts';
import { BankError } from '../bank/bankError.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { ApplicantKind } from '../cache/applicantsTable.ts';
import type { Checkpoint, SyncKind } from '../cache/syncCheckpoints.ts';
import type { WriteBatch } from '../cache/writeBatch.ts';
import { writePages, type InFlightKeys } from './pageWriter.ts';
import type { DateWindow, DayCount } from './dateWindows.ts';
import { RequestPacer } from './requestPacer.ts';
import { syncInWindows, type WindowedProgress } from './windowedSync.ts';
import type { AccountApplicationResponse, AccountApplicationStatus } from '../../../shared/bank/index.ts';

const APPLICATION_BOOK_KIND: SyncKind = 'applications';

export interface ApplicationBookRequest {
  profileId: string;
  status?: AccountApplicationStatus;
  /** Applications created from this date (inclusive), YYYY-MM-DD. */
  fromDate?: string;
  /** Applications created before this date (exclusive), YYYY-MM-DD. */
  toDate?: string;
}

/** The three walks, in order. */
const BOOK_WALKS = ['applications', 'people', 'businesses'] as const;
type BookWalk = (typeof BOOK_WALKS)[number];

export interface ApplicationBookJob {
  cache: OfflineCache;
  client: BankClient;
  request: ApplicationBookRequest;
  /** The job's key; each walk's checkpoint is `<key>|<walk>`. */
  key: string;
  /**
   * When the book was last complete ('' if never): a walk completed after it belongs to the
   * run under way (stopped and started again), and is not walked again.
   */
  sinceLastComplete: string;
  parallelism: number;
  pageSize: number;
  signal: AbortSignal;
  now: () => string;
  resumable: <Item>(
    pagesAfter: (after: string | null) => AsyncGenerator<Page<Item>>,
    after: string | null,
  ) => AsyncGenerator<Page<Item>>;
  /** Progress of the walk under way (counts of that walk), and which walk it is. */
  onWalkProgress: (walk: BookWalk | 'named', event: WindowedProgress) => void;
  onWritten: (added: number) => void;
}

export interface ApplicationBookOutcome {
  /** Whether every walk and every named applicant was done (false: cancelled). */
  complete: boolean;
  /** Named applicants the bank answered 404 for. */
  notReturned: number;
  /** Requests made for named applicants one by one. */
  singleFetches: number;
}

function walkKey(key: string, walk: BookWalk): string {
  return `${key}|${walk}`;
}

function createdDateOf(item: unknown): string | null {
  if (typeof item !== 'object' || item === null) return null;
  // An applicant list's item is a ReceivedRecord (its value, or as received); an application is itself.
  const received = item as Partial<ReceivedRecord<unknown>> & Record<string, unknown>;
  const record: Record<string, unknown> =
    typeof received.ok === 'boolean'
      ? received.ok
        ? (received as { value: Record<string, unknown> }).value
        : (received as { raw: Record<string, unknown> }).raw
      : received;
  const created = record['created_at'];
  return typeof created === 'string' && created.length >= 10 ? created.slice(0, 10) : null;
}

/** Walks the book into the cache; returns whether it completed (else it was cancelled). */
export async function syncApplicationBook(job: ApplicationBookJob): Promise<ApplicationBookOutcome> {
  const { cache, client, request, signal } = job;
  const checkpoints = cache.checkpoints;
  const filters = request.status === undefined ? {} : { status: request.status };
  const range: DateWindow = {
    ...(request.fromDate === undefined ? {} : { fromDate: request.fromDate }),
    ...(request.toDate === undefined ? {} : { toDate: request.toDate }),
  };
  // A function: the signal is aborted from elsewhere while the walks await.
  const stopped = (): boolean => signal.aborted;
  for (const walk of BOOK_WALKS) {
    if (stopped()) return { complete: false, notReturned: 0, singleFetches: 0 };
    const key = walkKey(job.key, walk);
    const scope = JSON.stringify({ walk, ...(walk === 'applications' ? { ...filters, ...range } : {}) });
    const previous = checkpoints.get(request.profileId, APPLICATION_BOOK_KIND, key);
    // Completed during this run (before a stop): not walked again.
    if (
      previous?.state === 'done' &&
      previous.lastSuccessAt !== null &&
      previous.lastSuccessAt > job.sinceLastComplete
    ) {
      continue;
    }
    const begun = checkpoints.begin(request.profileId, APPLICATION_BOOK_KIND, key, scope, job.now());
    const walked =
      walk === 'applications'
        ? await walkList<ReceivedRecord<AccountApplicationResponse>>(job, walk, key, begun, {
            range,
            pagesOf: (window, options) => client.accountApplicationPages(filters, options, window),
            cached: () => daysOf(cache, 'account_applications', request.profileId),
            plan: (page, inFlight) =>
              cache.accountApplications.planPage(request.profileId, page.items, job.now(), inFlight),
          })
        : await walkList<ReceivedRecord<Record<string, unknown>>>(job, walk, key, begun, {
            range: {},
            pagesOf: (window, options) =>
              (walk === 'people'
                ? client.personApplicationPages(window, options)
                : client.businessApplicationPages(window, options)) as AsyncGenerator<
                Page<ReceivedRecord<Record<string, unknown>>>
              >,
            cached: () => applicantDaysOf(cache, request.profileId, walk === 'people' ? 'person' : 'business'),
            plan: (page, inFlight) =>
              cache.applicants.planReceived(
                request.profileId,
                walk === 'people' ? 'person' : 'business',
                page.items,
                job.now(),
                inFlight,
              ),
          });
    if (stopped()) return { complete: false, notReturned: 0, singleFetches: 0 };
    // A walk whose windows were all empty wrote no last page: it is complete all the same.
    if (!walked.sawLast) checkpoints.finish(request.profileId, APPLICATION_BOOK_KIND, key, 'done', job.now());
  }
  return fetchNamed(job);
}

interface ListWalk<Item> {
  range: DateWindow;
  pagesOf: (window: DateWindow, options: PageOptions) => AsyncGenerator<Page<Item>>;
  /** The list's cached records per creation day (where windows are cut, and how big the list was). */
  cached: () => DayCount[];
  plan: (
    page: Page<Item>,
    inFlight: InFlightKeys<true>,
  ) => { batches: WriteBatch[]; added: number; keys: ReadonlyMap<string, true> };
}

/**
 * One list into the cache. In date windows side by side when the list may be long (the first
 * time, or when the cache holds more than a page a walker of it); else, as a list the cache
 * knows to be a few pages long, page after page with one cursor: probing windows would cost
 * more requests than the list has pages. A stopped walk resumes the way it began.
 */
async function walkList<Item>(
  job: ApplicationBookJob,
  walk: BookWalk,
  key: string,
  begun: { checkpoint: Checkpoint; resumed: boolean },
  list: ListWalk<Item>,
): Promise<{ sawLast: boolean }> {
  const { cache, request, signal } = job;
  const checkpoints = cache.checkpoints;
  const profileId = request.profileId;
  const last = (): WriteBatch[] => [checkpoints.doneBatch(profileId, APPLICATION_BOOK_KIND, key, job.now())];
  const cachedDays = list.cached();
  const cachedCount = cachedDays.reduce((sum, day) => sum + day.count, 0);
  const windowsLeft = cache.windowCheckpoints.of(profileId, APPLICATION_BOOK_KIND, key).length > 0;
  const oneCursor = begun.resumed
    ? !windowsLeft
    : begun.checkpoint.lastSuccessAt !== null && cachedCount < job.pageSize * Math.max(2, job.parallelism);
  if (!oneCursor) {
    return syncInWindows<Item, true>({
      cache,
      profileId,
      kind: APPLICATION_BOOK_KIND,
      key,
      range: list.range,
      parallelism: job.parallelism,
      pageSize: job.pageSize,
      resumed: begun.resumed,
      signal,
      now: job.now,
      pagesOf: list.pagesOf,
      resumable: job.resumable,
      createdDateOf,
      cachedDays: () => cachedDays,
      plan: list.plan,
      last,
      onProgress: (event) => {
        job.onWalkProgress(walk, event);
      },
      onWritten: (added) => {
        job.onWritten(added);
      },
    });
  }
  let fetched = 0;
  let pages = 0;
  const written = await writePages<Item, true>(
    cache.writer,
    job.resumable(
      (after) => list.pagesOf(list.range, { startAfter: after, pageSize: job.pageSize, signal }),
      begun.checkpoint.cursor,
    ),
    {
      signal,
      prefetch: true,
      plan: list.plan,
      advance: (page, added) =>
        checkpoints.advanceBatch(
          profileId,
          APPLICATION_BOOK_KIND,
          key,
          page.nextCursor,
          page.items.length,
          added,
          job.now(),
        ),
      last,
      onPlanned: (page) => {
        fetched += page.items.length;
        pages += 1;
        job.onWalkProgress(walk, {
          fetched,
          pages,
          windowsDone: page.nextCursor === null ? 1 : 0,
          windowsTotal: 1,
          parallelism: 1,
          share: page.nextCursor === null ? 1 : Math.min(0.99, fetched / Math.max(1, cachedCount)),
          shareAtStart: 0,
        });
      },
      onWritten: (added) => {
        job.onWritten(added);
      },
    },
  );
  return { sawLast: written.sawLast };
}

/** The named applicants no list returned, asked for one by one, a few at once. */
async function fetchNamed(job: ApplicationBookJob): Promise<ApplicationBookOutcome> {
  const named = job.cache.applicants.namedNotReceived(job.request.profileId, job.sinceLastComplete);
  const fetched = await fetchEach({
    cache: job.cache,
    client: job.client,
    profileId: job.request.profileId,
    entries: named,
    parallelism: job.parallelism,
    signal: job.signal,
    now: job.now,
    onFetched: (done, parallelism) => {
      job.onWalkProgress('named', {
        fetched: done,
        pages: done,
        windowsDone: done,
        windowsTotal: named.length,
        parallelism,
        share: named.length === 0 ? 1 : done / named.length,
        shareAtStart: 0,
      });
    },
    onWritten: job.onWritten,
  });
  return { complete: !job.signal.aborted, notReturned: fetched.notReturned, singleFetches: fetched.done };
}

export interface ApplicantFetch {
  cache: OfflineCache;
  client: BankClient;
  profileId: string;
  applicationId: string;
  parallelism: number;
  signal: AbortSignal;
  now: () => string;
}

/** The people and business of one application (opened by its id), fetched one by one. */
export async function fetchApplicants(fetch: ApplicantFetch): Promise<{ notReturned: number }> {
  const entries = fetch.cache.applicants
    .ofApplication(fetch.profileId, fetch.applicationId)
    .map((named) => ({ applicantId: named.applicantId, kind: named.kind }));
  const fetched = await fetchEach({ ...fetch, entries, onFetched: () => undefined, onWritten: () => undefined });
  return { notReturned: fetched.notReturned };
}

interface FetchEach {
  cache: OfflineCache;
  client: BankClient;
  profileId: string;
  entries: readonly { applicantId: string; kind: ApplicantKind }[];
  parallelism: number;
  signal: AbortSignal;
  now: () => string;
  onFetched: (done: number, parallelism: number) => void;
  onWritten: (added: number) => void;
}

/** Asks for each applicant by id, as many at once as the pacer allows; a 404 is kept as not returned. */
async function fetchEach(run: FetchEach): Promise<{ done: number; notReturned: number }> {
  const { cache, client, signal } = run;
  const pacer = new RequestPacer(run.parallelism, {
    now: () => performance.now(),
    sleep: (ms, abort) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        abort?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            reject(new Error('aborted'));
          },
          { once: true },
        );
      }),
  });
  let next = 0;
  let done = 0;
  let notReturned = 0;
  const fetchOne = async (entry: { applicantId: string; kind: ApplicantKind }): Promise<void> => {
    const at = run.now();
    try {
      const sentAt = await pacer.acquire(signal);
      let received: ReceivedRecord<unknown>;
      try {
        received = await (entry.kind === 'person'
          ? client.getPersonApplication(entry.applicantId, signal)
          : client.getBusinessApplication(entry.applicantId, signal));
      } catch (error) {
        // Still refused after the client's own retries: fewer at once from now on.
        if (error instanceof BankError && error.kind === 'rate-limited') {
          pacer.throttled((error.retryAfterSeconds ?? 1) * 1000, sentAt);
        }
        throw error;
      } finally {
        pacer.release();
      }
      pacer.succeeded();
      const plan = cache.applicants.planReceived(
        run.profileId,
        entry.kind,
        [received as ReceivedRecord<Record<string, unknown>>],
        at,
      );
      await cache.writer.run(plan.batches);
      run.onWritten(plan.added);
    } catch (error) {
      if (!(error instanceof BankError && error.kind === 'not-found')) throw error;
      notReturned += 1;
      await cache.writer.run([cache.applicants.planNotReturned(run.profileId, entry.kind, entry.applicantId, at)]);
    }
    done += 1;
    run.onFetched(done, pacer.state().limit);
  };
  const worker = async (): Promise<void> => {
    while (!signal.aborted) {
      const entry = run.entries[next];
      next += 1;
      if (entry === undefined) return;
      await fetchOne(entry);
    }
  };
  await Promise.all(Array.from({ length: Math.min(run.parallelism, run.entries.length) }, worker));
  return { done, notReturned };
}

function daysOf(cache: OfflineCache, table: 'account_applications', profileId: string): DayCount[] {
  return cache.database
    .prepare(
      `SELECT substr(created_at, 1, 10) AS date, COUNT(*) AS count FROM ${table}
       WHERE profile_id = ? GROUP BY 1 ORDER BY 1`,
    )
    .all(profileId) as unknown as DayCount[];
}

function applicantDaysOf(cache: OfflineCache, profileId: string, kind: ApplicantKind): DayCount[] {
  return cache.database
    .prepare(
      `SELECT substr(created_at, 1, 10) AS date, COUNT(*) AS count FROM applicants
       WHERE profile_id = ? AND kind = ? AND created_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
    )
    .all(profileId, kind) as unknown as DayCount[];
}
