/**
 * Events main pushes to the window (sync progress, listener requests, online status,
 * credential status): each payload is checked against the contract and scrubbed of secrets
 * before it is sent, like every reply. Listener requests are batched: however many arrive,
 * the window gets at most a few messages a second.
 */
import {
  EVENTS_BY_CHANNEL,
  eventChannel,
  type EventDomain,
  type EventOf,
  type EventPayloadOf,
} from '../../shared/ipc/contract.ts';
import { describeIssues } from '../../shared/bank/parse.ts';
import type { ListenerRequestSummary } from '../../shared/ipc/domains/listener.ts';
import { scrubSecrets } from './secretScrubber.ts';

export interface EventPublisherOptions {
  /** Sends to every trusted window (webContents.send at the edge). */
  send(channel: string, payload: unknown): void;
  knownSecrets?: () => Iterable<string>;
  log?: (message: string) => void;
}

export interface EventPublisher {
  /** True when sent; false when the payload did not match the contract (logged, not sent). */
  publish<D extends EventDomain, E extends EventOf<D>>(domain: D, event: E, payload: EventPayloadOf<D, E>): boolean;
}

export function createEventPublisher(options: EventPublisherOptions): EventPublisher {
  const log = options.log ?? (() => undefined);
  return {
    publish(domain, event, payload) {
      const channel = eventChannel(domain, event);
      const entry = EVENTS_BY_CHANNEL.get(channel);
      if (entry === undefined) {
        log(`no event ${channel} in the contract`);
        return false;
      }
      const checked = entry.payload.safeParse(payload);
      if (!checked.success) {
        log(
          `event ${channel} does not match the contract: ${describeIssues(checked.error.issues).slice(0, 5).join('; ')}`,
        );
        return false;
      }
      const scrubbed = scrubSecrets(checked.data, options.knownSecrets?.() ?? []);
      if (scrubbed.redactions > 0) log(`withheld ${scrubbed.redactions} secret(s) from event ${channel}`);
      options.send(channel, scrubbed.value);
      return true;
    },
  };
}

export interface RequestBatcherOptions {
  publisher: EventPublisher;
  /** How long requests gather before one push. */
  intervalMs?: number;
  /** The most requests in one push; the rest are counted as `omitted`. */
  maxBatch?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface RequestBatcher {
  add(request: ListenerRequestSummary): void;
  /** Pushes what is pending now (on quit). */
  flush(): void;
  close(): void;
}

export function createRequestBatcher(options: RequestBatcherOptions): RequestBatcher {
  const intervalMs = options.intervalMs ?? 250;
  const maxBatch = options.maxBatch ?? 200;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer =
    options.clearTimer ??
    ((timer) => {
      clearTimeout(timer as ReturnType<typeof setTimeout>);
    });
  let pending: ListenerRequestSummary[] = [];
  let omitted = 0;
  let timer: unknown = null;
  let closed = false;

  function flush(): void {
    if (timer !== null) clearTimer(timer);
    timer = null;
    if (pending.length === 0 && omitted === 0) return;
    const requests = pending;
    const left = omitted;
    pending = [];
    omitted = 0;
    options.publisher.publish('listener', 'requests', { requests, omitted: left });
  }

  return {
    add(request) {
      if (closed) return;
      if (pending.length < maxBatch) pending.push(request);
      else omitted += 1;
      timer ??= setTimer(flush, intervalMs);
    },
    flush,
    close() {
      flush();
      closed = true;
    },
  };
}
