/**
 * Screening off the main thread: a few screening threads (screeningWorker.ts), each holding
 * the list's screener, take batches of subjects in turn. `screen` resolves with every
 * subject's hits in the order given. Where the worker's file is not there (a bundle that does
 * not emit it), the same batches run inline, on the calling thread.
 *
 * The build does not emit the worker yet: screening runs from the app once the integration
 * (issue 40's second part, after issue 34) adds it to the main bundle's inputs, with its
 * digest checked like the cache writer's (cache/workerIntegrity.ts, N12).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ListEntry } from '../../../shared/screening/listEntry.ts';
import { DEFAULT_THRESHOLD, Screener } from '../../../shared/screening/screener.ts';
import type { ApplicantSubject } from './applicantSubjects.ts';
import { screenBatch, type ScreeningRequest, type ScreeningResult } from './screeningBatch.ts';

const BATCH = 2_000;

type Reply =
  | { id: number; type: 'ready' }
  | { id: number; type: 'results'; results: ScreeningResult[] }
  | { id: number; type: 'error'; message: string };

export interface ScreeningPoolOptions {
  threshold?: number;
  /** Threads; by default one per core but one (the main thread keeps a core), at least one. */
  threads?: number;
  /** 'inline' runs on the calling thread (tests of the scoring itself, a bundle without the worker). */
  mode?: 'worker' | 'inline';
}

function workerUrl(): URL | null {
  for (const name of ['./screeningWorker.ts', './screeningWorker.js']) {
    const url = new URL(name, import.meta.url);
    if (url.protocol === 'file:' && existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

class ScreeningThread {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  #next = 0;

  constructor(url: URL) {
    this.#worker = new Worker(url);
    this.#worker.on('message', (reply: Reply) => {
      const waiting = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if (reply.type === 'error') waiting?.reject(new Error(reply.message));
      else waiting?.resolve(reply);
    });
    this.#worker.on('error', (error: Error) => {
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    });
  }

  ask(
    request:
      | Omit<Extract<ScreeningRequest, { type: 'list' }>, 'id'>
      | Omit<Extract<ScreeningRequest, { type: 'subjects' }>, 'id'>,
  ): Promise<Reply> {
    const id = (this.#next += 1);
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }
}

export class ScreeningPool {
  readonly #threads: ScreeningThread[];
  readonly #inline: Screener | null;
  readonly #ready: Promise<unknown>;

  private constructor(entries: ListEntry[], options: ScreeningPoolOptions) {
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    const url = options.mode === 'inline' ? null : workerUrl();
    if (url === null) {
      this.#threads = [];
      this.#inline = new Screener(entries, { threshold });
      this.#ready = Promise.resolve();
      return;
    }
    const count = Math.max(1, options.threads ?? availableParallelism() - 1);
    this.#threads = Array.from({ length: count }, () => new ScreeningThread(url));
    this.#inline = null;
    this.#ready = Promise.all(this.#threads.map((thread) => thread.ask({ type: 'list', entries, threshold })));
  }

  /** A pool holding `entries`, each thread's index built before this resolves. */
  static async start(entries: ListEntry[], options: ScreeningPoolOptions = {}): Promise<ScreeningPool> {
    const pool = new ScreeningPool(entries, options);
    try {
      await pool.#ready;
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  get threads(): number {
    return this.#threads.length;
  }

  /** Every subject's hits, in the order given. */
  async screen(subjects: readonly ApplicantSubject[]): Promise<ScreeningResult[]> {
    if (this.#inline !== null) return screenBatch(this.#inline, subjects);
    const batches: ApplicantSubject[][] = [];
    for (let start = 0; start < subjects.length; start += BATCH) batches.push(subjects.slice(start, start + BATCH));
    const results: ScreeningResult[][] = new Array<ScreeningResult[]>(batches.length);
    let next = 0;
    await Promise.all(
      this.#threads.map(async (thread) => {
        while (next < batches.length) {
          const index = next;
          next += 1;
          const reply = await thread.ask({ type: 'subjects', subjects: batches[index] ?? [] });
          results[index] = reply.type === 'results' ? reply.results : [];
        }
      }),
    );
    return results.flat();
  }

  async close(): Promise<void> {
    await Promise.all(this.#threads.map((thread) => thread.terminate()));
  }
}
