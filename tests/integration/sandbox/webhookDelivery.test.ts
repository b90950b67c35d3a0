/**
 * Webhook delivery end to end (spec §3.2, §6, §7) against a real local receiver that fails on
 * purpose. Retry tests use a tiny --retry-base-ms so a whole schedule runs in about a second;
 * the schedule is read from the sandbox's own traffic entries (when each attempt was made and
 * when the next is due), never measured against a wall-clock limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Webhook, WebhookSend } from '../../../src/shared/bank/index.ts';
import type { SandboxOptions, SandboxTraffic } from '../../../src/sandbox/index.ts';

type DeliveryTraffic = Extract<SandboxTraffic, { kind: 'delivery' }>;
import { eventually, startClient, type SandboxClient } from './sandboxClient.ts';
import { startReceiver, type WebhookReceiver } from './webhookReceiver.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandboxWith(options: SandboxOptions): Promise<SandboxClient> {
  const client = await startClient(options);
  cleanups.push(() => client.sandbox.close());
  return client;
}

async function receiverWith(behave: WebhookReceiver['behave']): Promise<WebhookReceiver> {
  const receiver = await startReceiver(behave);
  cleanups.push(() => receiver.close());
  return receiver;
}

async function subscribe(client: SandboxClient, event: string, url: string, extra: object = {}): Promise<Webhook> {
  const reply = await client.call('POST', '/webhook', { body: { event, url, ...extra } });
  expect(reply.status).toBe(200);
  return reply.body as Webhook;
}

async function createAch(client: SandboxClient): Promise<string> {
  const reply = await client.call('POST', '/simulation', {
    body: {
      type: 'ach.create',
      simulation: { account_id: client.sandbox.demo.accounts[0], amount: '10.00', direction: 'credit' },
    },
  });
  expect(reply.status).toBe(202);
  return (reply.body as { object_id: string }).object_id;
}

async function sendsOf(client: SandboxClient, query: string): Promise<WebhookSend[]> {
  const reply = await client.get(`/webhook_send?page_size=1000&${query}`);
  expect(reply.status).toBe(200);
  // Newest first on the wire; oldest first is easier to read in a test.
  return [...(reply.body as { data: WebhookSend[] }).data].reverse();
}

/** Waits until the event for `objectId` has ended (sent, or error with will_retry false). */
async function ended(client: SandboxClient, webhookId: string, objectId: string): Promise<WebhookSend[]> {
  return eventually(async () => {
    const sends = await sendsOf(client, `webhook_id=${webhookId}&object_id=${objectId}`);
    const last = sends.at(-1);
    return last !== undefined && !last.will_retry && last.status !== 'skipped' ? sends : undefined;
  }, `the event for ${objectId} to end`);
}

describe('sandbox: webhook delivery', () => {
  it('delivers {event, op, id, url} with the Basic header, recorded as sent', async () => {
    const receiver = await receiverWith(() => 200);
    const client = await sandboxWith({});
    const hook = await subscribe(client, 'ach.create', receiver.url, { basic_user: 'bank', basic_secret: 's3cret!' });
    const achId = await createAch(client);
    const sends = await ended(client, hook.id, achId);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({
      webhook_id: hook.id,
      object_id: achId,
      event: 'ach.create',
      operation: 'create',
      status: 'sent',
      attempt_number: 0,
      will_retry: false,
      error: null,
    });
    const delivered = receiver.received.find((entry) => entry.body.id === achId);
    expect(delivered?.body).toEqual({
      event: 'ach.create',
      op: 'create',
      id: achId,
      url: `${client.sandbox.baseUrl}/ach/${achId}`,
    });
    expect(delivered?.authorization).toBe(`Basic ${Buffer.from('bank:s3cret!').toString('base64')}`);
    const one = await client.get(`/webhook_send/${sends[0]?.id ?? ''}`);
    expect(one.body).toEqual(sends[0]);
    expect((await client.get('/webhook_send/whsend_nope')).status).toBe(404);
    // The object the notification points at is there, with the latest data.
    expect((await client.get(`/ach/${achId}`)).status).toBe(200);
  });

  it('sends no Authorization header when the webhook has no basic credentials, and counts 202 as sent', async () => {
    const receiver = await receiverWith(() => 202);
    const client = await sandboxWith({});
    const hook = await subscribe(client, 'ach.create', receiver.url);
    const achId = await createAch(client);
    expect((await ended(client, hook.id, achId))[0]?.status).toBe('sent');
    expect(receiver.received[0]?.authorization).toBeUndefined();
  });

  it('retries a failing receiver 15 times with growing intervals, then ends the event', async () => {
    const receiver = await receiverWith(() => 500);
    // The sandbox's own word on each attempt (its traffic line): when it was made and when the
    // next is due. Waited on, and the schedule read from it, so a loaded machine cannot make
    // the test give up early or blur the intervals (it measured arrival times before).
    const attempts: DeliveryTraffic[] = [];
    let lastAttempt = (): void => undefined;
    const ended = new Promise<void>((resolve) => {
      lastAttempt = resolve;
    });
    const client = await sandboxWith({
      retryBaseMs: 8,
      retryCapMs: 128,
      errorThreshold: 1000,
      traffic: (entry) => {
        if (entry.kind !== 'delivery') return;
        attempts.push(entry);
        if (entry.nextRetryAt === null) lastAttempt();
      },
    });
    const hook = await subscribe(client, 'ach.create', receiver.url);
    const achId = await createAch(client);
    await ended;
    const sends = await sendsOf(client, `webhook_id=${hook.id}&object_id=${achId}`);
    expect(sends).toHaveLength(16);
    expect(sends.map((send) => send.attempt_number)).toEqual([...Array(16).keys()]);
    expect(sends.slice(0, 15).every((send) => send.status === 'error' && send.will_retry)).toBe(true);
    expect(sends[15]).toMatchObject({ status: 'error', will_retry: false });
    expect(sends[0]?.error).toMatch(/HTTP 500/);
    expect(receiver.received.filter((entry) => entry.body.id === achId)).toHaveLength(16);
    expect(attempts.map((entry) => entry.attempt)).toEqual([...Array(16).keys()].map((n) => n + 1));
    // The schedule: 8, 16, 32, 64 ms, then capped at 128, each with up to 25% jitter added.
    const delays = attempts.slice(0, 15).map((entry) => Date.parse(entry.nextRetryAt ?? '') - Date.parse(entry.time));
    for (const [index, delay] of delays.entries()) {
      const planned = Math.min(128, 8 * 2 ** index);
      expect(delay, `the delay after attempt ${String(index + 1)}`).toBeGreaterThanOrEqual(planned);
      expect(delay, `the delay after attempt ${String(index + 1)}`).toBeLessThanOrEqual(Math.round(planned * 1.25));
    }
    // Each attempt waited at least its scheduled delay after the one before.
    for (let index = 1; index < attempts.length; index += 1) {
      const due = Date.parse(attempts[index - 1]?.nextRetryAt ?? '');
      expect(Date.parse(attempts[index]?.time ?? '')).toBeGreaterThanOrEqual(due);
    }
    // The webhook stays enabled: 16 failures are under this threshold.
    expect(((await client.get(`/webhook/${hook.id}`)).body as Webhook).status).toBe('enabled');
  });

  it('treats refused connections, resets, timeouts and redirects as errors with a reason', async () => {
    const client = await sandboxWith({ retryBaseMs: 5, retryCapMs: 10, deliveryTimeoutMs: 150, errorThreshold: 1000 });
    const reset = await receiverWith(() => 'reset');
    const hang = await receiverWith(() => 'hold');
    const redirect = await receiverWith(() => ({ redirectTo: 'http://127.0.0.1:9/elsewhere' }));
    const cases: [string, RegExp][] = [
      ['http://127.0.0.1:9/refused', /connection refused.*ECONNREFUSED/],
      [reset.url, /reset before an answer/],
      [hang.url, /no answer within 150 ms \(timeout\)/],
      [redirect.url, /HTTP 302 \(redirect to http:\/\/127\.0\.0\.1:9\/elsewhere\); redirects are not followed/],
      ['http://no-such-host.invalid/hook', /DNS lookup failed for no-such-host\.invalid/],
    ];
    for (const [url, reason] of cases) {
      const hook = await subscribe(client, 'ach.create', url);
      const achId = await createAch(client);
      const first = await eventually(
        async () => (await sendsOf(client, `webhook_id=${hook.id}&object_id=${achId}`))[0],
        `a first attempt to ${url}`,
      );
      expect(first.status).toBe('error');
      expect(first.error).toMatch(reason);
      expect(first.will_retry).toBe(true);
      expect((await client.call('DELETE', `/webhook/${hook.id}`)).status).toBe(204);
    }
    // The redirect target was never asked.
    expect(redirect.received.length).toBeGreaterThan(0);
  });

  it('records skipped sends for a webhook that is not enabled when its event fires', async () => {
    const receiver = await receiverWith(() => 200);
    const client = await sandboxWith({});
    const hook = await subscribe(client, 'ach.create', receiver.url);
    await client.call('PATCH', `/webhook/${hook.id}`, { body: { status: 'disabled' } });
    const achId = await createAch(client);
    const skipped = await eventually(
      async () => (await sendsOf(client, `object_id=${achId}&status=skipped`))[0],
      'the skipped send',
    );
    expect(skipped).toMatchObject({ webhook_id: hook.id, status: 'skipped', will_retry: false, attempt_number: 0 });
    expect(receiver.received).toHaveLength(0);
  });

  it('emits webhook.create, webhook.update on every PATCH, and webhook.delete', async () => {
    const receiver = await receiverWith(() => 200);
    const client = await sandboxWith({});
    const watchers = await Promise.all(
      ['webhook.create', 'webhook.update', 'webhook.delete'].map((event) => subscribe(client, event, receiver.url)),
    );
    const watched = await subscribe(client, 'ach.update', 'http://127.0.0.1:9/none');
    await client.call('PATCH', `/webhook/${watched.id}`, { body: { userdata: { a: 1 } } });
    await client.call('PATCH', `/webhook/${watched.id}`, { body: { url: 'http://127.0.0.1:9/x' } });
    await client.call('DELETE', `/webhook/${watched.id}`);
    const about = await eventually(() => {
      const events = receiver.received.filter((entry) => entry.body.id === watched.id).map((entry) => entry.body.event);
      return events.length >= 4 ? events : undefined;
    }, 'webhook.* notifications');
    expect([...about].sort()).toEqual(['webhook.create', 'webhook.delete', 'webhook.update', 'webhook.update']);
    expect(receiver.received.find((entry) => entry.body.event === 'webhook.delete')?.body.url).toBe(
      `${client.sandbox.baseUrl}/webhook/${watched.id}`,
    );
    expect(watchers).toHaveLength(3);
  });

  it('with Smart Webhook Retries off, ends an event on an HTTP error status but retries a refused connection', async () => {
    const receiver = await receiverWith(() => 503);
    const client = await sandboxWith({ smartRetries: false, retryBaseMs: 5, retryCapMs: 10, errorThreshold: 1000 });
    expect(((await client.get('/sandbox/organization')).body as { smart_retries: string }).smart_retries).toBe('off');
    const hook = await subscribe(client, 'ach.create', receiver.url);
    const achId = await createAch(client);
    const sends = await ended(client, hook.id, achId);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ status: 'error', will_retry: false, attempt_number: 0 });
    expect(sends[0]?.error).toMatch(/HTTP 503/);

    const refused = await subscribe(client, 'ach.create', 'http://127.0.0.1:9/refused');
    const second = await createAch(client);
    const retried = await ended(client, refused.id, second);
    expect(retried).toHaveLength(16);
  });

  it("keeps a fintech's request for Smart Webhook Retries pending until its bank approves", async () => {
    const receiver = await receiverWith(() => 500);
    const client = await sandboxWith({ smartRetries: false, retryBaseMs: 5, retryCapMs: 10, errorThreshold: 1000 });
    const asked = await client.call('PATCH', '/sandbox/organization', {
      body: { organization_type: 'fintech', smart_retries: true },
    });
    expect(asked.body).toMatchObject({ organization_type: 'fintech', smart_retries: 'pending_approval' });
    const hook = await subscribe(client, 'ach.create', receiver.url);
    const whilePending = await ended(client, hook.id, await createAch(client));
    expect(whilePending).toHaveLength(1);

    const approved = await client.call('POST', '/sandbox/organization/smart_retries/approval', {
      body: { approved: true },
    });
    expect(approved.body).toMatchObject({ smart_retries: 'on' });
    const afterApproval = await ended(client, hook.id, await createAch(client));
    expect(afterApproval).toHaveLength(16);

    const again = await client.call('POST', '/sandbox/organization/smart_retries/approval', {
      body: { approved: true },
    });
    expect(again.status).toBe(409);
    expect((await client.call('PATCH', '/sandbox/organization', { body: { smart_retries: 'yes' } })).status).toBe(400);
    await client.call('PATCH', '/sandbox/organization', { body: { smart_retries: false } });
    await client.call('PATCH', '/sandbox/organization', { body: { smart_retries: true } });
    const rejected = await client.call('POST', '/sandbox/organization/smart_retries/approval', {
      body: { approved: false },
    });
    expect(rejected.body).toMatchObject({ smart_retries: 'off' });
    const bank = await client.call('PATCH', '/sandbox/organization', {
      body: { organization_type: 'bank', smart_retries: true },
    });
    expect(bank.body).toMatchObject({ organization_type: 'bank', smart_retries: 'on' });
  });

  it('moves a webhook that fails too often to error, ends its scheduled retries, emits webhook.update, and resumes when re-enabled', async () => {
    let failing = true;
    const receiver = await receiverWith(() => (failing ? 500 : 200));
    const watcher = await receiverWith(() => 200);
    const client = await sandboxWith({ retryBaseMs: 150, retryCapMs: 150, errorThreshold: 5, errorWindowMs: 60_000 });
    const hook = await subscribe(client, 'ach.create', receiver.url);
    await subscribe(client, 'webhook.update', watcher.url);
    const achIds = [await createAch(client), await createAch(client), await createAch(client)];

    const errored = await eventually(async () => {
      const current = (await client.get(`/webhook/${hook.id}`)).body as Webhook;
      return current.status === 'error' ? current : undefined;
    }, 'the webhook to enter error');
    expect(errored.error).toMatch(/5 failed deliveries within 60000 ms \(threshold 5\); last: answered HTTP 500/);

    // Every event ended, as error with will_retry false: none is left open.
    for (const achId of achIds) {
      const sends = await ended(client, hook.id, achId);
      expect(sends.at(-1)).toMatchObject({ status: 'error', will_retry: false });
    }
    expect(
      await eventually(() => watcher.received.find((entry) => entry.body.id === hook.id), 'webhook.update'),
    ).toBeDefined();
    expect(client.sandbox.deliveryBacklog().owed).toBe(0);

    // Nothing more is delivered while in error: a new event is skipped.
    const deliveredBefore = receiver.received.length;
    const whileErrored = await createAch(client);
    expect((await eventually(async () => (await sendsOf(client, `object_id=${whileErrored}`))[0], 'skip')).status).toBe(
      'skipped',
    );
    expect(receiver.received.length).toBe(deliveredBefore);

    // PATCH back to enabled resets it: earlier failures no longer count, and delivery resumes.
    const reset = await client.call('PATCH', `/webhook/${hook.id}`, { body: { status: 'enabled' } });
    expect(reset.body).toMatchObject({ status: 'enabled', error: null });
    const resumed = await createAch(client);
    const firstAfterReset = await eventually(
      async () => (await sendsOf(client, `webhook_id=${hook.id}&object_id=${resumed}`))[0],
      'the first attempt after the reset',
    );
    expect(firstAfterReset).toMatchObject({ status: 'error', will_retry: true });
    expect(((await client.get(`/webhook/${hook.id}`)).body as Webhook).status).toBe('enabled');
    failing = false;
    expect((await ended(client, hook.id, resumed)).at(-1)).toMatchObject({ status: 'sent' });
  });

  it('ends scheduled retries as error, will_retry false, when a webhook is disabled or deleted', async () => {
    const receiver = await receiverWith(() => 500);
    const client = await sandboxWith({ retryBaseMs: 60_000, errorThreshold: 1000 });
    for (const [change, reason] of [
      [
        (id: string) => client.call('PATCH', `/webhook/${id}`, { body: { status: 'disabled' } }),
        /webhook was disabled; retry cancelled/,
      ],
      [(id: string) => client.call('DELETE', `/webhook/${id}`), /webhook was deleted; retry cancelled/],
    ] as const) {
      const hook = await subscribe(client, 'ach.create', receiver.url);
      const achId = await createAch(client);
      await eventually(
        async () => (await sendsOf(client, `webhook_id=${hook.id}&object_id=${achId}`))[0],
        'a first failure',
      );
      expect(client.sandbox.deliveryBacklog().owed).toBe(1);
      await change(hook.id);
      const sends = await ended(client, hook.id, achId);
      expect(sends.map((send) => [send.attempt_number, send.will_retry])).toEqual([
        [0, true],
        [1, false],
      ]);
      expect(sends[1]?.error).toMatch(reason);
      expect(client.sandbox.deliveryBacklog().owed).toBe(0);
    }
  });

  it('answers the API at once while deliveries are held, with at most the pool size in flight', async () => {
    const receiver = await receiverWith(() => 'hold');
    const client = await sandboxWith({ deliveryConcurrency: 2, deliveryTimeoutMs: 30_000 });
    const hook = await subscribe(client, 'ach.create', receiver.url);
    const achIds: string[] = [];
    // Every simulation is answered while the receiver holds its notifications unanswered.
    for (let index = 0; index < 5; index += 1) achIds.push(await createAch(client));
    await eventually(() => (receiver.held() === 2 ? true : undefined), 'two held deliveries');
    expect(receiver.maxHeld()).toBe(2);
    expect(client.sandbox.deliveryBacklog()).toMatchObject({ owed: 5, inFlight: 2 });
    for (let round = 0; round < 5 && receiver.received.length < 5; round += 1) {
      receiver.release(200);
      await eventually(
        () => (receiver.held() > 0 || receiver.received.length >= 5 ? true : undefined),
        'the next held pair',
      );
    }
    receiver.release(200);
    for (const achId of achIds) expect((await ended(client, hook.id, achId)).at(-1)?.status).toBe('sent');
    expect(receiver.maxHeld()).toBe(2);
  });

  it('pages and filters the send history', async () => {
    const receiver = await receiverWith(() => 200);
    const client = await sandboxWith({});
    const hook = await subscribe(client, 'ach.create', receiver.url);
    const achIds = [await createAch(client), await createAch(client), await createAch(client)];
    for (const achId of achIds) await ended(client, hook.id, achId);
    const first = (await client.get(`/webhook_send?webhook_id=${hook.id}&page_size=2`)).body as {
      data: WebhookSend[];
      page_next: string;
    };
    expect(first.data).toHaveLength(2);
    const next = new URL(first.page_next);
    expect(next.searchParams.get('webhook_id')).toBe(hook.id);
    expect(next.searchParams.get('page_cursor')).toBe(first.data[1]?.id);
    const second = (await client.get(first.page_next.slice(client.sandbox.baseUrl.length))).body as {
      data: WebhookSend[];
      page_next: string | null;
    };
    expect(second.data).toHaveLength(1);
    expect(second.page_next).toBeNull();
    expect((await sendsOf(client, 'status=sent')).length).toBeGreaterThanOrEqual(3);
    const today = new Date().toISOString().slice(0, 10);
    expect((await sendsOf(client, `from_date=${today}&webhook_id=${hook.id}`)).length).toBe(3);
    expect((await sendsOf(client, `to_date=${today}&webhook_id=${hook.id}`)).length).toBe(0);
    for (const [query, message] of [
      ['status=delivered', /status: Invalid option/],
      ['page_cursor=whsend_unknown', /names no webhook send/],
      ['page_size=0', /page_size/],
      ['from_date=yesterday', /from_date/],
      ['event=ach.create', /unknown query parameter: "event"/],
    ] as const) {
      const reply = await client.get(`/webhook_send?${query}`);
      expect(reply.status, query).toBe(400);
      expect((reply.body as { error: string }).error).toMatch(message);
    }
  });

  it('keeps pending retries across a restart and finishes them afterwards', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sandbox-restart-'));
    cleanups.push(() => {
      rmSync(folder, { recursive: true, force: true });
    });
    const dataFile = join(folder, 'sandbox.db');
    let failing = true;
    const receiver = await receiverWith(() => (failing ? 500 : 200));
    const options = { dataFile, retryBaseMs: 120, retryCapMs: 120, errorThreshold: 1000 };

    const before = await startClient(options);
    const hook = await subscribe(before, 'ach.create', receiver.url);
    const achId = await createAch(before);
    await eventually(async () => {
      const sends = await sendsOf(before, `object_id=${achId}`);
      return sends.length >= 2 ? sends : undefined;
    }, 'two failed attempts');
    await before.sandbox.close();
    const attemptsBeforeRestart = receiver.received.length;

    failing = false;
    const after = await sandboxWith(options);
    // Same data: same demo ids, same webhook, and the history so far.
    expect(after.sandbox.demo).toEqual(before.sandbox.demo);
    const sends = await ended(after, hook.id, achId);
    expect(sends.at(-1)).toMatchObject({ status: 'sent', will_retry: false });
    expect(sends.map((send) => send.attempt_number)).toEqual([...Array(sends.length).keys()]);
    expect(sends.length).toBeGreaterThanOrEqual(3);
    expect(receiver.received.length).toBeGreaterThan(attemptsBeforeRestart);
    // The notification after the restart points at the new address.
    expect(receiver.received.at(-1)?.body.url).toBe(`${after.sandbox.baseUrl}/ach/${achId}`);
  });
});
