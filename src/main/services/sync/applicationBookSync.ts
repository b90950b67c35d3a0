/**
 * The application book's sync (issue 24): every account application of the bank (or those of
 * one status, or created in a date range), and every person and business application they
 * name, each kept once.
 *
 * Three list walks, one after another (the book's recipe in syncRecipes.ts; listWalk.ts walks
 * each: date windows side by side, a shared request pacer that slows down on 429, pages
 * written by the cache writer with their window's checkpoint, so a killed run resumes each
 * window after its last page kept): the applications, then the people, then the businesses.
 * A walk has a checkpoint of its own (`<job key>|applications`, `|people`, `|businesses`); one
 * completed during the current run is not walked again when a stopped run resumes. Then the
 * applicants the applications name that no list returned are asked for one by one (as many at
 * once as the walks); a 404 is kept as "not returned by the bank".
 *
 * The bank's lists have no "changed since" filter, so a later run reads the lists again, but
 * in pages of up to 1,000: a resync of 10,000 applications and 12,000 people is about 25
 * requests, not one per applicant, and it writes only what is new or changed (a keyed digest
 * of each record decides), so an unchanged book costs reads, not writes.
 */
import type { AccountApplicationResponse } from '../../../shared/bank/index.ts';
import type { BankClient, Page, ReceivedRecord } from '../bank/bankClient.ts';
import { BankError } from '../bank/bankError.ts';
import type { ApplicantKind } from '../cache/applicantsTable.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { DateWindow, DayCount } from './dateWindows.ts';
import type { ListSource } from './listWalk.ts';
import { RequestPacer } from './requestPacer.ts';
import { listStep, type ListStep, type RequestOf, type SyncContext, type WalkStart } from './syncRecipe.ts';

type BookRequest = RequestOf<'applications'>;

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

/**
 * In date windows side by side when the list may be long (the first time, or when the cache
 * holds more than a page a walker of it); else, as a list the cache knows to be a few pages
 * long, page after page with one cursor: probing windows would cost more requests than the
 * list has pages. A stopped walk resumes the way it began.
 */
function bookWindowed(context: SyncContext<BookRequest>, walk: WalkStart): boolean {
  if (walk.resumed) return walk.windowsLeft;
  return !(
    walk.checkpoint.lastSuccessAt !== null && walk.cachedRecords() < context.pageSize * Math.max(2, context.parallelism)
  );
}

function filtersOf(request: BookRequest): { status?: NonNullable<BookRequest['status']> } {
  return request.status === undefined ? {} : { status: request.status };
}

function rangeOf(request: BookRequest): DateWindow {
  return {
    ...(request.fromDate === undefined ? {} : { fromDate: request.fromDate }),
    ...(request.toDate === undefined ? {} : { toDate: request.toDate }),
  };
}

function totalOf(days: readonly DayCount[]): number {
  return days.reduce((sum, day) => sum + day.count, 0);
}

const applicationsWalk: ListStep<BookRequest> = listStep<BookRequest, ReceivedRecord<AccountApplicationResponse>, true>(
  {
    name: 'applications',
    scope: (request) => ({ walk: 'applications', ...filtersOf(request), ...rangeOf(request) }),
    windowed: bookWindowed,
    source: ({ cache, client, request, now }): ListSource<ReceivedRecord<AccountApplicationResponse>, true> => {
      const cached = daysOf(cache, request.profileId);
      return {
        range: rangeOf(request),
        pages: (window, options) => client.accountApplicationPages(filtersOf(request), options, window),
        createdDateOf,
        cachedDays: () => cached,
        expectedRecords: totalOf(cached),
        plan: (page, inFlight) => cache.accountApplications.planPage(request.profileId, page.items, now(), inFlight),
      };
    },
  },
);

/** The people's or the businesses' list: all of it (these lists know no status filter). */
function applicantWalk(walk: 'people' | 'businesses'): ListStep<BookRequest> {
  const kind: ApplicantKind = walk === 'people' ? 'person' : 'business';
  return listStep<BookRequest, ReceivedRecord<Record<string, unknown>>, true>({
    name: walk,
    scope: () => ({ walk }),
    windowed: bookWindowed,
    source: ({ cache, client, request, now }): ListSource<ReceivedRecord<Record<string, unknown>>, true> => {
      const cached = applicantDaysOf(cache, request.profileId, kind);
      return {
        range: {},
        pages: (window, options) =>
          (walk === 'people'
            ? client.personApplicationPages(window, options)
            : client.businessApplicationPages(window, options)) as AsyncGenerator<
            Page<ReceivedRecord<Record<string, unknown>>>
          >,
        createdDateOf,
        cachedDays: () => cached,
        expectedRecords: totalOf(cached),
        plan: (page, inFlight) => cache.applicants.planReceived(request.profileId, kind, page.items, now(), inFlight),
      };
    },
  });
}

/** The book's lists, walked in this order. */
export const bookWalks: readonly ListStep<BookRequest>[] = [
  applicationsWalk,
  applicantWalk('people'),
  applicantWalk('businesses'),
];

/** The named applicants no list returned, asked for one by one, a few at once. */
export async function fetchNamed(context: SyncContext<BookRequest>): Promise<void> {
  const { cache, client, request } = context;
  const named = cache.applicants.namedNotReceived(request.profileId, context.lastComplete);
  await fetchEach({
    cache,
    client,
    profileId: request.profileId,
    entries: named,
    parallelism: context.parallelism,
    signal: context.signal,
    now: context.now,
    onFetched: (done, parallelism) => {
      context.onProgress({
        fetched: done,
        pages: done,
        oldestDate: null,
        windows: {
          windowsDone: done,
          windowsTotal: named.length,
          parallelism,
          share: named.length === 0 ? 1 : done / named.length,
          shareAtStart: 0,
        },
      });
    },
    onWritten: (added) => {
      context.onWritten(added, null);
    },
  });
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

function daysOf(cache: OfflineCache, profileId: string): DayCount[] {
  return cache.database
    .prepare(
      `SELECT substr(created_at, 1, 10) AS date, COUNT(*) AS count FROM account_applications
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
