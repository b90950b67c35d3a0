/** What the listener keeps of each request it received, as the rest of the app sees it. */
import type { WebhookNotification } from '../../../shared/bank/index.ts';
import type { Verdict } from './basicAuth.ts';
import type { ArrivalLabel } from './retryLabels.ts';

/**
 * How a request ended: answered (with `status`), refused before its body was read in full
 * (too large, too slow, malformed HTTP), held without answer or dropped on purpose by a
 * rule, or abandoned by the sender before it finished sending.
 */
export const REQUEST_OUTCOMES = [
  'answered',
  'too_large',
  'timeout',
  'bad_request',
  'no_answer',
  'dropped',
  'client_aborted',
] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

/** One row of the traffic list: small enough to push to the UI in batches. */
export interface ReceivedRequestSummary {
  id: number;
  /** ISO 8601 with milliseconds. */
  receivedAt: string;
  method: string;
  path: string;
  verdict: Verdict;
  presentedUser: string | null;
  event: string | null;
  objectId: string | null;
  op: string | null;
  /** Null when the body is a valid notification. */
  bodyProblem: string | null;
  outcome: RequestOutcome;
  /** The status answered; null when no answer was given. */
  status: number | null;
  ruleId: string | null;
  durationMs: number;
  /** 1 for the first arrival of this event for this object, 2 for the next, ... (its label says which kind). */
  occurrence: number;
  /** Arrived after a later operation on the same object (e.g. a create after an update). */
  outOfOrder: boolean;
  bodyBytes: number;
  bodyTruncated: boolean;
  /**
   * Attempt N, new event, replay or edited replay, as decided when it arrived (retryLabels.ts):
   * its one delivery label. Only on requests pushed live: it is never kept, so no count outlives
   * the run.
   */
  label?: ArrivalLabel;
}

/** Everything kept of one request. */
export interface ReceivedRequest extends ReceivedRequestSummary {
  query: string | null;
  remoteAddress: string | null;
  /** In arrival order, as sent; Authorization keeps only its scheme. */
  headers: [string, string][];
  /** The kept body as text when it is UTF-8, else null (see bodyBase64). */
  bodyText: string | null;
  bodyBase64: string | null;
  declaredBytes: number | null;
  notification: WebhookNotification | null;
  /** The object as the bank returned it when fetched after the notification (spec §6.8). */
  snapshot: unknown;
  snapshotAt: string | null;
  snapshotError: string | null;
}

/** What forwarding or replaying one request produced. */
export interface Delivery {
  id: number;
  requestId: number;
  kind: 'forward' | 'replay';
  url: string;
  startedAt: string;
  status: number | null;
  durationMs: number | null;
  /** The start of the handler's answer, to show beside the request. */
  excerpt: string | null;
  error: string | null;
}

/** Which requests: every field narrows; lists are newest first. */
export interface RequestFilter {
  ids?: number[];
  event?: string;
  objectId?: string;
  verdict?: Verdict;
  outcome?: RequestOutcome;
  path?: string;
  /** Paths starting with this text. */
  pathPrefix?: string;
  /** Only repeats of a notification already received (the same event and object id again). */
  duplicatesOnly?: boolean;
  /** Text found (case-insensitively) in the path, event, object id or method. */
  search?: string;
  /** Epoch milliseconds, inclusive. */
  since?: number;
  /** Epoch milliseconds, exclusive. */
  until?: number;
  /** Keyset paging: only ids below this one. */
  beforeId?: number;
  /** Default 100, at most 1000. */
  limit?: number;
}

/** Requests grouped by the object they concern. */
export interface ObjectGroup {
  objectId: string;
  events: string[];
  requests: number;
  duplicates: number;
  outOfOrder: number;
  firstAt: string;
  lastAt: string;
  lastRequestId: number;
}
