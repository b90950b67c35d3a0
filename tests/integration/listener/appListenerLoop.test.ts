/**
 * The app's listener loop (issue 27, item 6) through the real router, services and embedded
 * sandbox: one call registers several events (each audited, each in the cached webhook list at
 * once, so the Webhooks screen shows them before any sync); a bad list is refused by name and
 * registers nothing; per webhook, the 24-hour delivery figures computed in main agree with the
 * bank's own send log; a trigger's notifications are told "no webhook subscribed", "not yet",
 * then "reached" with their verdict; and forwarding unverified posts is a listener setting,
 * audited and in force.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookSendResponse } from '../../../src/shared/bank/index.ts';
import { LISTENER_REGISTER_MAX_EVENTS } from '../../../src/shared/ipc/domains/listener.ts';
import { syncProgress } from '../../../src/shared/ipc/domains/sync.ts';
import { openAppOverIpc, type AppOverIpc } from '../../support/app.ts';
import { refusal as refusalOf } from '../../support/refusal.ts';

let app: AppOverIpc;

beforeAll(async () => {
  app = await openAppOverIpc('listener-loop');
  await app.api.listener.start({ port: 0 });
});

afterAll(async () => {
  await app.close();
});

/** Every send of a webhook, as the bank lists it (paged to the end). */
async function bankSendsOf(webhookId: string): Promise<WebhookSendResponse[]> {
  const sends: WebhookSendResponse[] = [];
  let page: string | null = null;
  do {
    const query = new URLSearchParams({ webhook_id: webhookId, page_size: '100', ...(page === null ? {} : { page }) });
    const answer = await fetch(`${app.sandbox.baseUrl}/webhook_send?${query.toString()}`, {
      headers: { authorization: `Bearer ${app.sandbox.bearerToken}` },
    });
    const body = (await answer.json()) as { data: WebhookSendResponse[]; page_next?: string | null };
    sends.push(...body.data);
    page = body.page_next ?? null;
  } while (page !== null);
  return sends;
}

/**
 * A kept request's forward records, once there is one. Forwards are written after the answer
 * and pushed to no window, so this asks again every few milliseconds, a bounded number of times.
 */
async function forwardsOf(requestId: string): Promise<{ url: string; status: number | null; error: string | null }[]> {
  for (let asked = 0; asked < 400; asked += 1) {
    const { forwards } = await app.api.listener.getRequest({ id: requestId });
    if (forwards.length > 0) return forwards;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`request ${requestId} has no forward record after 400 looks`);
}

async function syncSendLog(): Promise<void> {
  const { api, profileId } = app;
  const started = await api.sync.start({ profileId, job: { kind: 'webhookSends' } });
  // A finished job leaves sync.status: its end is read from the progress main pushed.
  const finished = await app.untilPushed(() => {
    const ended = app
      .pushedOn('sync', 'progress')
      .map((payload) => syncProgress.parse(payload))
      .find((progress) => progress.jobId === started.jobId && progress.state !== 'running');
    return Promise.resolve(ended);
  });
  expect(finished.state).toBe('done');
}

describe('the app’s listener: several events at once, figures, reach, forwarding', () => {
  it('registers three events in one call: three webhooks, three audit rows, all in the cached list at once', async () => {
    const { api, profileId } = app;
    const before = (await api.webhooks.list({ profileId, limit: 1000 })).rows.length;
    const answer = await api.listener.register({
      profileId,
      events: ['ach.update', 'ach.create', 'account.update'],
    });
    expect(answer.failed).toEqual([]);
    expect(answer.webhooks.map((webhook) => webhook.event)).toEqual(['ach.update', 'ach.create', 'account.update']);
    expect(answer.webhook.id).toBe(answer.webhooks[0]?.id);
    // Each its own path and Basic user on the listener.
    expect(new Set(answer.webhooks.map((webhook) => webhook.url)).size).toBe(3);
    expect(new Set(answer.webhooks.map((webhook) => webhook.basic_user)).size).toBe(3);
    expect(answer.webhooks.every((webhook) => webhook.basic_secret === null)).toBe(true);

    const audit = await api.audit.list({ profileId, action: 'webhook.register' });
    expect(audit.rows.map((entry) => [entry.target, entry.result]).sort()).toEqual(
      answer.webhooks.map((webhook) => [webhook.id, 'ok']).sort(),
    );
    const registered = (await api.listener.registrations()).registrations.map((row) => row.webhookId);
    expect(registered).toEqual(expect.arrayContaining(answer.webhooks.map((webhook) => webhook.id)));
    // The Webhooks screen reads the cache: no sync has run, yet it lists them.
    const cached = await api.webhooks.list({ profileId, limit: 1000 });
    expect(cached.rows.length).toBe(before + 3);
    expect(cached.rows.map((row) => row.id)).toEqual(expect.arrayContaining(answer.webhooks.map((w) => w.id)));

    // Removing one drops it from the cached list as well.
    const removed = answer.webhooks[2]?.id ?? '';
    await api.listener.unregister({ profileId, webhookId: removed });
    expect((await api.webhooks.list({ profileId, limit: 1000 })).rows.map((row) => row.id)).not.toContain(removed);
  });

  it('refuses an empty list, a duplicate, too many events, or event and events together, and registers nothing', async () => {
    const { api, profileId } = app;
    const registrations = (await api.listener.registrations()).registrations.length;
    const audited = (await api.audit.list({ profileId, action: 'webhook.register' })).rows.length;

    expect(await refusalOf(api.listener.register({ profileId, events: [] }))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('choose at least one event') as unknown,
    });
    expect(await refusalOf(api.listener.register({ profileId, events: ['ach.update', 'ach.update'] }))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('ach.update is chosen twice') as unknown,
    });
    const many = Array.from({ length: LISTENER_REGISTER_MAX_EVENTS + 1 }, (_, n) => `thing${String(n)}.update`);
    expect(await refusalOf(api.listener.register({ profileId, events: many }))).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining(`at most ${String(LISTENER_REGISTER_MAX_EVENTS)} events`) as unknown,
    });
    expect(
      await refusalOf(api.listener.register({ profileId, event: 'ach.update', events: ['ach.create'] })),
    ).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('either event or events') as unknown });
    expect(await refusalOf(api.listener.register({ profileId, events: ['not an event'] }))).toMatchObject({
      code: 'invalid_input',
    });

    expect((await api.listener.registrations()).registrations).toHaveLength(registrations);
    expect((await api.audit.list({ profileId, action: 'webhook.register' })).rows).toHaveLength(audited);
  });

  it('tells a trigger’s notifications apart: no webhook subscribed, then reached and verified', async () => {
    const { api, profileId } = app;
    const since = new Date().toISOString();
    // Nothing is subscribed to card.update.
    const unheard = await api.listener.reach({
      profileId,
      since,
      notifications: [{ event: 'card.update', objectId: 'card_nothing' }],
    });
    expect(unheard.notifications[0]).toMatchObject({ state: 'no_webhook', subscribed: 0, requestId: null });

    const result = await api.trigger.run({ profileId, request: { event: 'ach.create' } });
    const caused = result.caused.map((notification) => ({ event: notification.event, objectId: notification.id }));
    expect(caused.length).toBeGreaterThan(0);
    const reached = await app.untilPushed(async () => {
      const answer = await api.listener.reach({ profileId, since, notifications: caused });
      return answer.notifications.every((entry) => entry.state !== 'not_yet') ? answer.notifications : undefined;
    });
    for (const entry of reached) {
      // ach.create and ach.update are registered above (account.update was removed again).
      if (entry.event === 'ach.create' || entry.event === 'ach.update') {
        expect(entry).toMatchObject({ state: 'reached', verdict: 'ok', toListener: 1 });
        const request = await api.listener.getRequest({ id: entry.requestId ?? '' });
        expect([request.event, request.objectId]).toEqual([entry.event, entry.objectId]);
      } else {
        expect(entry.state).toBe('no_webhook');
      }
    }
    expect(reached.some((entry) => entry.state === 'reached')).toBe(true);

    // A time after every arrival: not received since then, though subscribed.
    const later = await api.listener.reach({
      profileId,
      since: new Date(Date.now() + 60_000).toISOString(),
      notifications: caused.filter((entry) => entry.event === 'ach.create'),
    });
    expect(later.notifications[0]).toMatchObject({ state: 'not_yet', toListener: 1 });
  });

  it('computes each webhook’s 24-hour figures in main, agreeing with the bank’s send log', async () => {
    const { api, profileId } = app;
    const [webhook] = (await api.listener.register({ profileId, events: ['wire.update'] })).webhooks;
    // ach.update is registered once (by the first test, or here when this test runs alone).
    const flaky =
      (await api.listener.registrations()).registrations.find((row) => row.event === 'ach.update') ??
      (await api.listener.register({ profileId, events: ['ach.update'] })).webhooks.map((made) => ({
        webhookId: made.id,
      }))[0];
    // Each ach.update fails twice, then is taken: the bank retries.
    await api.listener.setRules({
      rules: [
        {
          id: 'flaky',
          match: { event: 'ach.update' },
          response: { kind: 'failTimes', times: 2, status: 500, thenStatus: 200 },
        },
      ],
    });
    const moved = await api.trigger.run({ profileId, request: { event: 'ach.update', status: 'processing' } });
    const ids = [flaky?.webhookId ?? '', webhook?.id ?? ''];
    // Three arrivals (two refused, the third taken), the last labelled from the bank's send log:
    // by then the bank has recorded every attempt.
    const arrivals = await app.untilPushed(async () => {
      const page = await api.listener.listRequests({ objectId: moved.objectId, event: 'ach.update', limit: 50 });
      const newest = page.rows[0];
      return page.rows.length === 3 && newest?.status === 200 && newest.label?.source === 'bank'
        ? page.rows
        : undefined;
    });
    expect(arrivals.map((row) => row.status)).toEqual([200, 500, 500]);
    await api.listener.setRules({ rules: [] });
    await syncSendLog();

    const { stats, since } = await api.webhookDeliveries.stats({ profileId, webhookIds: ids });
    for (const [index, webhookId] of ids.entries()) {
      const sends = (await bankSendsOf(webhookId)).filter((send) => (send.created_at ?? '') >= since);
      expect(stats[index]).toMatchObject({
        webhookId,
        webhookStatus: 'enabled',
        attempts: sends.length,
        delivered: sends.filter((send) => send.status === 'sent').length,
        retries: sends.filter((send) => (send.attempt_number ?? 0) > 0).length,
      });
    }
    expect(stats[0]?.retries).toBeGreaterThanOrEqual(2);
    expect(stats[0]?.delivered).toBeLessThan(stats[0]?.attempts ?? 0);
    expect(stats[0]?.lastAttempt?.status).toBe('sent');
    // wire.update was never caused: nothing attempted.
    expect(stats[1]).toMatchObject({ attempts: 0, lastAttempt: null, retrying: 0 });

    expect(await refusalOf(api.webhookDeliveries.stats({ profileId: 'prof_nobody', webhookIds: ids }))).toMatchObject({
      code: 'not_found',
    });
  });

  it('forwards unverified posts by default, marked; switched off (audited), keeps them unforwarded', async () => {
    const { api } = app;
    const received: { verdict: string | undefined; body: string }[] = [];
    const handler = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          verdict: request.headers['x-ledgerdesk-verdict'] as string | undefined,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', resolve));
    const handlerUrl = `http://127.0.0.1:${String((handler.address() as AddressInfo).port)}/hook`;
    try {
      expect((await api.listener.getConfig()).forwardUnverified).toBe(true);
      await api.listener.configure({ forwardTo: handlerUrl });
      const listenerUrl = (await api.listener.status()).url ?? '';
      /** Posts without credentials and waits until the listener has kept it and tried (or not) to forward. */
      const postUnverified = async (marker: string): Promise<string> => {
        await fetch(listenerUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: marker });
        const kept = await app.untilPushed(async () => {
          const row = (await api.listener.listRequests({ limit: 5 })).rows[0];
          return row !== undefined && row.bodyBytes === marker.length && row.status !== null ? row : undefined;
        });
        expect(kept.verdict).not.toBe('ok');
        return kept.id;
      };

      const first = await postUnverified('{"n":"forwarded"}');
      expect((await forwardsOf(first))[0]).toMatchObject({ url: handlerUrl, status: 200 });
      expect(received).toEqual([{ verdict: expect.any(String) as unknown, body: '{"n":"forwarded"}' }]);
      expect(received[0]?.verdict).not.toBe('ok');

      const changed = await api.listener.configure({ forwardUnverified: false });
      expect(changed.forwardUnverified).toBe(false);
      const audit = await api.audit.list({ action: 'listener.configure' });
      expect(audit.rows.map((entry) => entry.message)).toContain('unverified posts not forwarded');
      const second = await postUnverified('{"n":"not forwarded"}');
      // Kept, and recorded as not forwarded: the handler never saw it.
      const [skipped] = await forwardsOf(second);
      expect(skipped?.status).toBeNull();
      expect(skipped?.error).toMatch(/unverified requests are not forwarded/);
      expect((await api.listener.getRequest({ id: second })).body).toBe('{"n":"not forwarded"}');
      expect(received.map((entry) => entry.body)).toEqual(['{"n":"forwarded"}']);

      await api.listener.configure({ forwardUnverified: true });
      expect((await api.listener.getConfig()).forwardUnverified).toBe(true);
      expect((await api.audit.list({ action: 'listener.configure' })).rows.map((entry) => entry.message)).toContain(
        'unverified posts forwarded, marked by X-Ledgerdesk-Verdict',
      );
      expect(await refusalOf(api.listener.configure({ forwardUnverified: 'yes' as unknown as boolean }))).toMatchObject(
        { code: 'invalid_input' },
      );
    } finally {
      await api.listener.configure({ forwardTo: null });
      await new Promise((resolve) => handler.close(resolve));
    }
  });
});
