/** Joining the bank's send records with what was received: each category and its count. */
import { describe, expect, it } from 'vitest';
import type { WebhookSend } from '../../../src/shared/bank/index.ts';
import { reconcileRecords } from '../../../src/main/services/listener/reconcile.ts';
import type { ReceivedRequestSummary } from '../../../src/main/services/listener/receivedRequest.ts';

let sendNumber = 0;
function send(objectId: string, status: WebhookSend['status'], attempt: number, willRetry = false): WebhookSend {
  sendNumber += 1;
  return {
    id: `whsend_${sendNumber}`,
    webhook_id: 'wh_1',
    object_id: objectId,
    event: 'ach.update',
    operation: 'update',
    status,
    attempt_number: attempt,
    will_retry: willRetry,
    error: status === 'error' ? 'answered 500' : null,
  };
}

let requestNumber = 0;
function received(objectId: string, status: number | null, outcome: ReceivedRequestSummary['outcome'] = 'answered') {
  requestNumber += 1;
  return {
    id: requestNumber,
    receivedAt: new Date(requestNumber * 1000).toISOString(),
    method: 'POST',
    path: '/webhooks/x',
    verdict: 'ok',
    presentedUser: 'u',
    event: 'ach.update',
    objectId,
    op: 'update',
    bodyProblem: null,
    outcome,
    status,
    ruleId: null,
    durationMs: 1,
    occurrence: 1,
    duplicate: false,
    outOfOrder: false,
    bodyBytes: 10,
    bodyTruncated: false,
  } satisfies ReceivedRequestSummary;
}

describe('reconcileRecords', () => {
  it('sorts every attempt into exactly one category and counts them', () => {
    // ach_ok: delivered first time. ach_retry: failed twice (we answered 500), then delivered.
    // ach_lost: the bank tried, we never saw it. ach_pending: failed, the bank will retry.
    const chronological = [
      send('ach_ok', 'sent', 0),
      send('ach_retry', 'error', 0, true),
      send('ach_lost', 'error', 0, true),
      send('ach_retry', 'error', 1, true),
      send('ach_lost', 'sent', 1),
      send('ach_retry', 'sent', 2),
      send('ach_pending', 'error', 0, true),
      send('ach_skip', 'skipped', 0),
    ];
    const requests = [
      received('ach_ok', 200),
      received('ach_retry', 500),
      received('ach_retry', 500),
      received('ach_lost', 202),
      received('ach_retry', 200),
      received('ach_pending', null, 'no_answer'),
      received('ach_other', 200),
    ];
    const report = reconcileRecords([...chronological].reverse(), requests, { webhookId: 'wh_1', event: 'ach.update' });
    expect(report.counts).toEqual({
      sends: 7,
      received: 7,
      sentAndReceived: 3,
      sentButNeverReceived: 1,
      receivedButFailed: 3,
      stillRetrying: 1,
      receivedNotRecordedByBank: 1,
      skipped: 1,
    });
    expect(report.sentAndReceived.map((pair) => [pair.send.object_id, pair.request.status])).toEqual([
      ['ach_ok', 200],
      ['ach_retry', 200],
      ['ach_lost', 202],
    ]);
    expect(report.sentButNeverReceived.map((lost) => [lost.object_id, lost.attempt_number])).toEqual([['ach_lost', 0]]);
    expect(report.receivedButFailed.map((pair) => pair.send.object_id).sort()).toEqual([
      'ach_pending',
      'ach_retry',
      'ach_retry',
    ]);
    expect(report.stillRetrying.map((retrying) => retrying.object_id)).toEqual(['ach_pending']);
    expect(report.receivedNotRecordedByBank.map((request) => request.objectId)).toEqual(['ach_other']);
  });

  it('pairs an answer the bank counted as failed (too late) as received but failed', () => {
    const report = reconcileRecords([send('ach_slow', 'error', 0, true)], [received('ach_slow', 200)], {
      webhookId: 'wh_1',
    });
    expect(report.counts.receivedButFailed).toBe(1);
    expect(report.counts.sentButNeverReceived).toBe(0);
  });

  it('reports nothing for nothing', () => {
    const report = reconcileRecords([], [], { webhookId: 'wh_1' });
    expect(Object.values(report.counts).every((count) => count === 0)).toBe(true);
  });
});
