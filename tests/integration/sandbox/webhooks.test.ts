/** Webhooks CRUD and their bad input, over real HTTP (conventions.md "Webhooks"). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWith, webhook, type Webhook } from '../../../src/shared/bank/index.ts';
import { startClient, type SandboxClient } from './sandboxClient.ts';

const error = (body: unknown) => (body as { error: string }).error;

describe('sandbox: webhooks CRUD', () => {
  let client: SandboxClient;
  beforeAll(async () => {
    client = await startClient();
  });
  afterAll(async () => {
    await client.sandbox.close();
  });
  const count = async () => ((await client.get('/webhook?page_size=1000')).body as { data: unknown[] }).data.length;
  // Nothing listens on port 9 of loopback: deliveries fail fast and harmlessly.
  const url = 'http://127.0.0.1:9/hook';

  it('creates an enabled webhook and never returns basic_secret', async () => {
    const created = await client.call('POST', '/webhook', {
      body: { event: 'ach.update', url, basic_user: 'bank', basic_secret: 'hunter22', userdata: { team: 'ops' } },
    });
    expect(created.status).toBe(200);
    const hook = created.body as Webhook;
    expect(parseWith(webhook, hook).ok).toBe(true);
    expect(hook).toMatchObject({
      status: 'enabled',
      error: null,
      basic_user: 'bank',
      basic_secret: null,
      userdata: { team: 'ops' },
    });
    expect(hook.id).toMatch(/^wh_/);
    for (const reply of [await client.get(`/webhook/${hook.id}`), await client.get('/webhook')]) {
      expect(reply.text).not.toContain('hunter22');
    }
  });

  it('takes basic_user and basic_secret null as "not set", as the real service does', async () => {
    const created = await client.call('POST', '/webhook', {
      body: { event: 'account.update', url, basic_user: null, basic_secret: null },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ basic_user: null, basic_secret: null, status: 'enabled' });
    const half = await client.call('POST', '/webhook', {
      body: { event: 'account.update', url, basic_user: 'bank', basic_secret: null },
    });
    expect(half.status).toBe(400);
    expect(JSON.stringify(half.body)).toContain('basic_secret');
  });

  it('deletes with Content-Type: application/json and an empty body (204), and still refuses a create without a body', async () => {
    const hook = (await client.call('POST', '/webhook', { body: { event: 'ach.create', url } })).body as Webhook;
    const response = await fetch(`${client.sandbox.baseUrl}/webhook/${hook.id}`, {
      method: 'DELETE',
      headers: { authorization: client.basic, 'content-type': 'application/json' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.headers.get('expires')).toBe('0');
    const bodyless = await fetch(`${client.sandbox.baseUrl}/webhook`, {
      method: 'POST',
      headers: { authorization: client.basic, 'content-type': 'application/json' },
    });
    expect(bodyless.status).toBe(400);
    expect(((await bodyless.json()) as { error: string }).error).toMatch(/body is missing/);
  });

  it('updates with PATCH, disables and re-enables, and deletes with 204', async () => {
    const hook = (await client.call('POST', '/webhook', { body: { event: 'ach.create', url } })).body as Webhook;
    const patched = await client.call('PATCH', `/webhook/${hook.id}`, {
      body: { url: 'http://127.0.0.1:9/other', event: 'ach.update', status: 'disabled' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ url: 'http://127.0.0.1:9/other', event: 'ach.update', status: 'disabled' });
    const enabled = await client.call('PATCH', `/webhook/${hook.id}`, { body: { status: 'enabled' } });
    expect((enabled.body as Webhook).status).toBe('enabled');
    const withSecret = await client.call('PATCH', `/webhook/${hook.id}`, {
      body: { basic_user: 'u', basic_secret: 'sssss' },
    });
    expect(withSecret.body).toMatchObject({ basic_user: 'u', basic_secret: null });
    const cleared = await client.call('PATCH', `/webhook/${hook.id}`, {
      body: { basic_user: null, basic_secret: null },
    });
    expect(cleared.body).toMatchObject({ basic_user: null, basic_secret: null });
    const deleted = await client.call('DELETE', `/webhook/${hook.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await client.get(`/webhook/${hook.id}`)).status).toBe(404);
    expect((await client.call('DELETE', `/webhook/${hook.id}`)).status).toBe(404);
    expect((await client.call('PATCH', `/webhook/${hook.id}`, { body: { status: 'enabled' } })).status).toBe(404);
  });

  const badCreates: [string, unknown, RegExp][] = [
    ['no event', { url }, /event: Invalid input/],
    ['a malformed event', { event: 'ACH-update', url }, /event: must be an event name like ach.update/],
    ['no url', { event: 'ach.update' }, /url: Invalid input/],
    ['a relative url', { event: 'ach.update', url: '/hook' }, /url: must be an absolute http/],
    ['an ftp url', { event: 'ach.update', url: 'ftp://127.0.0.1/x' }, /url: must be an absolute http/],
    [
      'basic_user without basic_secret',
      { event: 'ach.update', url, basic_user: 'x' },
      /basic_secret: must be set together with basic_user/,
    ],
    ['a status (set by the service)', { event: 'ach.update', url, status: 'error' }, /unknown field: "status"/],
    ['an unknown field', { event: 'ach.update', url, secret: 'x' }, /unknown field: "secret"/],
    ['a url of the wrong type', { event: 'ach.update', url: 42 }, /url: Invalid input: expected string/],
  ];
  for (const [what, body, message] of badCreates) {
    it(`refuses a webhook with ${what} (400, nothing written)`, async () => {
      const before = await count();
      const reply = await client.call('POST', '/webhook', { body });
      expect(reply.status).toBe(400);
      expect(error(reply.body)).toMatch(message);
      expect(await count()).toBe(before);
    });
  }

  const badUpdates: [string, unknown, RegExp][] = [
    ['status error', { status: 'error' }, /status: must be enabled or disabled \(error is set only by the service\)/],
    ['an empty update', {}, /must change at least one field/],
    ['only basic_user on a webhook without a secret', { basic_user: 'x' }, /set together or cleared together/],
    ['an unknown field', { colour: 'red' }, /unknown field: "colour"/],
  ];
  for (const [what, body, message] of badUpdates) {
    it(`refuses a PATCH with ${what}, changing nothing`, async () => {
      const hook = (await client.call('POST', '/webhook', { body: { event: 'ach.update', url } })).body as Webhook;
      const reply = await client.call('PATCH', `/webhook/${hook.id}`, { body });
      expect(reply.status).toBe(400);
      expect(error(reply.body)).toMatch(message);
      expect((await client.get(`/webhook/${hook.id}`)).body).toEqual(hook);
    });
  }
});
