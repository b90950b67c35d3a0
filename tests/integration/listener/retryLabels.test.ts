/**
 * Retries told apart from new events (issue 27). Offline, by what the listener can know in
 * this run (same body, previous arrival not answered 2xx), and never carried across a
 * restart; with the bank, by its send log, which tells a real second change of one ACH
 * (same body: a notification names no status) from a retry of the first.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bankClientPort } from '../../../src/main/services/listener/bankClientPort.ts';
import type { ReceivedRequestSummary } from '../../../src/main/services/listener/receivedRequest.ts';
import type { ArrivalLabel } from '../../../src/main/services/listener/retryLabels.ts';
import { SendLogPairing } from '../../../src/main/services/listener/sendLogPairing.ts';
import type { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../../../src/main/services/profiles/profile.ts';
import { deliveriesSettled, startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { LISTENER_SECRET, LISTENER_USER, servicesOnEmbedded, subscribe } from '../trigger/support.ts';
import {
  basicHeader,
  eventually,
  notificationOf,
  requestEvents,
  send,
  startTestListener,
  temporaryFolder,
  type TestListener,
} from './support.ts';

let current: TestListener | null = null;
let sandbox: RunningSandbox | null = null;
let services: LedgerServices | null = null;
const cleanups: (() => void)[] = [];

afterEach(async () => {
  await current?.close();
  current = null;
  await services?.close();
  services = null;
  await sandbox?.close();
  sandbox = null;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function labelsOf(listener: TestListener): (ArrivalLabel | undefined)[] {
  return requestEvents(listener.batches).map((request) => request.label);
}

describe('offline: by what this run has seen', () => {
  it('labels a failed notification sent again as attempts, a repeat after a 2xx or another body as new, and forgets at restart', async () => {
    const temporary = temporaryFolder();
    cleanups.push(() => {
      temporary.remove();
    });
    current = await startTestListener({ folder: temporary.folder });
    current.listener.setRules([{ id: 'cli', action: { kind: 'fail_times', times: 3, status: 500 } }]);
    const body = JSON.stringify(notificationOf('ach_1'));
    const statuses: number[] = [];
    for (let arrival = 0; arrival < 5; arrival += 1) {
      statuses.push((await send(`${current.url}/`, { headers: { 'content-type': 'application/json' }, body })).status);
    }
    const other = JSON.stringify({ ...notificationOf('ach_1'), url: 'http://127.0.0.1:1/ach/ach_1?v=2' });
    await send(`${current.url}/`, { headers: { 'content-type': 'application/json' }, body: other });
    await eventually(() => requestEvents(current?.batches ?? []).length === 6);
    expect(statuses).toEqual([500, 500, 500, 200, 200]);
    const labels = labelsOf(current);
    expect(labels.map((label) => `${label?.kind ?? '-'} ${String(label?.attempt)}`)).toEqual([
      'new_event 1',
      'retry 2',
      'retry 3',
      'retry 4',
      'new_event 1',
      'new_event 1',
    ]);
    expect(labels[1]?.basis).toBe('same body as the previous arrival, which was answered 500');
    expect(labels[4]?.basis).toBe('the previous arrival was answered 200');
    expect(labels[5]?.basis).toBe("its body differs from the previous arrival's");
    expect(labels.every((label) => label?.source === 'listener')).toBe(true);
    // Not kept: the request as read back from the log has no label.
    const [first] = requestEvents(current.batches);
    expect(current.listener.request(first?.id ?? 0)).not.toHaveProperty('label');

    // A restart on the same database: the kept arrivals are no reason to call the next one a retry.
    await current.close();
    current = await startTestListener({ folder: temporary.folder });
    await send(`${current.url}/`, { headers: { 'content-type': 'application/json' }, body });
    await eventually(() => requestEvents(current?.batches ?? []).length === 1);
    expect(labelsOf(current)[0]).toEqual({
      kind: 'new_event',
      attempt: 1,
      basis: 'first arrival of it since the listener started',
      source: 'listener',
    });
  });

  it('a held or dropped arrival counts as not answered', async () => {
    current = await startTestListener({ settings: { noAnswerHoldMs: 1 } });
    current.listener.setRules([{ id: 'drop', action: { kind: 'drop' } }]);
    const body = JSON.stringify(notificationOf('ach_2'));
    await send(`${current.url}/`, { headers: { 'content-type': 'application/json' }, body }).catch(() => null);
    current.listener.setRules([]);
    await send(`${current.url}/`, { headers: { 'content-type': 'application/json' }, body });
    await eventually(() => requestEvents(current?.batches ?? []).length === 2);
    expect(labelsOf(current)[1]).toMatchObject({
      kind: 'retry',
      attempt: 2,
      basis: 'same body as the previous arrival, which got no answer',
    });
  });
});

describe('with the bank: paired with its send log', () => {
  it('--respond 500 --times 3 and one ACH moved twice: two new events and three retries, each paired with its own send', async () => {
    sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 2, retryBaseMs: 20 });
    const temporary = temporaryFolder();
    cleanups.push(() => {
      temporary.remove();
    });
    current = await startTestListener({ basic: { user: LISTENER_USER, secret: LISTENER_SECRET } });
    current.listener.setRules([{ id: 'cli', action: { kind: 'fail_times', times: 3, status: 500 } }]);
    const webhookId = await subscribe(sandbox, current.url, 'ach.update');
    services = await servicesOnEmbedded(sandbox, join(temporary.folder, 'app'));
    const pairing = new SendLogPairing(bankClientPort(services.clients.clientFor(EMBEDDED_SANDBOX_PROFILE_ID)), {
      webhookFor: (event) => (event === 'ach.update' ? webhookId : null),
    });
    // pending → processing → sent: two real changes of one ACH, two notifications with the same body.
    const result = await services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, { event: 'ach.update', status: 'sent' });
    await deliveriesSettled(sandbox);
    await eventually(
      () => requestEvents(current?.batches ?? []).filter((request) => request.status === 200).length === 2,
    );
    const arrivals: ReceivedRequestSummary[] = requestEvents(current.batches).filter(
      (request) => request.objectId === result.objectId && request.event === 'ach.update',
    );
    expect(arrivals.map((request) => request.status).sort()).toEqual([200, 200, 500, 500, 500]);
    const labels = await Promise.all(
      arrivals.map(async (request) => {
        const entry = await (pairing.pair(request) ?? Promise.resolve(null));
        if (entry === null || !entry.paired) throw new Error(`not paired: ${JSON.stringify(entry)}`);
        return entry;
      }),
    );
    expect(labels.filter((entry) => entry.label.kind === 'new_event')).toHaveLength(2);
    expect(labels.filter((entry) => entry.label.kind === 'retry')).toHaveLength(3);
    expect(new Set(labels.map((entry) => entry.sendId)).size).toBe(5);
    expect(labels.every((entry) => entry.label.source === 'bank')).toBe(true);
    // The arrival that was answered first is a new event whatever came after; each retry names its attempt.
    expect(labels[0]?.label).toMatchObject({ kind: 'new_event', attempt: 1 });
    for (const entry of labels.filter((candidate) => candidate.label.kind === 'retry')) {
      expect(entry.label.attempt).toBeGreaterThanOrEqual(2);
      expect(entry.label.basis).toMatch(/^send \S+ follows \d+ earlier attempts?$/);
    }
    // A forged post is not paired (it would make the listener call the bank).
    const forged = await send(`${current.url}/`, {
      headers: { 'content-type': 'application/json', authorization: basicHeader(LISTENER_USER, 'guess') },
      body: JSON.stringify(notificationOf(result.objectId)),
    });
    await eventually(() => requestEvents(current?.batches ?? []).some((request) => request.id === forged.requestId));
    const forgedSummary = requestEvents(current.batches).find((request) => request.id === forged.requestId);
    expect(forgedSummary === undefined ? 'missing' : pairing.pair(forgedSummary)).toBeNull();
  });
});
