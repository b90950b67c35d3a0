/** Joining the bank's send records with what was received: each category and its count. */
import { describe, expect, it } from 'vitest';
import type { WebhookSend } from '../../../src/shared/bank/index.ts';
import { reconcile, reconcileRecords } from '../../../src/main/services/listener/reconcile.ts';
import type { BankPort, WebhookSendQuery } from '../../../src/main/services/listener/bankPort.ts';
import { migrateListenerTables } from '../../../src/main/services/listener/migrations.ts';
import { RequestLog } from '../../../src/main/services/listener/requestLog.ts';
import { DatabaseSync } from 'node:sqlite';
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
function received(
  objectId: string,
  status: number | null,
  outcome: ReceivedRequestSummary['outcome'] = 'answered',
  verdict: ReceivedRequestSummary['verdict'] = 'ok',
) {
  requestNumber += 1;
  return {
    id: requestNumber,
    receivedAt: new Date(requestNumber * 1000).toISOString(),
    method: 'POST',
    path: '/webhooks/x',
    verdict,
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
      receivedUnverified: 0,
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

  it('counts only verified requests as received: forged or unchecked ones are listed apart with their verdict', () => {
    // The bank tried twice and nothing verified arrived; a post nobody vouched for must not
    // turn "sent, never received" into "sent and received".
    const sends = [send('ach_lost', 'sent', 0), send('ach_other', 'error', 0, true)];
    const report = reconcileRecords(
      [...sends].reverse(),
      [
        received('ach_lost', 200, 'answered', 'not_configured'),
        received('ach_lost', 200, 'answered', 'wrong_secret'),
        received('ach_other', 500, 'answered', 'missing_header'),
      ],
      { webhookId: 'wh_1', event: 'ach.update' },
    );
    expect(report.counts).toMatchObject({
      received: 0,
      sentAndReceived: 0,
      receivedButFailed: 0,
      sentButNeverReceived: 2,
      receivedNotRecordedByBank: 0,
      receivedUnverified: 3,
    });
    expect(report.receivedUnverified.map((request) => [request.objectId, request.verdict])).toEqual([
      ['ach_lost', 'not_configured'],
      ['ach_lost', 'wrong_secret'],
      ['ach_other', 'missing_header'],
    ]);
    // The same arrivals, verified, are received.
    const verified = reconcileRecords([...sends].reverse(), [received('ach_lost', 200)], { webhookId: 'wh_1' });
    expect(verified.counts).toMatchObject({ sentAndReceived: 1, receivedUnverified: 0 });
  });

  it('reports nothing for nothing', () => {
    const report = reconcileRecords([], [], { webhookId: 'wh_1' });
    expect(Object.values(report.counts).every((count) => count === 0)).toBe(true);
  });

  it('reconciles a date range: asks the bank for those days and joins only requests received in them', async () => {
    const database = new DatabaseSync(':memory:');
    migrateListenerTables(database);
    const log = new RequestLog(database, 'a', { maxAgeDays: 3650, maxRequests: 1000, maxBytes: 1e9 });
    const base = {
      method: 'POST',
      path: '/h',
      query: null,
      remoteAddress: null,
      headers: [],
      body: null,
      bodyBytes: 0,
      declaredBytes: null,
      bodyTruncated: false,
      bodyProblem: null,
      notification: null,
      event: 'ach.update',
      op: 'update',
      verdict: 'ok' as const,
      presentedUser: null,
      outcome: 'answered' as const,
      status: 200,
      ruleId: null,
      durationMs: 1,
      occurrence: 1,
      outOfOrder: false,
    };
    log.insert({ ...base, receivedAt: Date.parse('2024-03-01T10:00:00Z'), objectId: 'ach_before' });
    log.insert({ ...base, receivedAt: Date.parse('2024-03-02T10:00:00Z'), objectId: 'ach_in' });
    log.insert({ ...base, receivedAt: Date.parse('2024-03-03T10:00:00Z'), objectId: 'ach_after' });
    const queries: WebhookSendQuery[] = [];
    const bank: BankPort = {
      baseUrl: 'http://bank.invalid',
      getObject: () => Promise.reject(new Error('not used')),
      async *listWebhookSends(query) {
        queries.push(query);
        yield await Promise.resolve({ ...send('ach_in', 'sent', 0), created_at: '2024-03-02T10:00:00Z' });
      },
      createWebhook: () => Promise.reject(new Error('not used')),
      deleteWebhook: () => Promise.reject(new Error('not used')),
    };
    const report = await reconcile(bank, log, {
      webhookId: 'wh_1',
      since: Date.parse('2024-03-02T00:00:00Z'),
      until: Date.parse('2024-03-03T00:00:00Z'),
    });
    expect(queries).toEqual([{ webhook_id: 'wh_1', from_date: '2024-03-02', to_date: '2024-03-03' }]);
    expect(report.counts.received).toBe(1);
    expect(report.counts.sentAndReceived).toBe(1);
    expect(report.receivedNotRecordedByBank).toEqual([]);
  });
});
