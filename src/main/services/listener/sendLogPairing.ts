/**
 * Telling a retry from a new event with the bank's word for it: each verified arrival is
 * paired with the bank's record of that attempt in its send log (`GET /webhook_send`, by
 * webhook and object), whose `attempt_number` says which attempt it was (0: the first, so a
 * new event). The bank records an attempt once it has the answer, so the record is looked for
 * after the listener answered, a few times with growing pauses (bounded), and each record is
 * paired once. Only verified arrivals are paired: a forged post makes no call to the bank.
 *
 * Pairing runs one arrival at a time, in arrival order, so the i-th arrival for a webhook and
 * object takes the oldest record not yet taken (preferring one whose status matches the
 * answer given: `sent` for 2xx, `error` otherwise).
 */
import type { WebhookSendResponse } from '../../../shared/bank/index.ts';
import type { BankPort } from './bankPort.ts';
import type { ReceivedRequestSummary } from './receivedRequest.ts';
import type { ArrivalLabel } from './retryLabels.ts';

export interface PairingOptions {
  /** The webhook that posts `event` here, when known (the listener registered it); else any webhook. */
  webhookFor?: (event: string) => string | null;
  /** Looks at the send log this many times at most before giving up. */
  lookups?: number;
  /** The first pause between looks; each next one is twice as long. */
  firstPauseMs?: number;
  /** Arrivals waiting to be paired beyond this are not paired (said so): a flood does not grow memory. */
  maxWaiting?: number;
}

export type PairingResult = { paired: true; label: ArrivalLabel; sendId: string } | { paired: false; reason: string };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sortKey(send: WebhookSendResponse): string {
  return `${send.created_at ?? ''}\n${String(send.attempt_number ?? 0).padStart(4, '0')}\n${send.id}`;
}

export class SendLogPairing {
  readonly #bank: BankPort;
  readonly #options: Required<Omit<PairingOptions, 'webhookFor'>> & Pick<PairingOptions, 'webhookFor'>;
  readonly #taken = new Set<string>();
  #chain: Promise<unknown> = Promise.resolve();
  #waiting = 0;

  constructor(bank: BankPort, options: PairingOptions = {}) {
    this.#bank = bank;
    this.#options = { lookups: 6, firstPauseMs: 50, maxWaiting: 200, ...options };
  }

  /** Null for what is not to be paired (not verified, not a notification). */
  pair(request: ReceivedRequestSummary): Promise<PairingResult> | null {
    if (request.verdict !== 'ok' || request.event === null || request.objectId === null) return null;
    // A replay is the listener's own sending, never one of the bank's attempts.
    if (request.label?.kind === 'replay' || request.label?.kind === 'edited_replay') return null;
    if (this.#waiting >= this.#options.maxWaiting) {
      return Promise.resolve({ paired: false, reason: `${String(this.#waiting)} arrivals already wait to be paired` });
    }
    this.#waiting += 1;
    const next = this.#chain.then(() => this.#pairOne(request));
    this.#chain = next.catch(() => undefined);
    return next.finally(() => {
      this.#waiting -= 1;
    });
  }

  async #pairOne(request: ReceivedRequestSummary): Promise<PairingResult> {
    const event = request.event ?? '';
    const objectId = request.objectId ?? '';
    let webhookId: string | null;
    try {
      webhookId = this.#options.webhookFor?.(event) ?? null;
    } catch (error) {
      // The listener closed (its database with it) while this arrival waited its turn.
      return { paired: false, reason: `its webhook could not be looked up: ${messageOf(error)}` };
    }
    const wanted = request.status !== null && request.status >= 200 && request.status < 300 ? 'sent' : 'error';
    let pause = this.#options.firstPauseMs;
    for (let look = 0; look < this.#options.lookups; look += 1) {
      const sends: WebhookSendResponse[] = [];
      try {
        for await (const send of this.#bank.listWebhookSends({
          object_id: objectId,
          ...(webhookId === null ? {} : { webhook_id: webhookId }),
        })) {
          if (!this.#taken.has(send.id) && (send.event === undefined || send.event === event)) sends.push(send);
        }
      } catch (error) {
        return {
          paired: false,
          reason: `the send log could not be read: ${messageOf(error)}`,
        };
      }
      sends.sort((left, right) => sortKey(left).localeCompare(sortKey(right)));
      const send = sends.find((candidate) => candidate.status === wanted) ?? sends[0];
      if (send !== undefined) {
        this.#taken.add(send.id);
        const prior = send.attempt_number ?? 0;
        const label: ArrivalLabel =
          prior === 0
            ? { kind: 'new_event', attempt: 1, basis: `send ${send.id} is its first attempt`, source: 'bank' }
            : {
                kind: 'retry',
                attempt: prior + 1,
                basis: `send ${send.id} follows ${String(prior)} earlier attempt${prior === 1 ? '' : 's'}`,
                source: 'bank',
              };
        return { paired: true, label, sendId: send.id };
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause *= 2;
    }
    return { paired: false, reason: "the bank's send log has no record of it" };
  }
}
