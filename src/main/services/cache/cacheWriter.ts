/**
 * Where the cache's bulk writes run. WorkerCacheWriter: a worker thread with its own
 * connection, so a sync's sealing, inserts, index updates and commits happen beside the main
 * thread instead of on it (the main thread keeps fetching and planning the next page meanwhile).
 * InlineCacheWriter: the same plans on the main connection, where no worker file is
 * available (a bundle that has not emitted it).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { translateWriteError } from './cacheError.ts';
import { builtWorkerDigests, WorkerRefused, workerStartUrl, type WorkerDigests } from './workerIntegrity.ts';
import { Statements } from './statements.ts';
import { executeGroup, type GroupOutcome, type WriteBatch } from './writeBatch.ts';
import { WriterQueue, type WriterReply } from './writerQueue.ts';
import type { AttachedRecord } from '../record/recordAttach.ts';

export interface CacheWriter {
  /** Runs the plan in one transaction; resolves with the rows each batch changed. */
  run(batches: WriteBatch[]): Promise<number[]>;
  /**
   * Runs pages of plans in one transaction, or if that fails one transaction a page up to the
   * first that cannot be written (writeBatch.ts, executeGroup). Resolves with what was kept
   * and, when not everything was, the error (already translated, e.g. a full disk).
   * With a `stream` (a sync), the writer may join these pages to the stream's pages queued
   * before or after them, and refuses every page of the stream after one that failed
   * (writerQueue.ts). The pages are copied at once: the caller may let go of them.
   */
  runGroup(pages: WriteBatch[][], stream?: number): Promise<GroupOutcome>;
  close(): Promise<void>;
}

/** run() on top of runGroup(): a plan is a group of one page. */
async function runOne(writer: CacheWriter, batches: WriteBatch[]): Promise<number[]> {
  const outcome = await writer.runGroup([batches]);
  const [changes] = outcome.kept;
  if (changes === undefined) throw outcome.error ?? new Error('The cache writer kept nothing and said nothing.');
  return changes;
}

function translated(error: unknown, file: string): Error {
  try {
    translateWriteError(error, file);
  } catch (thrown) {
    return thrown instanceof Error ? thrown : new Error(String(thrown));
  }
}

export class InlineCacheWriter implements CacheWriter {
  readonly #database: DatabaseSync;
  readonly #statements: Statements;
  readonly #file: string;
  readonly #queue: WriterQueue;
  #next = 0;

  constructor(database: DatabaseSync, file: string) {
    this.#database = database;
    this.#statements = new Statements(database);
    this.#file = file;
    this.#queue = new WriterQueue((pages) => executeGroup(this.#database, this.#statements, pages));
  }

  run(batches: WriteBatch[]): Promise<number[]> {
    return runOne(this, batches);
  }

  runGroup(pages: WriteBatch[][], stream?: number): Promise<GroupOutcome> {
    // Written now, one call a transaction; the queue still refuses a failed stream's later pages.
    const id = (this.#next += 1);
    const [answer] = this.#queue.run([{ id, pages, ...(stream === undefined ? {} : { stream }) }]);
    return Promise.resolve(outcomeOf(answer ?? { id, kept: [] }, this.#file));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A reply of the writer as the caller sees it: the error rebuilt and translated. */
function outcomeOf(reply: WriterReply, file: string): GroupOutcome {
  if (reply.error === undefined) return { kept: reply.kept };
  const error = Object.assign(new Error(reply.error.message), { errcode: reply.error.errcode ?? undefined });
  return { kept: reply.kept, error: translated(error, file) };
}

export class WorkerCacheWriter implements CacheWriter {
  readonly #workerFile: URL;
  readonly #file: string;
  readonly #sizeLimitBytes: number | undefined;
  readonly #waiting = new Map<number, { resolve: (outcome: GroupOutcome) => void; reject: (error: Error) => void }>();
  /** Started on the first write: reads-only uses (most commands) never start a thread. */
  #worker: Worker | null = null;
  #next = 0;
  #failure: Error | null = null;
  readonly #record: AttachedRecord | null;

  constructor(workerFile: URL, file: string, sizeLimitBytes?: number, record: AttachedRecord | null = null) {
    this.#workerFile = workerFile;
    this.#file = file;
    this.#sizeLimitBytes = sizeLimitBytes;
    this.#record = record;
  }

  run(batches: WriteBatch[]): Promise<number[]> {
    return runOne(this, batches);
  }

  runGroup(pages: WriteBatch[][], stream?: number): Promise<GroupOutcome> {
    if (this.#failure !== null) return Promise.reject(this.#failure);
    const worker = this.#started();
    const id = (this.#next += 1);
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.ref();
      // Serialized here: the caller may drop its plans as soon as this returns.
      worker.postMessage({ id, pages, ...(stream === undefined ? {} : { stream }) });
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    if (worker === null) return;
    this.#worker = null;
    if (this.#failure === null) {
      // Queued after any write in flight: the thread finishes it, then closes its connection.
      await new Promise<void>((resolve) => {
        const id = (this.#next += 1);
        this.#waiting.set(id, {
          resolve: () => {
            resolve();
          },
          reject: () => {
            resolve();
          },
        });
        worker.ref();
        worker.postMessage({ id, close: true });
      });
    }
    await worker.terminate();
  }

  #started(): Worker {
    if (this.#worker !== null) return this.#worker;
    const worker = new Worker(this.#workerFile, {
      workerData: { file: this.#file, sizeLimitBytes: this.#sizeLimitBytes, record: this.#record },
    });
    // Idle, the thread must not keep a command-line process alive.
    worker.unref();
    worker.on('message', (reply: WriterReply) => {
      const waiting = this.#waiting.get(reply.id);
      if (waiting === undefined) return;
      this.#waiting.delete(reply.id);
      if (this.#waiting.size === 0) worker.unref();
      waiting.resolve(outcomeOf(reply, this.#file));
    });
    worker.on('error', (error: Error) => {
      this.#failure = error;
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    });
    this.#worker = worker;
    return worker;
  }
}

/**
 * The worker's file beside this one: `.ts` when run from source, `.js` when built. In the
 * packaged app the code runs from app.asar, but a worker thread's entry cannot be loaded from
 * the archive, so electron-builder unpacks it (with the chunk it imports, which needs only
 * Node's builtins) to app.asar.unpacked, and the worker starts from there.
 */
export function workerFile(): URL | null {
  for (const name of ['./cacheWriterWorker.ts', './cacheWriterWorker.js']) {
    const url = new URL(name, import.meta.url);
    if (url.protocol !== 'file:') continue;
    const unpacked = unpackedPathOf(fileURLToPath(url));
    if (unpacked !== null && existsSync(unpacked)) return pathToFileURL(unpacked);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

/** `…/resources/app.asar/out/main/x.js` → `…/resources/app.asar.unpacked/out/main/x.js`; null outside an archive. */
export function unpackedPathOf(path: string): string | null {
  const match = /([\\/][^\\/]+\.asar)([\\/])/.exec(path);
  if (match?.index === undefined || match[1] === undefined) return null;
  const end = match.index + match[1].length;
  return `${path.slice(0, end)}.unpacked${path.slice(end)}`;
}

export function createCacheWriter(
  database: DatabaseSync,
  file: string,
  mode: 'worker' | 'inline',
  sizeLimitBytes?: number,
  /** Told when the worker's files are not the ones built (N12): the writes stay on the main thread. */
  onRefused: (problem: WorkerRefused) => void = (problem) => {
    process.emitWarning(problem.message, 'LedgerdeskWorkerRefused');
  },
  digests: WorkerDigests | null = builtWorkerDigests(),
  /** The record the worker's connection attaches, as the main one does (after the cut-over). */
  record: AttachedRecord | null = null,
): CacheWriter {
  const worker = mode === 'worker' ? workerFile() : null;
  if (worker === null) return new InlineCacheWriter(database, file);
  let start: URL;
  try {
    // Checked here, before the thread exists: a changed file never runs and never gets a key.
    start = workerStartUrl(worker, digests);
  } catch (error) {
    if (!(error instanceof WorkerRefused)) throw error;
    onRefused(error);
    return new InlineCacheWriter(database, file);
  }
  return new WorkerCacheWriter(start, file, sizeLimitBytes, record);
}
