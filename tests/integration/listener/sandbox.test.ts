/**
 * End to end with the real sandbox bank: a webhook registered in one step delivers to the
 * listener with verdict ok (and the object is hydrated through the bank client); failure
 * rules drive the sandbox's retries and the webhook's error status, as its webhook send
 * records show; reconciliation counts match what happened.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox/index.ts';
import type { WebhookSend } from '../../../src/shared/bank/index.ts';
import { bankClientPort } from '../../../src/main/services/listener/bankClientPort.ts';
import type { BankPort } from '../../../src/main/services/listener/bankPort.ts';
import { eventually, startTestListener, temporaryFolder, type TestListener } from './support.ts';

let sandbox: RunningSandbox | null = null;
let current: TestListener | null = null;
afterEach(async () => {
  await current?.close();
  current = null;
  await sandbox?.close();
  sandbox = null;
});

function portOf(running: RunningSandbox): BankPort {
  const header = 'Basic ' + Buffer.from(`${running.keyId}:${running.keySecret}`).toString('base64');
  return bankClientPort({
    profileName: 'sandbox',
    authScheme: 'basic',
    baseUrl: running.baseUrl,
    authorization: () => Promise.resolve({ header, expiresAt: null }),
  });
}

async function bankCall(running: RunningSandbox, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(running.baseUrl + path, {
    method,
    headers: {
      authorization: 'Basic ' + Buffer.from(`${running.keyId}:${running.keySecret}`).toString('base64'),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? null : (JSON.parse(text) as unknown);
}

/** An ACH on the first demo account: emits ach.create (and account.update). Returns its id. */
async function createAch(running: RunningSandbox): Promise<string> {
  const accepted = (await bankCall(running, 'POST', '/simulation', {
    type: 'ach.create',
    simulation: { account_id: running.demo.accounts[0], amount: '12.34', direction: 'credit' },
  })) as { object_id: string };
  return accepted.object_id;
}

async function sendsOf(running: RunningSandbox, webhookId: string): Promise<WebhookSend[]> {
  const page = (await bankCall(running, 'GET', `/webhook_send?webhook_id=${webhookId}&page_size=1000`)) as {
    data: WebhookSend[];
  };
  return page.data;
}

async function start(options: SandboxOptions, folder?: string, port?: number): Promise<void> {
  sandbox = await startSandbox({ accounts: 1, pendingTransactionsPerAccount: 5, smartRetries: true, ...options });
  current = await startTestListener({
    bank: portOf(sandbox),
    ...(folder === undefined ? {} : { folder }),
    ...(port === undefined ? {} : { port }),
  });
}

describe('with the sandbox bank', () => {
  it('registers in one step; the bank delivers with verdict ok; the object is hydrated; removal is one step', async () => {
    await start({});
    const listener = current?.listener;
    if (listener === undefined || sandbox === null) throw new Error('not started');
    const registration = await listener.register({ event: 'ach.create', allowHttp: true });
    expect(registration.path).toMatch(/^\/webhooks\//);
    expect(await current?.secrets.has(registration.secretAccount)).toBe(true);
    const stored = (await bankCall(sandbox, 'GET', `/webhook/${registration.webhookId}`)) as Record<string, unknown>;
    expect(stored).toMatchObject({ event: 'ach.create', url: registration.url, basic_user: registration.basicUser });

    const achId = await createAch(sandbox);
    await eventually(() => listener.count({ objectId: achId }) === 1);
    await listener.idle();
    const [summary] = listener.requests({ objectId: achId });
    const received = listener.request(summary?.id ?? 0);
    expect(received).toMatchObject({
      path: registration.path,
      verdict: 'ok',
      presentedUser: registration.basicUser,
      event: 'ach.create',
      status: 200,
      notification: { event: 'ach.create', op: 'create', id: achId, url: `${sandbox.baseUrl}/ach/${achId}` },
    });
    expect(received?.snapshot).toMatchObject({ id: achId, status: 'pending', amount: '12.34' });

    const running = sandbox;
    // The bank records its attempt once our answer reaches it.
    await eventuallyAsync(async () => (await sendsOf(running, registration.webhookId)).length === 1);
    const report = await listener.reconcile({ webhookId: registration.webhookId });
    expect(report.counts).toMatchObject({
      sends: 1,
      sentAndReceived: 1,
      sentButNeverReceived: 0,
      receivedButFailed: 0,
    });

    await listener.unregister(registration.webhookId);
    await expect(bankCall(running, 'GET', `/webhook/${registration.webhookId}`)).rejects.toThrow(/404/);
    expect(await current?.secrets.has(registration.secretAccount)).toBe(false);
    expect(listener.registrations).toEqual([]);
  });

  it('a replay back to a registration’s path is signed with that registration’s credentials and verified', async () => {
    await start({});
    const listener = current?.listener;
    const state = listener?.state;
    if (listener === undefined || sandbox === null || state?.url == null) throw new Error('not started');
    const registration = await listener.register({ event: 'ach.create', allowHttp: true });
    const achId = await createAch(sandbox);
    await eventually(() => listener.count({ objectId: achId }) === 1);
    const [original] = listener.requests({ objectId: achId });
    const target = `${state.url.replace(/\/+$/, '')}${registration.path}`;

    // The registration's own credentials for its path; the listener's for any other (none set).
    expect(listener.replayCredentialsFor(target)).toEqual({
      user: registration.basicUser,
      secretAccount: registration.secretAccount,
    });
    expect(listener.replayCredentialsFor(`${state.url.replace(/\/+$/, '')}/elsewhere`)).toBeNull();
    expect(listener.replayCredentialsFor(`http://127.0.0.2:1${registration.path}`)).toBeNull();

    const credentials = listener.replayCredentialsFor(target);
    await listener.replay({
      requestIds: [original?.id ?? 0],
      url: target,
      ...(credentials === null ? {} : { basicAuth: credentials }),
    });
    await eventually(() => listener.count({ objectId: achId }) === 2);
    const replayed = listener.requests({ objectId: achId }).find((request) => request.id !== original?.id);
    expect(listener.request(replayed?.id ?? 0)).toMatchObject({
      path: registration.path,
      verdict: 'ok',
      presentedUser: registration.basicUser,
    });
    // Unsigned, the same replay is refused by the path's check.
    await listener.replay({ requestIds: [original?.id ?? 0], url: target });
    await eventually(() => listener.count({ objectId: achId }) === 3);
    expect(listener.requests({ objectId: achId }).map((request) => request.verdict)).toContain('missing_header');
  });

  it('fail 3 times then succeed: the bank retries, its send records and the reconciliation agree', async () => {
    await start({ retryBaseMs: 5, retryCapMs: 20 });
    const listener = current?.listener;
    if (listener === undefined || sandbox === null) throw new Error('not started');
    const registration = await listener.register({ event: 'ach.create', allowHttp: true });
    listener.setRules([
      { id: 'flaky', path: registration.path, action: { kind: 'fail_times', times: 3, status: 503 } },
    ]);

    const achId = await createAch(sandbox);
    const running = sandbox;
    await eventually(() => listener.count({ objectId: achId, verdict: 'ok' }) === 4);
    expect(
      listener
        .requests({ objectId: achId })
        .map((request) => request.status)
        .reverse(),
    ).toEqual([503, 503, 503, 200]);
    expect(
      listener
        .requests({ objectId: achId })
        .map((request) => request.occurrence)
        .reverse(),
    ).toEqual([1, 2, 3, 4]);

    let sends: WebhookSend[] = [];
    await eventuallyAsync(async () => {
      sends = await sendsOf(running, registration.webhookId);
      return sends.length === 4;
    });
    const chronological = [...sends].reverse();
    expect(chronological.map((send) => [send.status, send.attempt_number, send.will_retry])).toEqual([
      ['error', 0, true],
      ['error', 1, true],
      ['error', 2, true],
      ['sent', 3, false],
    ]);
    const report = await listener.reconcile({ webhookId: registration.webhookId });
    expect(report.counts).toMatchObject({
      sends: 4,
      received: 4,
      sentAndReceived: 1,
      receivedButFailed: 3,
      sentButNeverReceived: 0,
      stillRetrying: 0,
      receivedNotRecordedByBank: 0,
    });
  });

  it('always failing: all 15 retries arrive, then the bank gives up', async () => {
    await start({ retryBaseMs: 2, retryCapMs: 10 });
    const listener = current?.listener;
    if (listener === undefined || sandbox === null) throw new Error('not started');
    const registration = await listener.register({ event: 'ach.create', allowHttp: true });
    listener.setRules([{ id: 'down', event: 'ach.create', action: { kind: 'status', status: 500 } }]);
    const achId = await createAch(sandbox);
    const running = sandbox;
    let sends: WebhookSend[] = [];
    await eventuallyAsync(async () => {
      sends = await sendsOf(running, registration.webhookId);
      return sends.some((send) => !send.will_retry);
    });
    expect(sends).toHaveLength(16);
    expect(sends.every((send) => send.status === 'error')).toBe(true);
    expect(listener.count({ objectId: achId })).toBe(16);
    const report = await listener.reconcile({ webhookId: registration.webhookId });
    expect(report.counts).toMatchObject({ sends: 16, receivedButFailed: 16, stillRetrying: 0, sentAndReceived: 0 });
  });

  it('too many failures put the webhook in error status, visible in its send records', async () => {
    await start({ retryBaseMs: 2, retryCapMs: 10, errorThreshold: 5, errorWindowMs: 600_000 });
    const listener = current?.listener;
    if (listener === undefined || sandbox === null) throw new Error('not started');
    const registration = await listener.register({ event: 'ach.create', allowHttp: true });
    listener.setRules([{ id: 'cut', path: registration.path, action: { kind: 'drop' } }]);
    await createAch(sandbox);
    const running = sandbox;
    await eventuallyAsync(async () => {
      const webhook = (await bankCall(running, 'GET', `/webhook/${registration.webhookId}`)) as { status: string };
      return webhook.status === 'error';
    });
    const sends = await sendsOf(running, registration.webhookId);
    expect(sends).toHaveLength(5);
    expect(sends[0]).toMatchObject({ status: 'error', will_retry: false, attempt_number: 4 });
    expect(listener.count({ outcome: 'dropped' })).toBe(5);
    const report = await listener.reconcile({ webhookId: registration.webhookId });
    expect(report.counts).toMatchObject({ sends: 5, receivedButFailed: 5, stillRetrying: 0 });
  });

  it('no answer: the bank times out each attempt, and the webhook goes to error', async () => {
    await start({ retryBaseMs: 2, retryCapMs: 10, errorThreshold: 3, deliveryTimeoutMs: 150 });
    const listener = current?.listener;
    if (listener === undefined || sandbox === null) throw new Error('not started');
    const registration = await listener.register({ event: 'ach.create', allowHttp: true });
    listener.setRules([{ id: 'silent', path: registration.path, action: { kind: 'no_answer' } }]);
    await createAch(sandbox);
    const running = sandbox;
    await eventuallyAsync(async () => {
      const webhook = (await bankCall(running, 'GET', `/webhook/${registration.webhookId}`)) as { status: string };
      return webhook.status === 'error';
    });
    expect(listener.count({ outcome: 'no_answer' })).toBe(3);
    const sends = await sendsOf(running, registration.webhookId);
    expect(sends.map((send) => send.status)).toEqual(['error', 'error', 'error']);
    const report = await listener.reconcile({ webhookId: registration.webhookId });
    expect(report.counts).toMatchObject({ sends: 3, receivedButFailed: 3 });
  });

  it('an answer later than the bank waits: received with 200, yet recorded as failed by the bank', async () => {
    await start({ retryBaseMs: 2, retryCapMs: 10, deliveryTimeoutMs: 150 });
    const listener = current?.listener;
    if (listener === undefined || sandbox === null) throw new Error('not started');
    const registration = await listener.register({ event: 'ach.create', allowHttp: true });
    // Only the first arrival of each notification is late; the retry is answered at once.
    listener.setRules([
      { id: 'late', path: registration.path, action: { kind: 'fail_times', times: 1, status: 200, delayMs: 400 } },
    ]);
    const achId = await createAch(sandbox);
    const running = sandbox;
    await eventuallyAsync(async () =>
      (await sendsOf(running, registration.webhookId)).some((send) => send.status === 'sent'),
    );
    // The late answer is given (200) or finds the bank gone (client_aborted): either way it is settled.
    await eventually(() => listener.stats().unsettled === 0);
    const report = await listener.reconcile({ webhookId: registration.webhookId });
    expect(report.counts).toMatchObject({ sends: 2, sentAndReceived: 1, receivedButFailed: 1 });
    expect(report.receivedButFailed[0]?.request).toMatchObject({ objectId: achId, ruleId: 'late', occurrence: 1 });
    expect(report.sentAndReceived[0]?.request).toMatchObject({ objectId: achId, status: 200, occurrence: 2 });
  });

  it('an attempt made while the listener is down is sent but never received; the retry gets through', async () => {
    const temporary = temporaryFolder();
    try {
      await start({ retryBaseMs: 300, retryCapMs: 300 }, temporary.folder);
      const listener = current?.listener;
      if (listener === undefined || sandbox === null) throw new Error('not started');
      const port = current?.port ?? 0;
      const registration = await listener.register({ event: 'ach.create', allowHttp: true });
      await listener.stop();
      const achId = await createAch(sandbox);
      const running = sandbox;
      await eventuallyAsync(async () => (await sendsOf(running, registration.webhookId)).length === 1);
      await listener.start({ port });
      await eventually(() => listener.count({ objectId: achId }) === 1);
      await eventuallyAsync(async () => (await sendsOf(running, registration.webhookId)).length === 2);
      const report = await listener.reconcile({ webhookId: registration.webhookId });
      expect(report.counts).toMatchObject({
        sends: 2,
        sentAndReceived: 1,
        sentButNeverReceived: 1,
        receivedButFailed: 0,
      });
      expect(report.sentButNeverReceived[0]).toMatchObject({ status: 'error', attempt_number: 0, object_id: achId });
    } finally {
      await current?.close();
      current = null;
      temporary.remove();
    }
  });
});

/** Like eventually(), for checks that ask the bank. Bounded by rounds. */
async function eventuallyAsync(check: () => Promise<boolean>, rounds = 1000): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('The condition never held.');
}
