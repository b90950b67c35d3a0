/**
 * Hydration: fetch the object a notification names and keep that snapshot beside it. The
 * notification says only that something changed; fetching by id gives the latest data
 * (spec §6.8). Only verified notifications are hydrated (a forged one must not make the app
 * call the bank), only addresses under the bank's base, through a bounded queue in which
 * requests waiting for the same object share one fetch.
 */
import { isUnderBase, type BankPort } from './bankPort.ts';
import type { RequestLog } from './requestLog.ts';

export interface Hydration {
  requestId: number;
  objectUrl: string;
  ok: boolean;
  error: string | null;
}

/** A snapshot larger than this is not kept (notifications name single objects, which are small). */
const MAX_SNAPSHOT_BYTES = 256 * 1024;

export class Hydrator {
  readonly #log: RequestLog;
  readonly #bank: () => BankPort | null;
  readonly #hydrated: (hydration: Hydration) => void;
  readonly #failed: (error: unknown) => void;
  readonly #concurrency: number;
  readonly #maxQueued: number;
  /** Object address -> requests waiting for it, in queue order (Map keeps insertion order). */
  readonly #waiting = new Map<string, number[]>();
  #queuedRequests = 0;
  #inFlight = 0;
  readonly #idle: (() => void)[] = [];

  constructor(parts: {
    log: RequestLog;
    bank: () => BankPort | null;
    hydrated: (hydration: Hydration) => void;
    failed: (error: unknown) => void;
    concurrency?: number;
    maxQueued?: number;
  }) {
    this.#log = parts.log;
    this.#bank = parts.bank;
    this.#hydrated = parts.hydrated;
    this.#failed = parts.failed;
    this.#concurrency = parts.concurrency ?? 2;
    this.#maxQueued = parts.maxQueued ?? 1000;
  }

  get queued(): number {
    return this.#queuedRequests;
  }

  enqueue(requestId: number, objectUrl: string): void {
    const bank = this.#bank();
    if (bank === null) return;
    if (!isUnderBase(bank.baseUrl, objectUrl)) {
      this.#record(
        [requestId],
        objectUrl,
        null,
        `not fetched: ${objectUrl} is not under the bank's address ${bank.baseUrl}`,
      );
      return;
    }
    if (this.#queuedRequests >= this.#maxQueued) {
      this.#record([requestId], objectUrl, null, `not fetched: ${this.#queuedRequests} snapshots already waiting`);
      return;
    }
    const waiting = this.#waiting.get(objectUrl);
    if (waiting === undefined) this.#waiting.set(objectUrl, [requestId]);
    else waiting.push(requestId);
    this.#queuedRequests += 1;
    this.#pump();
  }

  idle(): Promise<void> {
    if (this.#waiting.size === 0 && this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #pump(): void {
    while (this.#inFlight < this.#concurrency && this.#waiting.size > 0) {
      const [objectUrl, requestIds] = this.#waiting.entries().next().value as [string, number[]];
      this.#waiting.delete(objectUrl);
      this.#queuedRequests -= requestIds.length;
      this.#inFlight += 1;
      void this.#fetch(objectUrl, requestIds)
        .catch(this.#failed)
        .finally(() => {
          this.#inFlight -= 1;
          this.#pump();
          if (this.#waiting.size === 0 && this.#inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
        });
    }
  }

  async #fetch(objectUrl: string, requestIds: number[]): Promise<void> {
    const bank = this.#bank();
    if (bank === null) return;
    let snapshot: string | null = null;
    let error: string | null = null;
    try {
      snapshot = JSON.stringify(await bank.getObject(objectUrl));
      if (snapshot.length > MAX_SNAPSHOT_BYTES) {
        error = `not kept: the object is ${snapshot.length} bytes, over ${MAX_SNAPSHOT_BYTES}`;
        snapshot = null;
      }
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    this.#record(requestIds, objectUrl, snapshot, error);
  }

  #record(requestIds: number[], objectUrl: string, snapshot: string | null, error: string | null): void {
    const fetchedAt = Date.now();
    for (const requestId of requestIds) {
      this.#log.recordSnapshot(requestId, fetchedAt, snapshot, error);
      this.#hydrated({ requestId, objectUrl, ok: error === null, error });
    }
  }
}
