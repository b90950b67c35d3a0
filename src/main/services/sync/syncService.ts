/**
 * Sync jobs: page through the bank into the cache. Each kind's recipe (syncRecipes.ts) says
 * what to fetch, how to window it, how to write a page and what follows; this driver runs it:
 * it begins the job's checkpoint, walks the recipe's lists (listWalk.ts: pages written by the
 * cache writer in transactions with their checkpoint, so a crash or `kill -9` leaves rows and
 * cursor in agreement and the next run of the same job resumes after the last page kept),
 * reports progress, and ends the job with its outcome and a "sync finished" event.
 * One job per key at a time (asking again returns the running job), cancellable.
 */
import { randomUUID } from 'node:crypto';
import { BankError } from '../bank/bankError.ts';
import type { BankClient, Page } from '../bank/bankClient.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { Checkpoint, SyncKind } from '../cache/syncCheckpoints.ts';
import type { WalkProgress } from './listWalk.ts';
import { walkList } from './listWalk.ts';
import { etaFromDates, etaFromShare, shareOfDates, type SyncProgress, type SyncState } from './syncProgress.ts';
import type { SyncContext, SyncRecipe, SyncRequest } from './syncRecipe.ts';
import { recipeOf } from './syncRecipes.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export type { SyncRequest } from './syncRecipe.ts';

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
  /** Seconds the "sync finished" listeners took (reviews, watch rules), after the job's own work. */
  followUpSeconds: number;
  error?: string;
  /** The typed failure, when it failed. */
  failure?: unknown;
}

/**
 * "Sync finished": told once per job when it ends, before its outcome is handed out, so
 * whoever waited for the sync sees what the listeners did (a review marked changed, a rule's
 * flags). Listeners act on `done`; a cancelled or failed job is told too.
 */
export interface SyncFinished {
  jobId: string;
  kind: SyncKind;
  profileId: string;
  key: string;
  state: Exclude<SyncState, 'running'>;
  written: number;
  removed: number;
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

  get answer(): ContractAnswer {
    return { code: 'conflict', retryable: true };
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
type FinishedListener = (finished: SyncFinished) => void;

/** The job's key and scope: what identifies its checkpoint. */
function keyOf(request: SyncRequest): { key: string; scope: Record<string, unknown> } {
  return recipeOf(request).identify(request);
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
  readonly #finishedListeners = new Set<FinishedListener>();

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

  /** Told when a job ends ("sync finished"), with its profile and kind as data. */
  onFinished(listener: FinishedListener): () => void {
    this.#finishedListeners.add(listener);
    return () => this.#finishedListeners.delete(listener);
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

  /** Tells the "sync finished" listeners, in order; returns the seconds they took. */
  #finished(finished: SyncFinished): number {
    const started = performance.now();
    for (const listener of this.#finishedListeners) {
      try {
        listener({ ...finished });
      } catch {
        // A listener's failure must not fail the sync that finished.
      }
    }
    return (performance.now() - started) / 1000;
  }

  /** The driver: runs the request's recipe as one job. */
  async #run(request: SyncRequest, running: RunningJob): Promise<SyncOutcome> {
    const recipe = recipeOf(request);
    const { key } = recipe.identify(request);
    const { progress, controller } = running;
    const checkpoints = this.#cache.checkpoints;
    const started = performance.now();
    let begun: { checkpoint: Checkpoint; resumed: boolean } | null = null;
    let removed = 0;
    /** This run's progress: what the steps before the one under way fetched, and the step's own. */
    const counts = { fetchedBefore: 0, pagesBefore: 0, fetched: 0, pages: 0 };
    let step: WalkProgress | null = null;
    const report = (): void => {
      const elapsed = (performance.now() - started) / 1000;
      const fetchedThisRun = counts.fetchedBefore + counts.fetched;
      progress.ratePerSecond = elapsed > 0 ? Math.round(fetchedThisRun / elapsed) : 0;
      if (progress.state === 'running' && step?.windows != null) {
        progress.etaSeconds = etaFromShare(step.windows.share, step.windows.shareAtStart, elapsed);
        progress.share = step.windows.share;
      } else if (progress.state === 'running' && step !== null) {
        const today = this.#stamp().slice(0, 10);
        progress.etaSeconds = etaFromDates(recipe.dateRange(request), step.oldestDate, elapsed, today);
        progress.share = shareOfDates(recipe.dateRange(request), step.oldestDate, today);
      }
      this.#emit(progress);
    };
    const finish = (state: Exclude<SyncState, 'running'>, failure?: unknown): SyncOutcome => {
      progress.state = state;
      if (state === 'done') {
        progress.etaSeconds = 0;
        progress.share = 1;
      }
      if (failure !== undefined) progress.error = describeFailure(failure);
      const followUpSeconds = this.#finished({
        jobId: running.jobId,
        kind: request.kind,
        profileId: request.profileId,
        key,
        state,
        written: progress.written,
        removed,
      });
      report();
      return {
        jobId: running.jobId,
        kind: request.kind,
        key,
        state,
        fetched: progress.fetched,
        written: progress.written,
        removed,
        resumed: begun?.resumed ?? false,
        followUpSeconds,
        ...(failure === undefined ? {} : { error: describeFailure(failure), failure }),
      };
    };
    try {
      begun = checkpoints.begin(request.profileId, request.kind, key, running.scope, this.#stamp());
    } catch (error) {
      // Not even the checkpoint could be written (a full disk): report it like any failure.
      return finish('failed', error);
    }
    const { checkpoint, resumed } = begun;
    progress.fetched = checkpoint.fetched;
    progress.written = checkpoint.written;
    this.#emit(progress);
    try {
      const context: SyncContext = {
        request,
        cache: this.#cache,
        client: await this.#clientFor(request.profileId),
        key,
        checkpoint,
        resumed,
        // Walks completed since the job was last complete belong to this unfinished run.
        lastComplete: checkpoint.lastSuccessAt ?? '',
        parallelism: this.#parallelism,
        pageSize: this.#pageSize,
        signal: controller.signal,
        now: () => this.#stamp(),
        resumable: (pagesAfter, after) => this.#resumable(pagesAfter, after),
        onProgress: (walk) => {
          step = walk;
          counts.fetched = walk.fetched;
          counts.pages = walk.pages;
          progress.fetched = checkpoint.fetched + counts.fetchedBefore + walk.fetched;
          progress.pages = counts.pagesBefore + walk.pages;
          progress.windowsDone = walk.windows?.windowsDone ?? 0;
          progress.windowsTotal = walk.windows?.windowsTotal ?? 0;
          progress.parallelism = walk.windows?.parallelism ?? 1;
          report();
        },
        onWritten: (added, sweptNow) => {
          if (sweptNow !== null) removed = sweptNow;
          progress.written += added;
          report();
        },
      };
      const complete = await this.#steps(recipe, context, () => {
        counts.fetchedBefore += counts.fetched;
        counts.pagesBefore += counts.pages;
        counts.fetched = 0;
        counts.pages = 0;
      });
      if (complete && checkpoints.get(request.profileId, request.kind, key)?.state !== 'done') {
        // A job of several walks (or of a record and its applicants) completes after its last step.
        await this.#cache.writer.run([checkpoints.doneBatch(request.profileId, request.kind, key, this.#stamp())]);
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
   * The recipe's steps in order: its record, its lists, then what follows. Returns whether all
   * of them completed (false: cancelled). `nextStep` is called between two steps.
   */
  async #steps(recipe: SyncRecipe<SyncRequest>, context: SyncContext, nextStep: () => void): Promise<boolean> {
    const { cache, request, signal } = context;
    await recipe.prepare?.(context);
    if (recipe.record !== undefined) {
      const written = await recipe.record(context);
      context.onProgress({ fetched: 1, pages: 1, oldestDate: null, windows: null });
      context.onWritten(written, null);
      nextStep();
    }
    for (const list of recipe.lists) {
      if (signal.aborted) return false;
      // A walk of its own (the book's): its checkpoint, unless it completed during this run.
      let checkpoint = context.checkpoint;
      let resumed = context.resumed;
      let key = context.key;
      if (list.name !== undefined) {
        key = `${context.key}|${list.name}`;
        const previous = cache.checkpoints.get(request.profileId, request.kind, key);
        if (
          previous?.state === 'done' &&
          previous.lastSuccessAt !== null &&
          previous.lastSuccessAt > context.lastComplete
        ) {
          continue;
        }
        const scope = JSON.stringify(list.scope?.(request) ?? {});
        ({ checkpoint, resumed } = cache.checkpoints.begin(request.profileId, request.kind, key, scope, context.now()));
      }
      const source = list.source(context, checkpoint);
      const before = list.before?.(context) ?? [];
      if (before.length > 0) await cache.writer.run(before);
      const walkStart = {
        checkpoint,
        resumed,
        windowsLeft: cache.windowCheckpoints.of(request.profileId, request.kind, key).length > 0,
        cachedRecords: () => source.cachedDays().reduce((sum, day) => sum + day.count, 0),
      };
      const complete = await walkList(
        {
          cache,
          profileId: request.profileId,
          kind: request.kind,
          key,
          checkpoint,
          resumed,
          windowed: list.windowed(context, walkStart),
          incremental: list.incremental?.(context) ?? false,
          parallelism: context.parallelism,
          pageSize: context.pageSize,
          signal,
          now: context.now,
          resumable: context.resumable,
          onFetched: context.onProgress,
          onWritten: context.onWritten,
        },
        source,
      );
      nextStep();
      if (!complete) return false;
    }
    if (recipe.then !== undefined) {
      if (signal.aborted) return false;
      await recipe.then(context);
      nextStep();
    }
    return !signal.aborted;
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
