/**
 * Sync jobs: page through the bank into the cache. Pages are written in transactions of a few
 * pages (pageWriter.ts) together with the checkpoint (the cursor after the last of them), so a
 * crash or `kill -9` leaves rows and cursor in agreement and the next run of the same job
 * resumes after the last page kept.
 * One job per key at a time (asking again returns the running job), cancellable, with
 * progress events.
 */
import { randomUUID } from 'node:crypto';
import type { PendingTransactionResponse, WebhookSendResponse, WebhookSendStatus } from '../../../shared/bank/index.ts';
import { BankError } from '../bank/bankError.ts';
import type { BankClient, Page } from '../bank/bankClient.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { SyncCheckpoints, SyncKind } from '../cache/syncCheckpoints.ts';
import type { WriteBatch } from '../cache/writeBatch.ts';
import { writePages } from './pageWriter.ts';
import { etaFromDates, etaFromShare, shareOfDates, type SyncProgress, type SyncState } from './syncProgress.ts';
import { syncInWindows, type WindowedProgress } from './windowedSync.ts';
import { fetchApplicants, syncApplicationBook, type ApplicationBookRequest } from './applicationBookSync.ts';

export type SyncRequest =
  | { kind: 'pending-transactions'; profileId: string; accountId: string; fromDate?: string; toDate?: string }
  | {
      kind: 'webhook-sends';
      profileId: string;
      webhookId?: string;
      /** The sends of one object (every notification about it). */
      objectId?: string;
      status?: WebhookSendStatus;
      fromDate?: string;
      toDate?: string;
      /** Page through everything even when the newest pages show nothing new. */
      full?: boolean;
    }
  | { kind: 'account-application'; profileId: string; applicationId: string }
  | ({ kind: 'applications' } & ApplicationBookRequest)
  | { kind: 'webhooks'; profileId: string };

export interface SyncOutcome {
  jobId: string;
  kind: SyncKind;
  key: string;
  state: Exclude<SyncState, 'running'>;
  fetched: number;
  written: number;
  /** Rows the bank no longer lists, removed at the end of a complete sync. */
  removed: number;
  /** Whether this run continued from a checkpoint. */
  resumed: boolean;
  error?: string;
  /** The typed failure, when it failed. */
  failure?: unknown;
}

export interface SyncJob {
  jobId: string;
  kind: SyncKind;
  key: string;
  done: Promise<SyncOutcome>;
}

export class SyncBusy extends Error {
  constructor(key: string) {
    super(`A sync of ${key} with other parameters is already running: wait for it or cancel it.`);
    this.name = 'SyncBusy';
  }
}

export interface SyncServiceOptions {
  cache: OfflineCache;
  clientFor: (profileId: string) => BankClient | Promise<BankClient>;
  /** Records per page asked of the bank: the interface's maximum by default. */
  pageSize?: number;
  /**
   * Date windows of a list walked at once (and page requests at the bank at once, at most);
   * 1 walks the list in one cursor, page after page.
   */
  parallelism?: number;
  now?: () => Date;
}

/** Windows walked at once by default: enough to hide a distant bank's round trips, few enough to be polite. */
const DEFAULT_SYNC_PARALLELISM = 6;
/** The most the parallelism may be set to. */
const MAX_SYNC_PARALLELISM = 16;

interface RunningJob {
  jobId: string;
  profileId: string;
  job?: SyncJob;
  scope: string;
  controller: AbortController;
  progress: SyncProgress;
}

type ProgressListener = (progress: SyncProgress) => void;

/** The job's key and scope: what identifies its checkpoint. */
function keyOf(request: SyncRequest): { key: string; scope: Record<string, unknown> } {
  switch (request.kind) {
    case 'pending-transactions':
      return {
        key: `pending-transactions/${request.profileId}/${request.accountId}`,
        scope: { accountId: request.accountId, fromDate: request.fromDate, toDate: request.toDate },
      };
    case 'webhook-sends': {
      const scope = {
        webhookId: request.webhookId,
        objectId: request.objectId,
        status: request.status,
        fromDate: request.fromDate,
        toDate: request.toDate,
      };
      const named = Object.entries(scope)
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => `${name}=${String(value)}`)
        .join('&');
      return { key: `webhook-sends/${request.profileId}/${named === '' ? 'all' : named}`, scope };
    }
    case 'account-application':
      return {
        key: `account-application/${request.profileId}/${request.applicationId}`,
        scope: { applicationId: request.applicationId },
      };
    case 'applications': {
      const scope = { status: request.status, fromDate: request.fromDate, toDate: request.toDate };
      const named = Object.entries(scope)
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => `${name}=${String(value)}`)
        .join('&');
      return { key: `applications/${request.profileId}/${named === '' ? 'all' : named}`, scope };
    }
    case 'webhooks':
      return { key: `webhooks/${request.profileId}`, scope: {} };
  }
}

/** A failed sync's sentence as the window shows it: a person's wording when the failure has one. */
function describeFailure(error: unknown): string {
  if (error instanceof BankError && error.forPeople !== undefined) {
    return `${error.forPeople.message} ${error.forPeople.action}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export class SyncService {
  readonly #cache: OfflineCache;
  readonly #clientFor: SyncServiceOptions['clientFor'];
  readonly #pageSize: number;
  readonly #parallelism: number;
  readonly #now: () => Date;
  readonly #running = new Map<string, RunningJob>();
  readonly #listeners = new Set<ProgressListener>();

  constructor(options: SyncServiceOptions) {
    this.#cache = options.cache;
    this.#clientFor = options.clientFor;
    this.#pageSize = options.pageSize ?? 1000;
    const parallelism = options.parallelism ?? DEFAULT_SYNC_PARALLELISM;
    if (!Number.isSafeInteger(parallelism) || parallelism < 1 || parallelism > MAX_SYNC_PARALLELISM) {
      throw new RangeError(
        `The sync's parallelism must be a whole number from 1 to ${String(MAX_SYNC_PARALLELISM)}, not ${String(parallelism)}.`,
      );
    }
    this.#parallelism = parallelism;
    this.#now = options.now ?? (() => new Date());
  }

  /** Starts a job, or returns the one already running for the same key and parameters. */
  start(request: SyncRequest): SyncJob {
    const { key, scope } = keyOf(request);
    const scopeText = JSON.stringify(scope);
    const existing = this.#running.get(key);
    if (existing?.job !== undefined) {
      if (existing.scope === scopeText) return existing.job;
      throw new SyncBusy(key);
    }
    const jobId = `sync_${randomUUID()}`;
    const controller = new AbortController();
    const progress: SyncProgress = {
      jobId,
      kind: request.kind,
      key,
      fetched: 0,
      written: 0,
      pages: 0,
      windowsDone: 0,
      windowsTotal: 0,
      parallelism: 1,
      ratePerSecond: 0,
      etaSeconds: null,
      state: 'running',
    };
    const running: RunningJob = { jobId, profileId: request.profileId, scope: scopeText, controller, progress };
    const done = this.#run(request, running).finally(() => {
      this.#running.delete(key);
    });
    running.job = { jobId, kind: request.kind, key, done };
    this.#running.set(key, running);
    return running.job;
  }

  /** Stops a job after its current page; the next start resumes from there. */
  cancel(jobId: string): boolean {
    for (const running of this.#running.values()) {
      if (running.jobId === jobId) {
        running.controller.abort();
        return true;
      }
    }
    return false;
  }

  /** Cancels every job and waits for them to stop (on quit). */
  async stopAll(): Promise<void> {
    await this.#stop([...this.#running.values()]);
  }

  /** Cancels a profile's jobs and waits for them to stop (before its cached data is dropped). */
  async stopProfile(profileId: string): Promise<void> {
    await this.#stop([...this.#running.values()].filter((running) => running.profileId === profileId));
  }

  async #stop(jobs: RunningJob[]): Promise<void> {
    for (const running of jobs) running.controller.abort();
    await Promise.allSettled(jobs.flatMap((running) => (running.job === undefined ? [] : [running.job.done])));
  }

  running(): SyncProgress[] {
    return [...this.#running.values()].map((running) => ({ ...running.progress }));
  }

  onProgress(listener: ProgressListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(progress: SyncProgress): void {
    for (const listener of this.#listeners) {
      try {
        listener({ ...progress });
      } catch {
        // A listener's failure must not stop the sync.
      }
    }
  }

  /**
   * An account synced for the first time is named from the bank's account list (one request),
   * so screens and the report name it, not its id (issue 38). A list that cannot be read now is
   * not the sync's failure: the account is named at the next sync or opening of the list.
   */
  async #nameAccount(client: BankClient, profileId: string, accountId: string, signal: AbortSignal): Promise<void> {
    if (this.#cache.accounts.has(profileId, accountId)) return;
    try {
      const accounts = await client.listAccounts(signal);
      this.#cache.transaction(() => {
        this.#cache.accounts.write(profileId, accounts, this.#stamp());
      });
    } catch {
      // Said nowhere: the page walk that follows meets the same bank and says what is wrong.
    }
  }

  async #run(request: SyncRequest, running: RunningJob): Promise<SyncOutcome> {
    const { key } = keyOf(request);
    const { progress, controller } = running;
    const checkpoints = this.#cache.checkpoints;
    const started = performance.now();
    let fetchedThisRun = 0;
    let begun: ReturnType<SyncCheckpoints['begin']>;
    try {
      begun = checkpoints.begin(request.profileId, request.kind, key, running.scope, this.#stamp());
    } catch (error) {
      // Not even the checkpoint could be written (a full disk): report it like any failure.
      progress.state = 'failed';
      progress.error = describeFailure(error);
      this.#emit(progress);
      return {
        jobId: running.jobId,
        kind: request.kind,
        key,
        state: 'failed',
        fetched: 0,
        written: 0,
        removed: 0,
        resumed: false,
        error: progress.error,
        failure: error,
      };
    }
    const { checkpoint, resumed } = begun;
    progress.fetched = checkpoint.fetched;
    progress.written = checkpoint.written;
    let removed = 0;
    let oldestDate: string | null = null;
    /** Set while windows are walked: the share of the job done, now and at this run's start. */
    let windowShare: { share: number; shareAtStart: number } | null = null;
    const report = (): void => {
      const elapsed = (performance.now() - started) / 1000;
      progress.ratePerSecond = elapsed > 0 ? Math.round(fetchedThisRun / elapsed) : 0;
      if (progress.state === 'running' && windowShare !== null) {
        progress.etaSeconds = etaFromShare(windowShare.share, windowShare.shareAtStart, elapsed);
        progress.share = windowShare.share;
      } else if (request.kind === 'pending-transactions' && progress.state === 'running') {
        progress.etaSeconds = etaFromDates(request, oldestDate, elapsed, this.#stamp().slice(0, 10));
        progress.share = shareOfDates(request, oldestDate, this.#stamp().slice(0, 10));
      }
      this.#emit(progress);
    };
    /** Progress of a windowed walk: counts on arrival, the share for the ETA. */
    const windowedProgress = (event: WindowedProgress): void => {
      fetchedThisRun = event.fetched;
      progress.fetched = checkpoint.fetched + event.fetched;
      progress.pages = event.pages;
      progress.windowsDone = event.windowsDone;
      progress.windowsTotal = event.windowsTotal;
      progress.parallelism = event.parallelism;
      windowShare = { share: event.share, shareAtStart: event.shareAtStart };
      report();
    };
    const finish = (state: Exclude<SyncState, 'running'>, failure?: unknown): SyncOutcome => {
      progress.state = state;
      if (state === 'done') {
        progress.etaSeconds = 0;
        progress.share = 1;
      }
      if (failure !== undefined) progress.error = describeFailure(failure);
      report();
      return {
        jobId: running.jobId,
        kind: request.kind,
        key,
        state,
        fetched: progress.fetched,
        written: progress.written,
        removed,
        resumed,
        ...(failure === undefined ? {} : { error: describeFailure(failure), failure }),
      };
    };
    this.#emit(progress);
    try {
      const client = await this.#clientFor(request.profileId);
      const signal = controller.signal;
      const onPage = <Item>(page: Page<Item>, write: () => number, last: () => number): void => {
        const isLast = page.nextCursor === null;
        const written = this.#cache.transaction(() => {
          const count = write();
          checkpoints.advance(
            request.profileId,
            request.kind,
            key,
            page.nextCursor,
            page.items.length,
            count,
            this.#stamp(),
          );
          // The last page, the sweep and the completion are one transaction: no gap for a crash.
          if (isLast) {
            removed = last();
            checkpoints.finish(request.profileId, request.kind, key, 'done', this.#stamp());
          }
          return count;
        });
        fetchedThisRun += page.items.length;
        progress.fetched += page.items.length;
        progress.written += written;
        report();
      };
      // Pages written in groups (pageWriter.ts): fetched counts on arrival, written on commit.
      const fetchedPage = (page: Page<unknown>): void => {
        fetchedThisRun += page.items.length;
        progress.fetched += page.items.length;
        progress.pages += 1;
        report();
      };
      const completeWithoutPage = (last: () => number): void => {
        this.#cache.transaction(() => {
          removed = last();
          checkpoints.finish(request.profileId, request.kind, key, 'done', this.#stamp());
        });
      };
      const startAfter = checkpoint.cursor;
      // A run that stopped walking one cursor (an older build, or parallelism 1) ends that way.
      const windowed = this.#parallelism > 1 && !(resumed && checkpoint.cursor !== null);
      const windowJob = {
        cache: this.#cache,
        profileId: request.profileId,
        kind: request.kind,
        key,
        parallelism: this.#parallelism,
        pageSize: this.#pageSize,
        resumed,
        signal,
        now: () => this.#stamp(),
        onProgress: windowedProgress,
      };
      /** A written page's checkpoint: where to resume, committed with its rows. */
      const advance = (page: Page<unknown>, added: number): WriteBatch =>
        checkpoints.advanceBatch(
          request.profileId,
          request.kind,
          key,
          page.nextCursor,
          page.items.length,
          added,
          this.#stamp(),
        );
      switch (request.kind) {
        case 'pending-transactions': {
          await this.#nameAccount(client, request.profileId, request.accountId, signal);
          const range = {
            ...(request.fromDate === undefined ? {} : { fromDate: request.fromDate }),
            ...(request.toDate === undefined ? {} : { toDate: request.toDate }),
          };
          const sweep = (): number =>
            this.#cache.pendingTransactions.sweep(request.profileId, request.accountId, checkpoint.generation, range);
          const pages = this.#resumable(
            (after) =>
              client.pendingTransactionPages(request.accountId, range, {
                startAfter: after,
                pageSize: this.#pageSize,
                signal,
              }),
            startAfter,
          );
          const table = this.#cache.pendingTransactions;
          // The account's scope is made by the writer (off this thread), so planning the first
          // page only reads it and never waits for the write lock.
          await this.#cache.writer.run([table.scopeBatch(request.profileId, request.accountId)]);
          if (windowed) {
            const walked = await syncInWindows<PendingTransactionResponse, true>({
              ...windowJob,
              range,
              pagesOf: (window, options) => client.pendingTransactionPages(request.accountId, window, options),
              resumable: (pagesAfter, after) => this.#resumable(pagesAfter, after),
              // The precise time is the creation time, in UTC: what the bank's date filters compare.
              createdDateOf: (item) => item.extended_timestamp_precise?.slice(0, 10) ?? item.date ?? null,
              cachedDays: () => this.#cache.creationDays.ofPendingTransactions(request.profileId, request.accountId),
              plan: (page, inFlight) => {
                const plan = table.planPage(request.profileId, request.accountId, page.items, checkpoint.generation, {
                  has: (rowKey) => inFlight.get(rowKey) !== undefined,
                });
                return { batches: plan.batches, added: plan.added, keys: plan.rowKeys };
              },
              last: () => [
                table.sweepBatch(request.profileId, request.accountId, checkpoint.generation, range),
                checkpoints.doneBatch(request.profileId, request.kind, key, this.#stamp()),
              ],
              onWritten: (added, lastChanges) => {
                if (lastChanges !== null) removed = lastChanges[0] ?? 0;
                progress.written += added;
                report();
              },
            });
            if (!walked.sawLast && !signal.aborted) completeWithoutPage(sweep);
            break;
          }
          const written = await writePages<PendingTransactionResponse, true>(this.#cache.writer, pages, {
            signal,
            prefetch: true,
            plan: (page, inFlight) => {
              const oldest = page.items.at(-1)?.date ?? undefined;
              if (oldest !== undefined && (oldestDate === null || oldest < oldestDate)) oldestDate = oldest;
              const plan = table.planPage(request.profileId, request.accountId, page.items, checkpoint.generation, {
                has: (rowKey) => inFlight.get(rowKey) !== undefined,
              });
              return { batches: plan.batches, added: plan.added, keys: plan.rowKeys };
            },
            advance,
            last: () => [
              table.sweepBatch(request.profileId, request.accountId, checkpoint.generation, range),
              checkpoints.doneBatch(request.profileId, request.kind, key, this.#stamp()),
            ],
            onPlanned: fetchedPage,
            onWritten: (added, lastChanges) => {
              if (lastChanges !== null) removed = lastChanges[0] ?? 0;
              progress.written += added;
              report();
            },
          });
          if (!written.sawLast && !signal.aborted) completeWithoutPage(sweep);
          break;
        }
        case 'webhook-sends': {
          const filters = {
            ...(request.webhookId === undefined ? {} : { webhook_id: request.webhookId }),
            ...(request.objectId === undefined ? {} : { object_id: request.objectId }),
            ...(request.status === undefined ? {} : { status: request.status }),
          };
          const range = {
            ...(request.fromDate === undefined ? {} : { fromDate: request.fromDate }),
            ...(request.toDate === undefined ? {} : { toDate: request.toDate }),
          };
          // Send records never change once made: after one complete sync, a page with nothing
          // new means everything older is already here.
          const incremental = request.full !== true && !resumed && checkpoint.lastSuccessAt !== null;
          const sends = this.#cache.webhookSends;
          if (windowed && !incremental) {
            const walked = await syncInWindows<WebhookSendResponse, string>({
              ...windowJob,
              range,
              pagesOf: (window, options) => client.webhookSendPages(filters, window, options),
              resumable: (pagesAfter, after) => this.#resumable(pagesAfter, after),
              createdDateOf: (send) => send.created_at?.slice(0, 10) ?? null,
              cachedDays: () => this.#cache.creationDays.ofWebhookSends(request.profileId),
              plan: (page, inFlight) => {
                const plan = sends.planPage(request.profileId, page.items, this.#stamp(), inFlight);
                return { batches: plan.batches, added: plan.added, keys: plan.digests };
              },
              last: () => [checkpoints.doneBatch(request.profileId, request.kind, key, this.#stamp())],
              onWritten: (added) => {
                progress.written += added;
                report();
              },
            });
            if (!walked.sawLast && !signal.aborted) completeWithoutPage(() => 0);
            break;
          }
          const written = await writePages<WebhookSendResponse, string>(
            this.#cache.writer,
            this.#resumable(
              (after) =>
                client.webhookSendPages(filters, range, { startAfter: after, pageSize: this.#pageSize, signal }),
              startAfter,
            ),
            {
              signal,
              prefetch: !incremental,
              plan: (page, inFlight) => {
                const plan = sends.planPage(request.profileId, page.items, this.#stamp(), inFlight);
                return { batches: plan.batches, added: plan.added, keys: plan.digests };
              },
              advance,
              last: () => [checkpoints.doneBatch(request.profileId, request.kind, key, this.#stamp())],
              onPlanned: fetchedPage,
              onWritten: (added) => {
                progress.written += added;
                report();
              },
              stopAfter: (added) => incremental && added === 0,
            },
          );
          if (written.stoppedEarly) completeWithoutPage(() => 0);
          break;
        }
        case 'account-application': {
          // Kept as received when malformed (a status this client does not know), never refused.
          const application = await client.receiveAccountApplication(request.applicationId, signal);
          const page: Page<typeof application> = { items: [application], nextCursor: null };
          onPage(
            page,
            () => (this.#cache.accountApplications.record(request.profileId, application, this.#stamp()) ? 1 : 0),
            () => 0,
          );
          // Opened by id: its people and business too, one by one (a handful of requests).
          await fetchApplicants({
            cache: this.#cache,
            client,
            profileId: request.profileId,
            applicationId: application.id,
            parallelism: this.#parallelism,
            signal,
            now: () => this.#stamp(),
          });
          break;
        }
        case 'applications': {
          // Each walk reports its own counts; the job's are the sum of the walks so far.
          let walkBase = { fetched: progress.fetched, pages: 0 };
          let walkNow = { fetched: 0, pages: 0, walk: '' };
          const book = await syncApplicationBook({
            cache: this.#cache,
            client,
            request,
            key,
            // Walks completed since the book was last complete belong to this unfinished run.
            sinceLastComplete: checkpoint.lastSuccessAt ?? '',
            parallelism: this.#parallelism,
            pageSize: this.#pageSize,
            signal,
            now: () => this.#stamp(),
            resumable: (pagesAfter, after) => this.#resumable(pagesAfter, after),
            onWalkProgress: (walk, event) => {
              if (walk !== walkNow.walk) {
                walkBase = {
                  fetched: walkBase.fetched + walkNow.fetched,
                  pages: walkBase.pages + walkNow.pages,
                };
                walkNow = { fetched: 0, pages: 0, walk };
              }
              walkNow.fetched = event.fetched;
              walkNow.pages = event.pages;
              windowedProgress({
                ...event,
                fetched: walkBase.fetched - checkpoint.fetched + event.fetched,
                pages: walkBase.pages + event.pages,
              });
            },
            onWritten: (added) => {
              progress.written += added;
              report();
            },
          });
          if (book.complete) completeWithoutPage(() => 0);
          break;
        }
        case 'webhooks': {
          const sweep = (): number => this.#cache.webhooks.sweep(request.profileId, checkpoint.generation);
          let sawLast = false;
          for await (const page of this.#resumable(
            (after) => client.webhookPages({ startAfter: after, pageSize: this.#pageSize, signal }),
            startAfter,
          )) {
            onPage(page, () => this.#cache.webhooks.write(request.profileId, page.items, checkpoint.generation), sweep);
            sawLast = page.nextCursor === null;
            if (!sawLast && signal.aborted) break;
          }
          if (!sawLast && !signal.aborted) completeWithoutPage(sweep);
          break;
        }
      }
      if (checkpoints.get(request.profileId, request.kind, key)?.state === 'done') {
        this.#optimize();
        return finish('done');
      }
      checkpoints.finish(request.profileId, request.kind, key, 'cancelled', this.#stamp());
      return finish('cancelled');
    } catch (error) {
      const cancelled = controller.signal.aborted || (error instanceof BankError && error.kind === 'cancelled');
      try {
        checkpoints.finish(
          request.profileId,
          request.kind,
          key,
          cancelled ? 'cancelled' : 'failed',
          this.#stamp(),
          cancelled ? null : describeFailure(error),
        );
      } catch {
        // The disk may be full: the checkpoint of the last page kept is still right.
      }
      return cancelled ? finish('cancelled') : finish('failed', error);
    }
  }

  /**
   * Pages from a checkpoint; if the bank refuses a stale cursor (400 or 404 on the very first
   * page of a resumed run), starts over from the first page instead of failing.
   */
  async *#resumable<Item>(
    pagesAfter: (after: string | null) => AsyncGenerator<Page<Item>>,
    startAfter: string | null,
  ): AsyncGenerator<Page<Item>> {
    if (startAfter === null) {
      yield* pagesAfter(null);
      return;
    }
    const iterator = pagesAfter(startAfter);
    let first: IteratorResult<Page<Item>>;
    try {
      first = await iterator.next();
    } catch (error) {
      if (error instanceof BankError && (error.kind === 'bad-request' || error.kind === 'not-found')) {
        yield* pagesAfter(null);
        return;
      }
      throw error;
    }
    if (first.done === true) return;
    yield first.value;
    yield* { [Symbol.asyncIterator]: () => iterator };
  }

  /** Statistics for the query planner, refreshed after data changed (bounded work). */
  #optimize(): void {
    try {
      this.#cache.optimize();
    } catch {
      // Only an optimisation.
    }
  }

  #stamp(): string {
    return this.#now().toISOString();
  }
}
