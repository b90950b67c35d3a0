/**
 * Reconciliation: the bank's record of each delivery attempt (`GET /webhook_send`, spec
 * §2.7, §4.5) joined with what the listener received, so a developer sees at a glance what
 * got through, what never arrived, what arrived but the bank counts as failed, and what the
 * bank is still retrying.
 *
 * Joining. A send record names the object and the event but carries no id the listener can
 * see in the request, so attempts are paired per (object, event) in time order: first each
 * attempt the bank recorded as sent with a request the listener answered 200 or 202 (the only
 * answers that count as delivered), then each attempt recorded as an error with a request
 * the listener received but did not accept in time, then whatever is left of either side.
 *
 * Only requests whose Basic credentials verified (`ok`) count as received: a forged post (or
 * any post while no credentials are expected) could otherwise turn "sent, never received"
 * into "sent and received". The others are listed apart, with their verdict.
 */
import type { WebhookSendResponse } from '../../../shared/bank/index.ts';
import type { BankPort } from './bankPort.ts';
import type { ReceivedRequestSummary } from './receivedRequest.ts';
import type { RequestLog } from './requestLog.ts';

export interface ReconcileOptions {
  webhookId: string;
  /** The webhook's event: only requests carrying it are joined. */
  event?: string;
  /** Only requests received on this path (a registration's own path). */
  path?: string;
  /** Epoch milliseconds: sends and requests from then on. */
  since?: number;
  /** Epoch milliseconds, exclusive: sends and requests before then (sends by their day). */
  until?: number;
}

export interface ReconciledPair {
  send: WebhookSendResponse;
  request: ReceivedRequestSummary;
}

export interface Reconciliation {
  /** The webhook reconciled; null for a report of several (mergeReconciliations). */
  webhookId: string | null;
  counts: {
    sends: number;
    received: number;
    sentAndReceived: number;
    sentButNeverReceived: number;
    receivedButFailed: number;
    stillRetrying: number;
    receivedNotRecordedByBank: number;
    receivedUnverified: number;
    skipped: number;
  };
  /** The bank recorded the attempt as sent, and the listener has it. */
  sentAndReceived: ReconciledPair[];
  /** The bank made the attempt (sent or error), and the listener never saw it. */
  sentButNeverReceived: WebhookSendResponse[];
  /** The listener received it, and the bank recorded the attempt as failed (a refusal, or an answer too late). */
  receivedButFailed: ReconciledPair[];
  /** Notifications whose latest attempt says another retry is scheduled. */
  stillRetrying: WebhookSendResponse[];
  /** Requests the listener received that match no attempt of the bank (another sender, or records not listed yet). */
  receivedNotRecordedByBank: ReceivedRequestSummary[];
  /** Requests whose verdict is not `ok`: never joined with a send record, shown apart with their verdict. */
  receivedUnverified: ReceivedRequestSummary[];
  /** Attempts the bank skipped (for example while the webhook was not enabled). */
  skipped: WebhookSendResponse[];
}

function accepted(request: ReceivedRequestSummary): boolean {
  return request.outcome === 'answered' && (request.status === 200 || request.status === 202);
}

function keyOf(objectId: string | null, event: string | null | undefined): string {
  return `${objectId ?? ''}\u0000${event ?? ''}`;
}

function groupBy<Item>(items: Iterable<Item>, key: (item: Item) => string): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
}

/** Pair items of two time-ordered lists in order, removing the paired ones from both. */
function pairInOrder(
  sends: WebhookSendResponse[],
  requests: ReceivedRequestSummary[],
  sendFits: (send: WebhookSendResponse) => boolean,
  requestFits: (request: ReceivedRequestSummary) => boolean,
): ReconciledPair[] {
  const pairs: ReconciledPair[] = [];
  const freeRequests = requests.filter(requestFits);
  for (const send of sends.filter(sendFits)) {
    const request = freeRequests.shift();
    if (request === undefined) break;
    pairs.push({ send, request });
  }
  for (const pair of pairs) {
    sends.splice(sends.indexOf(pair.send), 1);
    requests.splice(requests.indexOf(pair.request), 1);
  }
  return pairs;
}

/** The latest attempt of each notification: attempt_number 0 starts a new notification. */
function latestAttempts(sends: WebhookSendResponse[]): WebhookSendResponse[] {
  const chainOf = new Map<string, number>();
  const latest = new Map<string, WebhookSendResponse>();
  for (const send of sends) {
    const key = keyOf(send.object_id ?? null, send.event ?? null);
    const known = chainOf.get(key);
    const chain = known === undefined ? 0 : send.attempt_number === 0 ? known + 1 : known;
    chainOf.set(key, chain);
    latest.set(`${key}\u0000${String(chain)}`, send);
  }
  return [...latest.values()];
}

function dateOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** Join already-fetched send records (newest first, as the bank lists them) with the log. */
export function reconcileRecords(
  newestFirst: WebhookSendResponse[],
  arrivals: ReceivedRequestSummary[],
  options: ReconcileOptions,
): Reconciliation {
  const received = arrivals.filter((request) => request.verdict === 'ok');
  const receivedUnverified = arrivals.filter((request) => request.verdict !== 'ok');
  const chronological = [...newestFirst].reverse();
  const skipped = chronological.filter((send) => send.status === 'skipped');
  const attempts = chronological.filter((send) => send.status !== 'skipped');
  const sendsByKey = groupBy(attempts, (send) => keyOf(send.object_id ?? null, send.event ?? options.event));
  const requestsByKey = groupBy(received, (request) => keyOf(request.objectId, request.event));

  const sentAndReceived: ReconciledPair[] = [];
  const receivedButFailed: ReconciledPair[] = [];
  const sentButNeverReceived: WebhookSendResponse[] = [];
  const receivedNotRecordedByBank: ReceivedRequestSummary[] = [];
  for (const [key, sends] of sendsByKey) {
    const requests = requestsByKey.get(key) ?? [];
    requestsByKey.delete(key);
    sentAndReceived.push(...pairInOrder(sends, requests, (send) => send.status === 'sent', accepted));
    receivedButFailed.push(
      ...pairInOrder(
        sends,
        requests,
        (send) => send.status === 'error',
        (request) => !accepted(request),
      ),
    );
    // What is left: the bank counted an accepted request as failed (answered too late), or the reverse.
    receivedButFailed.push(
      ...pairInOrder(
        sends,
        requests,
        (send) => send.status === 'error',
        () => true,
      ),
    );
    sentAndReceived.push(
      ...pairInOrder(
        sends,
        requests,
        (send) => send.status === 'sent',
        () => true,
      ),
    );
    sentButNeverReceived.push(...sends);
    receivedNotRecordedByBank.push(...requests);
  }
  for (const requests of requestsByKey.values()) receivedNotRecordedByBank.push(...requests);
  const stillRetrying = latestAttempts(attempts).filter((send) => send.will_retry);
  return {
    webhookId: options.webhookId,
    counts: {
      sends: attempts.length,
      received: received.length,
      sentAndReceived: sentAndReceived.length,
      sentButNeverReceived: sentButNeverReceived.length,
      receivedButFailed: receivedButFailed.length,
      stillRetrying: stillRetrying.length,
      receivedNotRecordedByBank: receivedNotRecordedByBank.length,
      receivedUnverified: receivedUnverified.length,
      skipped: skipped.length,
    },
    sentAndReceived,
    sentButNeverReceived,
    receivedButFailed,
    stillRetrying,
    receivedNotRecordedByBank,
    receivedUnverified,
    skipped,
  };
}

/**
 * Several webhooks' reconciliations as one (each joined on its own: a send record names its
 * webhook, and each registration has its own path). `webhookId` is null: many webhooks.
 */
export function mergeReconciliations(
  reports: readonly Reconciliation[],
): Reconciliation & { webhookId: string | null } {
  const merged: Reconciliation = {
    ...reconcileRecords([], [], { webhookId: '' }),
    webhookId: reports.length === 1 ? (reports[0]?.webhookId ?? null) : null,
  };
  for (const report of reports) {
    for (const key of Object.keys(merged.counts) as (keyof Reconciliation['counts'])[]) {
      merged.counts[key] += report.counts[key];
    }
    merged.sentAndReceived.push(...report.sentAndReceived);
    merged.sentButNeverReceived.push(...report.sentButNeverReceived);
    merged.receivedButFailed.push(...report.receivedButFailed);
    merged.stillRetrying.push(...report.stillRetrying);
    merged.receivedNotRecordedByBank.push(...report.receivedNotRecordedByBank);
    merged.receivedUnverified.push(...report.receivedUnverified);
    merged.skipped.push(...report.skipped);
  }
  return merged;
}

/** Fetch the webhook's send records from the bank and join them with the log. */
export async function reconcile(bank: BankPort, log: RequestLog, options: ReconcileOptions): Promise<Reconciliation> {
  const sends: WebhookSendResponse[] = [];
  const query = {
    webhook_id: options.webhookId,
    ...(options.since === undefined ? {} : { from_date: dateOf(options.since) }),
    ...(options.until === undefined ? {} : { to_date: dateOf(options.until) }),
  };
  for await (const send of bank.listWebhookSends(query)) {
    if (send.webhook_id === options.webhookId) sends.push(send);
  }
  const received = [
    ...log.iterateSummaries({
      ...(options.event === undefined ? {} : { event: options.event }),
      ...(options.path === undefined ? {} : { path: options.path }),
      ...(options.since === undefined ? {} : { since: options.since }),
      ...(options.until === undefined ? {} : { until: options.until }),
    }),
  ].filter((request) => request.objectId !== null);
  return reconcileRecords(sends, received, options);
}
