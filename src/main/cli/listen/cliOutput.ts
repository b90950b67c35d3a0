/** What `npm run listen` prints: one line per request, for people or (with --json) for programs. */
import type { Delivery, ReceivedRequestSummary } from '../../services/listener/receivedRequest.ts';
import { describeLabel, labelWords } from '../../services/listener/retryLabels.ts';
import type { PairingResult } from '../../services/listener/sendLogPairing.ts';

/**
 * The version of the --json lines (docs/reference.md, "The listener's JSON lines"): 2 since issue
 * 38, whose one delivery label (`label.kind`: new_event, retry, replay, edited_replay, with
 * `label.text` as the terminal says it) replaced version 1's `duplicate` flag.
 */
const JSON_LINES_VERSION = 2;

/** The --json line of one request: at least time, path, verdict, event, id (the object's), status, durationMs. */
export function jsonLineOf(request: ReceivedRequestSummary): string {
  return JSON.stringify({
    v: JSON_LINES_VERSION,
    time: request.receivedAt,
    method: request.method,
    path: request.path,
    verdict: request.verdict,
    event: request.event,
    id: request.objectId,
    status: request.status,
    durationMs: Math.round(request.durationMs * 100) / 100,
    outcome: request.outcome,
    requestId: request.id,
    label: request.label === undefined ? null : { ...request.label, text: labelWords(request.label) },
    outOfOrder: request.outOfOrder,
    rule: request.ruleId,
    bodyProblem: request.bodyProblem,
  });
}

function statusText(request: ReceivedRequestSummary): string {
  if (request.status !== null) return String(request.status);
  return request.outcome === 'no_answer' ? 'held' : request.outcome === 'dropped' ? 'dropped' : 'none';
}

/** `15:06:08.469  ok               ach.update     ach_1   200    3.1 ms  POST /hook  (attempt 2 (by body: …))` */
export function humanLineOf(request: ReceivedRequestSummary): string {
  const notes = [
    // Retry or new event, decided in this run (never a count from the kept log).
    request.label === undefined ? '' : describeLabel(request.label),
    request.outOfOrder ? 'out of order' : '',
    request.ruleId === null ? '' : `rule ${request.ruleId}`,
    request.outcome === 'answered' || request.outcome === 'no_answer' || request.outcome === 'dropped'
      ? ''
      : request.outcome === 'too_large'
        ? 'too large: allow more with --max-body BYTES'
        : request.outcome === 'timeout'
          ? 'body too slow: allow more time with --body-timeout MS'
          : request.outcome.replace('_', ' '),
    request.bodyProblem === null ? '' : request.bodyProblem.slice(0, 120),
  ].filter((note) => note !== '');
  return [
    request.receivedAt.slice(11, 23),
    request.verdict.padEnd(16),
    (request.event ?? '-').padEnd(14),
    (request.objectId ?? '-').padEnd(12),
    statusText(request).padEnd(7),
    `${request.durationMs.toFixed(1).padStart(7)} ms`,
    `${request.method || '?'} ${request.path || '?'}`,
    notes.length === 0 ? '' : ` (${notes.join('; ')})`,
  ].join('  ');
}

export function humanDeliveryLineOf(delivery: Delivery): string {
  const result =
    delivery.error !== null
      ? `failed: ${delivery.error}`
      : `${String(delivery.status)} in ${(delivery.durationMs ?? 0).toFixed(1)} ms: ${(delivery.excerpt ?? '').slice(0, 80).replaceAll('\n', ' ')}`;
  return `  -> ${delivery.kind} of request ${delivery.requestId} to ${delivery.url}: ${result}`;
}

/** `  = request 3: attempt 2 (bank: send ws_… follows 1 earlier attempt)`, or why the bank could not say. */
export function pairingLineOf(requestId: number, result: PairingResult): string {
  return result.paired
    ? `  = request ${String(requestId)}: ${describeLabel(result.label)}`
    : `  = request ${String(requestId)}: the bank could not say (${result.reason}); the label above is by body`;
}
