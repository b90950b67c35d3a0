/**
 * Where the cache's bulk writes run. WorkerCacheWriter: a worker thread with its own
 * connection, so a sync's inserts, index updates and commits happen beside the main thread
 * instead of on it (the main thread keeps fetching and sealing the next page meanwhile).
 * InlineCacheWriter: the same plans on the main connection, where no worker file is
 * available (a bundle that has not emitted it).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { translateWriteError } from './cacheError.ts';
import { Statements } from './statements.ts';
import { executeBatches, type WriteBatch } from './writeBatch.ts';

export interface CacheWriter {
  /** Runs the plan in one transaction; resolves with the rows each batch changed. */
  run(batches: WriteBatch[]): Promise<number[]>;
  close(): Promise<void>;
}

export class InlineCacheWriter implements CacheWriter {
  readonly #database: DatabaseSync;
  readonly #statements: Statements;
  readonly #file: string;

  constructor(database: DatabaseSync, file: string) {
    this.#database = database;
    this.#statements = new Statements(database);
    this.#file = file;
  }

  run(batches: WriteBatch[]): Promise<number[]> {
    try {
      return Promise.resolve(executeBatches(this.#database, this.#statements, batches));
    } catch (error) {
      try {
        translateWriteError(error, this.#file);
      } catch (translated) {
        return Promise.reject(translated instanceof Error ? translated : new Error(String(translated)));
      }
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

type Reply = { id: number; changes: number[] } | { id: number; error: { message: string; errcode: number | null } };

export class WorkerCacheWriter implements CacheWriter {
  readonly #workerFile: URL;
  readonly #file: string;
  readonly #sizeLimitBytes: number | undefined;
  readonly #waiting = new Map<number, { resolve: (changes: number[]) => void; reject: (error: Error) => void }>();
  /** Started on the first write: reads-only uses (most commands) never start a thread. */
  #worker: Worker | null = null;
  #next = 0;
  #failure: Error | null = null;

  constructor(workerFile: URL, file: string, sizeLimitBytes?: number) {
    this.#workerFile = workerFile;
    this.#file = file;
    this.#sizeLimitBytes = sizeLimitBytes;
  }

  run(batches: WriteBatch[]): Promise<number[]> {
    if (this.#failure !== null) return Promise.reject(this.#failure);
    const worker = this.#started();
    const id = (this.#next += 1);
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, batches });
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
      workerData: { file: this.#file, sizeLimitBytes: this.#sizeLimitBytes },
    });
    // Idle, the thread must not keep a command-line process alive.
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.#waiting.get(reply.id);
      if (waiting === undefined) return;
      this.#waiting.delete(reply.id);
      if (this.#waiting.size === 0) worker.unref();
      if ('changes' in reply) {
        waiting.resolve(reply.changes);
        return;
      }
      const error = Object.assign(new Error(reply.error.message), { errcode: reply.error.errcode ?? undefined });
      try {
        translateWriteError(error, this.#file);
      } catch (translated) {
        waiting.reject(translated instanceof Error ? translated : new Error(String(translated)));
      }
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
 * packaged app it sits inside app.asar with the chunks it imports; Electron reads asar
 * archives in worker threads since 17.3 (electron/electron#33216), so it needs no asarUnpack.
 */
export function workerFile(): URL | null {
  for (const name of ['./cacheWriterWorker.ts', './cacheWriterWorker.js']) {
    const url = new URL(name, import.meta.url);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

export function createCacheWriter(
  database: DatabaseSync,
  file: string,
  mode: 'worker' | 'inline',
  sizeLimitBytes?: number,
): CacheWriter {
  const worker = mode === 'worker' ? workerFile() : null;
  return worker === null ? new InlineCacheWriter(database, file) : new WorkerCacheWriter(worker, file, sizeLimitBytes);
}
