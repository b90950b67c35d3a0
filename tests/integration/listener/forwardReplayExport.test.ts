/** Forwarding to a local handler, replaying kept requests, exporting traffic, and hydrating from the bank. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { bankClientPort } from '../../../src/main/services/listener/bankClientPort.ts';
import {
  basicHeader,
  eventually,
  notificationOf,
  postNotification,
  startTestListener,
  type TestListener,
} from './support.ts';

interface Handled {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local handler (the developer's app) that records what it gets and answers 201. */
async function startHandler(answer = 201): Promise<{ url: string; handled: Handled[]; server: Server }> {
  const handled: Handled[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handled.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(answer, { 'content-type': 'text/plain' });
      response.end(`handled ${handled.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, handled, server };
}

let current: TestListener | null = null;
const servers: Server[] = [];
afterEach(async () => {
  await current?.close();
  current = null;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('forwarding', () => {
  it('forwards each request to the handler after answering, and keeps its status, excerpt and latency', async () => {
    const handler = await startHandler(201);
    servers.push(handler.server);
    current = await startTestListener({
      basic: { user: 'bank', secret: 's' },
      settings: { forwardTo: handler.url + '/webhooks' },
    });
    const answer = await postNotification(current.url + '/in', notificationOf('ach_1'), {
      authorization: basicHeader('bank', 's'),
    });
    expect(answer.status).toBe(200);
    await current.listener.idle();
    expect(handler.handled).toHaveLength(1);
    expect(handler.handled[0]).toMatchObject({
      method: 'POST',
      url: '/webhooks',
      body: JSON.stringify(notificationOf('ach_1')),
    });
    // The handler verifies like the bank's receiver would: it gets the header as sent (issue 27).
    expect(handler.handled[0]?.headers.authorization).toBe(basicHeader('bank', 's'));
    expect(handler.handled[0]?.headers['x-ledgerdesk-verdict']).toBe('ok');
    expect(handler.handled[0]?.headers['x-ledgerdesk-request']).toBe(String(answer.requestId));
    const [delivery] = current.listener.deliveries(answer.requestId);
    expect(delivery).toMatchObject({ kind: 'forward', status: 201, excerpt: 'handled 1', error: null });
    expect(delivery?.durationMs).toBeGreaterThanOrEqual(0);
    const pushed = current.batches.flatMap((batch) => batch.items.filter((item) => item.type === 'delivery'));
    expect(pushed).toHaveLength(1);
  });

  it('records a handler that is not running as a failed forward, not a crash', async () => {
    const handler = await startHandler();
    const deadUrl = handler.url;
    handler.server.close();
    current = await startTestListener({ settings: { forwardTo: deadUrl } });
    const answer = await postNotification(current.url + '/in', notificationOf('ach_1'));
    expect(answer.status).toBe(200);
    await current.listener.idle();
    const [delivery] = current.listener.deliveries(answer.requestId);
    expect(delivery?.status).toBeNull();
    expect(delivery?.error).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('forwards a kept request again on demand', async () => {
    const handler = await startHandler(200);
    servers.push(handler.server);
    current = await startTestListener();
    const answer = await postNotification(current.url + '/in', notificationOf('ach_5'));
    const delivery = await current.listener.forward(answer.requestId, handler.url + '/again');
    expect(delivery).toMatchObject({ status: 200, kind: 'forward' });
    // Exactly the address given (issue 38): the received path /in is not added unless asked.
    expect(handler.handled[0]).toMatchObject({ url: '/again', body: JSON.stringify(notificationOf('ach_5')) });
    expect(handler.handled[0]?.headers['x-ledgerdesk-verdict']).toBe('not_configured');
  });
});

describe('replay', () => {
  it('replays one request edited first; Basic auth from the SecretStore only to the listener itself', async () => {
    const handler = await startHandler(202);
    servers.push(handler.server);
    current = await startTestListener({ basic: { user: 'bank', secret: 'from-keychain' } });
    const answer = await postNotification(current.url + '/in', notificationOf('ach_1'), {
      authorization: basicHeader('bank', 'from-keychain'),
    });
    const edit = { headers: { 'x-extra': 'yes' }, body: JSON.stringify(notificationOf('ach_edited')) };
    // A handler is not the listener: its secret is refused there, and nothing is sent.
    await expect(
      current.listener.replay({
        requestIds: [answer.requestId],
        url: handler.url + '/replayed',
        basicAuth: { user: 'bank', secretAccount: 'listener:default' },
        edit,
      }),
    ).rejects.toThrow(/sent only to the listener itself/);
    expect(handler.handled).toEqual([]);
    const [delivery] = await current.listener.replay({
      requestIds: [answer.requestId],
      url: handler.url + '/replayed',
      edit,
    });
    expect(delivery).toMatchObject({ kind: 'replay', status: 202, requestId: answer.requestId });
    expect(handler.handled[0]).toMatchObject({ url: '/replayed', body: JSON.stringify(notificationOf('ach_edited')) });
    expect(handler.handled[0]?.headers.authorization).toBeUndefined();
    expect(handler.handled[0]?.headers['x-extra']).toBe('yes');
    // Back to the listener itself, signed: it verifies.
    const [signed] = await current.listener.replay({
      requestIds: [answer.requestId],
      // The exact address the listener is bound to (review N4: not another loopback name).
      url: current.url + '/in',
      basicAuth: { user: 'bank', secretAccount: 'listener:default' },
      edit,
    });
    expect(signed).toMatchObject({ kind: 'replay', status: 200 });
    expect(current.listener.requests({ objectId: 'ach_edited' })[0]?.verdict).toBe('ok');
  });

  it('replays a filtered set, oldest first, without ever re-sending the redacted header', async () => {
    const handler = await startHandler(200);
    servers.push(handler.server);
    current = await startTestListener({ basic: { user: 'bank', secret: 's' } });
    for (const id of ['ach_1', 'ach_2', 'ach_3']) {
      await postNotification(current.url + '/in', notificationOf(id), { authorization: basicHeader('bank', 's') });
    }
    await postNotification(current.url + '/in', notificationOf('card_1', 'card.update'));
    const deliveries = await current.listener.replay({ filter: { event: 'ach.update' }, url: handler.url });
    expect(deliveries).toHaveLength(3);
    expect(handler.handled.map((handled) => (JSON.parse(handled.body) as { id: string }).id)).toEqual([
      'ach_1',
      'ach_2',
      'ach_3',
    ]);
    expect(handler.handled.every((handled) => handled.headers.authorization === undefined)).toBe(true);
  });

  it('replays into the listener itself, keeping each path, and verifies with the applied credentials', async () => {
    current = await startTestListener({ basic: { user: 'bank', secret: 's' } });
    const first = await postNotification(current.url + '/hooks/ach', notificationOf('ach_1'));
    expect(current.listener.request(first.requestId)?.verdict).toBe('missing_header');
    await current.listener.replay({
      requestIds: [first.requestId],
      url: current.url,
      appendPath: true,
      basicAuth: { user: 'bank', secretAccount: 'listener:default' },
    });
    const [replayed] = current.listener.requests({ limit: 1 });
    expect(replayed).toMatchObject({ path: '/hooks/ach', verdict: 'ok', objectId: 'ach_1', occurrence: 2 });
  });

  it('refuses a secret account that holds nothing, and a set that matches nothing', async () => {
    current = await startTestListener();
    await postNotification(current.url + '/in', notificationOf('ach_1'));
    await expect(
      current.listener.replay({ url: current.url, basicAuth: { user: 'u', secretAccount: 'listener:none' } }),
    ).rejects.toThrow(/No secret is stored as listener:none/);
    await expect(
      current.listener.replay({ url: 'http://127.0.0.1:1', filter: { event: 'nothing.update' } }),
    ).rejects.toThrow(/nothing was replayed/);
  });
});

describe('export', () => {
  it('exports JSONL with every request and no secret', async () => {
    current = await startTestListener({ basic: { user: 'bank', secret: 'never-exported' } });
    for (const id of ['ach_1', 'ach_2']) {
      await postNotification(current.url + '/in', notificationOf(id), {
        authorization: basicHeader('bank', 'never-exported'),
      });
    }
    const text = [...current.listener.exportTraffic({ format: 'jsonl' })].join('');
    const lines = text.trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { objectId: string }).objectId)).toEqual(['ach_1', 'ach_2']);
    expect(text).not.toContain('never-exported');
    expect(text).not.toContain(Buffer.from('bank:never-exported').toString('base64'));
  });

  it('exports cURL commands that re-send the request when run', async () => {
    current = await startTestListener({ basic: { user: 'bank', secret: "it's secret" } });
    const first = await postNotification(
      current.url + '/hooks/x?n=1',
      { ...notificationOf('ach_1'), note: "it's" },
      {
        authorization: basicHeader('bank', "it's secret"),
      },
    );
    const script = [...current.listener.exportTraffic({ format: 'curl', filter: { ids: [first.requestId] } })].join('');
    expect(script).not.toContain("it's secret");
    // Asynchronously: the listener answering curl runs in this process.
    await promisify(execFile)('sh', ['-c', script], {
      env: { ...process.env, LEDGERDESK_BASIC_SECRET: "it's secret" },
    });
    const [resent] = current.listener.requests({ limit: 1 });
    expect(resent?.id).not.toBe(first.requestId);
    const kept = current.listener.request(resent?.id ?? 0);
    expect(kept).toMatchObject({ path: '/hooks/x', query: 'n=1', verdict: 'ok', objectId: 'ach_1' });
    expect(kept?.bodyText).toBe(current.listener.request(first.requestId)?.bodyText);
  });
});

describe('hydration', () => {
  async function startBank(): Promise<{ url: string; server: Server; fetched: string[] }> {
    const fetched: string[] = [];
    const server = createServer((request, response) => {
      fetched.push(request.url ?? '');
      if (request.headers.authorization !== basicHeader('key', 'keysecret')) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: 'Unauthorized.' }));
        return;
      }
      const id = (request.url ?? '').split('/').pop() ?? '';
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id, status: 'sent', amount: '12.34' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, fetched };
  }

  it('keeps the object as the bank returns it beside each verified notification', async () => {
    const bank = await startBank();
    servers.push(bank.server);
    current = await startTestListener({
      basic: { user: 'bank', secret: 's' },
      bank: bankClientPort({
        profileName: 'test bank',
        authScheme: 'basic',
        baseUrl: bank.url,
        authorization: () => Promise.resolve({ header: basicHeader('key', 'keysecret'), expiresAt: null }),
      }),
    });
    const verified = await postNotification(current.url + '/in', notificationOf('ach_1', 'ach.update', bank.url), {
      authorization: basicHeader('bank', 's'),
    });
    const forged = await postNotification(current.url + '/in', notificationOf('ach_2', 'ach.update', bank.url), {
      authorization: basicHeader('bank', 'guess'),
    });
    const elsewhere = await postNotification(
      current.url + '/in',
      notificationOf('ach_3', 'ach.update', 'http://127.0.0.1:9'),
      { authorization: basicHeader('bank', 's') },
    );
    await current.listener.idle();
    expect(current.listener.request(verified.requestId)).toMatchObject({
      snapshot: { id: 'ach_1', status: 'sent', amount: '12.34' },
      snapshotError: null,
    });
    expect(current.listener.request(verified.requestId)?.snapshotAt).not.toBeNull();
    // A forged notification never makes the listener call the bank.
    expect(current.listener.request(forged.requestId)).toMatchObject({ snapshot: null, snapshotAt: null });
    // Nor does an address outside the bank's.
    expect(current.listener.request(elsewhere.requestId)?.snapshotError).toMatch(/not under the bank's address/);
    expect(bank.fetched).toEqual(['/ach/ach_1']);
    await eventually(() =>
      (current?.batches ?? []).some((batch) => batch.items.some((item) => item.type === 'snapshot' && item.ok)),
    );
  });

  it('never calls the bank for a notification nobody verified: with no expected credentials the verdict stays not_configured', async () => {
    const bank = await startBank();
    servers.push(bank.server);
    current = await startTestListener({
      bank: bankClientPort({
        profileName: 'test bank',
        authScheme: 'basic',
        baseUrl: bank.url,
        authorization: () => Promise.resolve({ header: basicHeader('key', 'keysecret'), expiresAt: null }),
      }),
    });
    const unchecked = await postNotification(current.url + '/in', notificationOf('ach_1', 'ach.update', bank.url), {
      authorization: basicHeader('anyone', 'anything'),
    });
    const bare = await postNotification(current.url + '/in', notificationOf('ach_2', 'ach.update', bank.url));
    await current.listener.idle();
    for (const answer of [unchecked, bare]) {
      expect(answer.status).toBe(200);
      expect(current.listener.request(answer.requestId)).toMatchObject({
        verdict: 'not_configured',
        snapshot: null,
        snapshotAt: null,
        snapshotError: null,
      });
    }
    expect(bank.fetched).toEqual([]);
  });
});
