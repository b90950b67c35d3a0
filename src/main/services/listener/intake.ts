/**
 * What happens to one arrival between reading it and answering it: verify its Basic header,
 * read its body as a notification, place it among earlier arrivals for the same object,
 * let the response rules choose the answer, and write it all to the log. Then, once its
 * exchange is over, hand the finished request on (to subscribers, forwarding, hydration).
 *
 * Group commit: arrivals of the same turn of the event loop are written in one transaction
 * (one WAL append instead of one per request), and each is answered only once that
 * transaction is committed. Under load this is what keeps persistence cheap; a lone request
 * waits for nothing but its own write.
 */
import { redactAuthorization, verifyBasic } from './basicAuth.ts';
import type { ArrivalOrder } from './arrivalOrder.ts';
import type { ExpectedCredentials } from './expectedCredentials.ts';
import type { ListenerSettings } from './listenerSettings.ts';
import { readNotification, type NotificationReading } from './notificationBody.ts';
import type { Answer, Arrival } from './receiver.ts';
import type { ReceivedRequestSummary, RequestOutcome } from './receivedRequest.ts';
import type { ArrivalRecord, FinishedRequest, RequestLog } from './requestLog.ts';
import type { ResponseRules } from './responseRules.ts';
import { replayLabelOf, RetryLabels } from './retryLabels.ts';

/** A request whose exchange is over, with what forwarding and hydration need (held in memory only). */
export interface SettledRequest {
  summary: ReceivedRequestSummary;
  /** Present when the body was read in full: what a forward re-sends, Authorization included. */
  content: {
    method: string;
    path: string;
    query: string | null;
    contentType: string | undefined;
    authorization: string | undefined;
    /** Node's rawHeaders as received (Authorization in clear): what a forward re-sends, never kept. */
    rawHeaders: string[];
    body: Buffer;
  } | null;
  /** The notification's object address, when it is a notification whose sender verified (`ok`). */
  objectUrl: string | null;
}

interface Pending {
  summary: ReceivedRequestSummary;
  content: SettledRequest['content'];
  objectUrl: string | null;
}

/** Called once the arrival is written (with its answer), or could not be (with the error). */
export type Reply = (written: { answer: Answer } | { error: unknown }) => void;

interface Queued {
  record: ArrivalRecord;
  answer: Omit<Answer, 'requestId'>;
  pending: Omit<Pending, 'summary'> & { summary: Omit<ReceivedRequestSummary, 'id'> };
  reply: Reply;
}

/** Arrivals written in one transaction at most; a full group is written at once. */
const MAX_GROUP = 256;

const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization']);

function redactedHeaders(rawHeaders: string[]): [string, string][] {
  const headers: [string, string][] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string;
    const value = rawHeaders[index + 1] as string;
    headers.push([name, REDACTED_HEADERS.has(name.toLowerCase()) ? redactAuthorization(value) : value]);
  }
  return headers;
}

const FAILURE_PROBLEMS: Record<string, (settings: ListenerSettings, arrival: Arrival) => string> = {
  too_large: (settings) => `body larger than the ${settings.maxBodyBytes}-byte cap: refused with 413`,
  timeout: (settings) => `body did not arrive within ${settings.bodyTimeoutMs} ms: refused with 408`,
  client_aborted: () => 'the sender closed the connection before the body was complete',
  bad_request: (_settings, arrival) => `not valid HTTP (${arrival.failureDetail ?? 'unknown'})`,
};

const NO_READING: NotificationReading = { notification: null, problem: null, event: null, objectId: null, op: null };

export class Intake {
  readonly #log: RequestLog;
  readonly #arrivals: ArrivalOrder;
  readonly #rules: ResponseRules;
  readonly #credentials: ExpectedCredentials;
  readonly #settings: () => ListenerSettings;
  readonly #settled: (request: SettledRequest) => void;
  readonly #pending = new Map<number, Pending>();
  /** Retry or new event, by what this run has seen (never from the kept log). */
  readonly #labels = new RetryLabels();
  #queue: Queued[] = [];
  /** Settled exchanges whose outcome, status and duration are still to be written. */
  #finished: FinishedRequest[] = [];
  #flushScheduled = false;

  constructor(parts: {
    log: RequestLog;
    arrivals: ArrivalOrder;
    rules: ResponseRules;
    credentials: ExpectedCredentials;
    settings: () => ListenerSettings;
    settled: (request: SettledRequest) => void;
  }) {
    this.#log = parts.log;
    this.#arrivals = parts.arrivals;
    this.#rules = parts.rules;
    this.#credentials = parts.credentials;
    this.#settings = parts.settings;
    this.#settled = parts.settled;
  }

  /** Requests written but not yet settled (answers still delayed). */
  get unsettled(): number {
    return this.#pending.size;
  }

  /** Decide now; write with the other arrivals of this turn; then reply. */
  accept(arrival: Arrival, reply: Reply): void {
    const settings = this.#settings();
    const { verdict, presentedUser } = verifyBasic(arrival.authorization, this.#credentials.for(arrival.path));
    const failed = arrival.failure !== null;
    const reading = failed ? NO_READING : readNotification(arrival.body, arrival.contentType);
    const failure = arrival.failure;
    const bodyProblem =
      failure !== null ? (FAILURE_PROBLEMS[failure]?.(settings, arrival) ?? failure) : reading.problem;
    const { occurrence, outOfOrder } = this.#arrivals.observe(reading.objectId, reading.event, reading.op);

    let behaviour: Answer['behaviour'] = 'answer';
    let status: number;
    let delayMs = 0;
    let ruleId: string | null = null;
    let reason: string | null = null;
    if (failure === 'too_large') {
      status = 413;
      reason = `The body is larger than ${settings.maxBodyBytes} bytes.`;
    } else if (failure === 'timeout') {
      status = 408;
      reason = `The body did not arrive within ${settings.bodyTimeoutMs} ms.`;
    } else if (failure === 'bad_request') {
      status = 400;
    } else {
      const decision = this.#rules.decide(arrival.path, reading.event, reading.objectId);
      ruleId = decision.ruleId;
      behaviour = decision.behaviour;
      delayMs = decision.delayMs;
      if (decision.status !== null) {
        status = decision.status;
        reason = `Answered ${status} by the listener's response rule ${decision.ruleId ?? ''}.`;
      } else if (settings.rejectUnverified && verdict !== 'ok') {
        status = 401;
        // The sender is not told which part was wrong (a guesser would learn the user first);
        // the verdict is kept with the request for the developer to see.
        reason = 'Not verified: the Basic credentials are missing or do not match.';
      } else if (settings.rejectInvalidBody && reading.problem !== null) {
        status = 400;
        reason = `Not a notification: ${reading.problem}`;
      } else {
        status = 200;
      }
    }
    const outcome: RequestOutcome =
      failure !== null
        ? failure
        : behaviour === 'drop'
          ? 'dropped'
          : behaviour === 'no_answer'
            ? 'no_answer'
            : 'answered';
    const answersNow = behaviour === 'answer' && failure !== 'client_aborted';
    // The listener's own replay says so in its headers: labelled a replay, and never taken for
    // the bank's attempt (the bank's next one is labelled against the bank's previous one).
    const replay = failed ? null : replayLabelOf(arrival.rawHeaders);
    const label = failed
      ? null
      : (replay ??
        this.#labels.observe(arrival.path, reading.event, reading.objectId, arrival.body, answersNow ? status : null));
    const record: ArrivalRecord = {
      receivedAt: arrival.receivedAt,
      method: arrival.method,
      path: arrival.path,
      query: arrival.query,
      remoteAddress: arrival.remoteAddress,
      headers: redactedHeaders(arrival.rawHeaders),
      body: settings.keepBodyBytes === 0 ? null : arrival.body.subarray(0, settings.keepBodyBytes),
      bodyBytes: arrival.bodyBytes,
      declaredBytes: arrival.declaredBytes,
      bodyTruncated: arrival.bodyTruncated || arrival.body.length > settings.keepBodyBytes,
      bodyProblem,
      notification: reading.notification === null ? null : JSON.stringify(reading.notification),
      event: reading.event,
      objectId: reading.objectId,
      op: reading.op,
      verdict,
      presentedUser,
      outcome,
      status: answersNow ? status : null,
      ruleId,
      durationMs: performance.now() - arrival.startedAt,
      occurrence,
      outOfOrder,
    };
    // Only a sender that proved it knows the expected credentials triggers calls to the bank;
    // with none expected (not_configured), anyone on the machine could have posted it.
    const verified = verdict === 'ok';
    this.#queue.push({
      record,
      answer: { behaviour, status, delayMs, reason },
      pending: {
        summary: {
          receivedAt: new Date(arrival.receivedAt).toISOString(),
          method: record.method,
          path: record.path,
          verdict,
          presentedUser,
          event: record.event,
          objectId: record.objectId,
          op: record.op,
          bodyProblem,
          outcome,
          status: record.status,
          ruleId,
          durationMs: record.durationMs,
          occurrence,
          outOfOrder,
          bodyBytes: record.bodyBytes,
          bodyTruncated: record.bodyTruncated,
          ...(label === null ? {} : { label }),
        },
        content: failed
          ? null
          : {
              method: arrival.method,
              path: arrival.path,
              query: arrival.query,
              contentType: arrival.contentType,
              authorization: arrival.authorization,
              rawHeaders: arrival.rawHeaders,
              body: arrival.body,
            },
        objectUrl: verified && reading.notification !== null ? reading.notification.url : null,
      },
      reply,
    });
    if (this.#queue.length >= MAX_GROUP) {
      this.flush();
    } else {
      this.#scheduleFlush();
    }
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => {
      this.flush();
    });
  }

  /** Each settled exchange's final outcome, status and duration, in one transaction. */
  #writeFinished(): void {
    const finished = this.#finished;
    if (finished.length === 0) return;
    this.#finished = [];
    try {
      this.#log.finishMany(finished);
    } catch {
      // The log was closed under the last exchanges: their records keep the duration measured at arrival.
    }
  }

  /** Write every waiting arrival in one transaction, then answer each. */
  flush(): void {
    this.#flushScheduled = false;
    this.#writeFinished();
    const group = this.#queue;
    if (group.length === 0) return;
    this.#queue = [];
    let ids: number[];
    try {
      ids = this.#log.insertMany(group.map((queued) => queued.record));
    } catch (error) {
      for (const queued of group) queued.reply({ error });
      return;
    }
    group.forEach((queued, index) => {
      const requestId = ids[index] as number;
      this.#pending.set(requestId, { ...queued.pending, summary: { id: requestId, ...queued.pending.summary } });
      queued.reply({ answer: { requestId, ...queued.answer } });
    });
  }

  /** The exchange is over: write what changed since the record (late answers), then pass it on. */
  settle(requestId: number, outcome: RequestOutcome, status: number | null, durationMs: number, late: boolean): void {
    const pending = this.#pending.get(requestId);
    if (pending === undefined) return;
    this.#pending.delete(requestId);
    const summary = pending.summary;
    // The kept record says what the live line says: from arrival until the answer was written
    // (the record was made before the group's write to disk and the answer; it said less).
    // Written with the next group, in one transaction, not one statement per request.
    this.#finished.push({ id: requestId, outcome, status, durationMs });
    if (late) this.#writeFinished();
    else this.#scheduleFlush();
    summary.outcome = outcome;
    summary.status = status;
    summary.durationMs = durationMs;
    this.#settled({ summary, content: pending.content, objectUrl: pending.objectUrl });
  }
}
