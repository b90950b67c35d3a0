/**
 * Forwarding each received request to a local handler, like `stripe listen --forward-to`:
 * after it has been answered (the bank never waits on the handler), through a bounded queue
 * with a few requests in flight, each result (status, latency, excerpt) kept beside the
 * request. When the handler falls far behind, new requests are not queued but recorded as
 * skipped, so a flood cannot grow memory.
 */
import type { SettledRequest } from './intake.ts';
import { forwardRequest, headerPairs } from './forwardRequest.ts';
import { DIRECT_OUTBOUND, sendOutbound, type OutboundRequest, type OutboundRoute } from './outbound.ts';
import type { Delivery } from './receivedRequest.ts';
import type { RequestLog } from './requestLog.ts';

export interface ForwardingOptions {
  concurrency: number;
  maxQueued: number;
}

interface Job {
  requestId: number;
  request: OutboundRequest;
}

export class Forwarder {
  readonly #log: RequestLog;
  readonly #delivered: (delivery: Delivery) => void;
  readonly #failed: (error: unknown) => void;
  readonly #options: ForwardingOptions;
  readonly #queue: Job[] = [];
  #inFlight = 0;
  readonly #idle: (() => void)[] = [];
  readonly #route: () => OutboundRoute;

  constructor(
    log: RequestLog,
    delivered: (delivery: Delivery) => void,
    failed: (error: unknown) => void,
    options: Partial<ForwardingOptions> = {},
    /** How forwards travel (outbound.ts): asked per forward, so a new bank profile's proxy applies at once. */
    route?: () => OutboundRoute,
  ) {
    this.#route = route ?? (() => DIRECT_OUTBOUND);
    this.#log = log;
    this.#delivered = delivered;
    this.#failed = failed;
    this.#options = { concurrency: 4, maxQueued: 1000, ...options };
  }

  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Forward a request that just settled, as it was received (forwardRequest.ts): its
   * headers, the bank's Authorization included, plus the verdict and the request's id.
   */
  enqueue(settled: SettledRequest, url: string, timeoutMs: number, appendPath = false): void {
    const content = settled.content;
    if (content === null) return;
    const request = forwardRequest(
      { ...content, headers: headerPairs(content.rawHeaders) },
      settled.summary.verdict,
      settled.summary.id,
      url,
      timeoutMs,
      appendPath,
    );
    if (this.#queue.length >= this.#options.maxQueued) {
      this.#delivered(
        this.skip(settled.summary.id, url, `${this.#queue.length} forwards already waiting for the handler`),
      );
      return;
    }
    this.#queue.push({ requestId: settled.summary.id, request });
    this.#pump();
  }

  /** Record a forward that was not sent, and why. */
  skip(requestId: number, url: string, reason: string | null): Delivery {
    return this.#log.recordDelivery({
      requestId,
      kind: 'forward',
      url,
      startedAt: Date.now(),
      status: null,
      durationMs: null,
      excerpt: null,
      error: `skipped: ${reason ?? 'not sent'}`,
    });
  }

  /** Forward one request now and wait for the result (no queue): used for a forward the user asks for. */
  async forwardNow(requestId: number, request: OutboundRequest): Promise<Delivery> {
    return this.#deliver({ requestId, request });
  }

  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void> {
    if (this.#queue.length === 0 && this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #pump(): void {
    while (this.#inFlight < this.#options.concurrency && this.#queue.length > 0) {
      const job = this.#queue.shift() as Job;
      this.#inFlight += 1;
      void this.#deliver(job)
        .catch(this.#failed)
        .finally(() => {
          this.#inFlight -= 1;
          this.#pump();
          if (this.#queue.length === 0 && this.#inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
        });
    }
  }

  async #deliver(job: Job): Promise<Delivery> {
    const startedAt = Date.now();
    const result = await sendOutbound(job.request, this.#route());
    const delivery = this.#log.recordDelivery({
      requestId: job.requestId,
      kind: 'forward',
      url: withoutQuery(job.request.url),
      startedAt,
      ...result,
    });
    this.#delivered(delivery);
    return delivery;
  }
}

/**
 * A forward's address as its delivery row keeps it (in clear, for the list): without the query,
 * which carries the received request's own query (sealed with the request) and may carry a token.
 */
function withoutQuery(url: string): string {
  const shown = new URL(url);
  shown.search = '';
  return shown.toString();
}
