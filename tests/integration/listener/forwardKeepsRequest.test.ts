/**
 * Forwarding keeps the request (issue 27): a handler that checks Basic auth, as a real
 * integrator's does, receives the method, the path and query under the forward address, the
 * body bytes and every header as the bank sent it (Authorization included), minus the
 * connection's own headers and Host, plus X-Ledgerdesk-Verdict and X-Ledgerdesk-Request. A
 * forged post is forwarded marked (or not at all with forwardUnverified off), and cannot
 * claim a verdict of its own. Also through `npm run listen -- --forward-to`.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forwardUrl } from '../../../src/main/services/listener/forwardRequest.ts';
import {
  basicHeader,
  eventually,
  notificationOf,
  send,
  startTestListener,
  temporaryFolder,
  type TestListener,
} from './support.ts';

interface Handled {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  answered: number;
}

/** A webhook handler as an integrator writes one: 401 unless the Basic credentials are the bank's. */
async function basicCheckingHandler(
  user: string,
  secret: string,
): Promise<{ server: Server; url: string; handled: Handled[] }> {
  const handled: Handled[] = [];
  const expected = basicHeader(user, secret);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answered = request.headers.authorization === expected ? 200 : 401;
      handled.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        body: Buffer.concat(chunks),
        answered,
      });
      response
        .writeHead(answered, { 'content-type': 'text/plain' })
        .end(answered === 200 ? 'verified' : 'who are you?');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, handled };
}

const servers: Server[] = [];
let current: TestListener | null = null;
const cleanups: (() => void)[] = [];

afterEach(async () => {
  await current?.close();
  current = null;
  for (const server of servers.splice(0)) server.close();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('forwardUrl', () => {
  it.each([
    ['http://127.0.0.1:3000/webhooks', '/webhooks/abc', 'a=1'],
    ['http://127.0.0.1:3000', '/in', null],
    ['http://127.0.0.1:3000/h?token=t', '/in', 'a=1'],
  ])('forwards to exactly %s, whatever the received path (%s ? %s)', (target, path, query) => {
    // Issue 38: the README's http://localhost:3000/webhooks receives /webhooks, not /webhooks/webhooks/….
    expect(forwardUrl(target, path, query)).toBe(target);
  });

  it.each([
    ['http://127.0.0.1:3000/hook', '/', null, 'http://127.0.0.1:3000/hook'],
    ['http://127.0.0.1:3000/hook', '/webhooks/abc', 'a=1&b=2', 'http://127.0.0.1:3000/hook/webhooks/abc?a=1&b=2'],
    ['http://127.0.0.1:3000/hook/', '/in', null, 'http://127.0.0.1:3000/hook/in'],
    ['http://127.0.0.1:3000', '/in', 'x=%20y', 'http://127.0.0.1:3000/in?x=%20y'],
    ['http://127.0.0.1:3000/h?token=t', '/in', 'a=1', 'http://127.0.0.1:3000/h/in?token=t&a=1'],
  ])('with the received path asked for: %s + %s ? %s → %s', (target, path, query, expected) => {
    expect(forwardUrl(target, path, query, true)).toBe(expected);
  });
});

describe('forwarding keeps the request', () => {
  it('a verified notification reaches a Basic-checking handler with every header, path, query and body byte', async () => {
    const handler = await basicCheckingHandler('bank', 's3cret');
    servers.push(handler.server);
    current = await startTestListener({
      basic: { user: 'bank', secret: 's3cret' },
      settings: { forwardTo: `${handler.url}/handler`, forwardAppendPath: true },
    });
    const body = Buffer.from(JSON.stringify(notificationOf('ach_kept')) + '\n');
    const answer = await send(`${current.url}/webhooks/in?source=bank&try=1`, {
      headers: {
        authorization: basicHeader('bank', 's3cret'),
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'bank-webhooks/1.0',
        'x-request-id': 'req-42',
        'x-multi': ['one', 'two'],
        'x-per-connection': 'drop me',
        connection: 'keep-alive, x-per-connection',
        'keep-alive': 'timeout=5',
        'x-ledgerdesk-verdict': 'forged',
      },
      body,
    });
    expect(answer.status).toBe(200);
    await current.listener.idle();
    expect(handler.handled).toHaveLength(1);
    const [seen] = handler.handled as [Handled];
    expect(seen.answered).toBe(200);
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/handler/webhooks/in?source=bank&try=1');
    expect(seen.body.equals(body)).toBe(true);
    expect(seen.headers).toMatchObject({
      authorization: basicHeader('bank', 's3cret'),
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'bank-webhooks/1.0',
      'x-request-id': 'req-42',
      'x-ledgerdesk-verdict': 'ok',
      'x-ledgerdesk-request': String(answer.requestId),
    });
    // A repeated header arrives with its values in order, joined as RFC 9110 §5.3 allows (fetch joins them).
    expect(seen.headers['x-multi']).toBe('one, two');
    // The connection's own headers, and the listener's Host, stay behind; one verdict only, the listener's.
    expect(seen.headers['x-per-connection']).toBeUndefined();
    expect(seen.headers['keep-alive']).toBeUndefined();
    expect(seen.headers.host).toBe(new URL(handler.url).host);
    expect(seen.rawHeaders.filter((name) => name.toLowerCase() === 'x-ledgerdesk-verdict')).toHaveLength(1);
    const [delivery] = current.listener.deliveries(answer.requestId);
    expect(delivery).toMatchObject({ kind: 'forward', status: 200, excerpt: 'verified', error: null });
  });

  it('forwards unverified posts marked with their verdict (the handler refuses them), unless told not to', async () => {
    const handler = await basicCheckingHandler('bank', 's3cret');
    servers.push(handler.server);
    current = await startTestListener({
      basic: { user: 'bank', secret: 's3cret' },
      settings: { forwardTo: handler.url },
    });
    const forged = await send(`${current.url}/`, {
      headers: { 'content-type': 'application/json', 'x-ledgerdesk-verdict': 'ok' },
      body: JSON.stringify(notificationOf('ach_forged')),
    });
    const wrong = await send(`${current.url}/`, {
      headers: { 'content-type': 'application/json', authorization: basicHeader('bank', 'guess') },
      body: JSON.stringify(notificationOf('ach_wrong')),
    });
    await current.listener.idle();
    const verdicts = handler.handled.map((entry) => [
      entry.headers['x-ledgerdesk-request'],
      entry.headers['x-ledgerdesk-verdict'],
      entry.answered,
    ]);
    expect(verdicts).toEqual(
      expect.arrayContaining([
        [String(forged.requestId), 'missing_header', 401],
        [String(wrong.requestId), 'wrong_secret', 401],
      ]),
    );
    expect(
      handler.handled.find((entry) => entry.headers['x-ledgerdesk-request'] === String(wrong.requestId))?.headers
        .authorization,
    ).toBe(basicHeader('bank', 'guess'));

    current.listener.configure({ forwardUnverified: false });
    const before = handler.handled.length;
    const skipped = await send(`${current.url}/`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(notificationOf('ach_skipped')),
    });
    const verified = await send(`${current.url}/`, {
      headers: { 'content-type': 'application/json', authorization: basicHeader('bank', 's3cret') },
      body: JSON.stringify(notificationOf('ach_verified')),
    });
    await current.listener.idle();
    expect(handler.handled.slice(before).map((entry) => entry.headers['x-ledgerdesk-request'])).toEqual([
      String(verified.requestId),
    ]);
    expect(current.listener.deliveries(skipped.requestId)).toEqual([
      expect.objectContaining({
        kind: 'forward',
        status: null,
        error: 'skipped: verdict missing_header, and unverified requests are not forwarded',
      }),
    ]);
  });

  it('marks not_configured when the listener expects no credentials, and forwards again on demand with the header made from the keychain', async () => {
    const handler = await basicCheckingHandler('bank', 's3cret');
    servers.push(handler.server);
    current = await startTestListener({ settings: { forwardTo: handler.url } });
    const open = await send(`${current.url}/`, {
      headers: { 'content-type': 'application/json', authorization: basicHeader('bank', 's3cret') },
      body: JSON.stringify(notificationOf('ach_open')),
    });
    await current.listener.idle();
    expect(handler.handled[0]?.headers['x-ledgerdesk-verdict']).toBe('not_configured');
    // As received: the handler still sees (and accepts) the bank's header.
    expect(handler.handled[0]?.answered).toBe(200);
    // Kept requests hold no secret: a kept request whose verdict was not ok is forwarded without it.
    const again = await current.listener.forward(open.requestId, `${handler.url}/again`);
    expect(again).toMatchObject({ status: 401 });
    expect(handler.handled[1]?.headers.authorization).toBeUndefined();

    await current.listener.setCredentials('bank', 's3cret');
    const verified = await send(`${current.url}/in?q=1`, {
      headers: { 'content-type': 'application/json', authorization: basicHeader('bank', 's3cret') },
      body: JSON.stringify(notificationOf('ach_verified')),
    });
    await current.listener.idle();
    // On demand, with the received path asked for (the drawer's Forward uses the setting's choice).
    const onDemand = await current.listener.forward(verified.requestId, `${handler.url}/again`, true);
    expect(onDemand).toMatchObject({ status: 200, excerpt: 'verified' });
    expect(handler.handled.at(-1)).toMatchObject({ url: '/again/in?q=1' });
    expect(handler.handled.at(-1)?.headers['x-ledgerdesk-verdict']).toBe('ok');
  });
});

describe('npm run listen -- --forward-to', () => {
  const cli = join(import.meta.dirname, '..', '..', '..', 'src', 'main', 'cli', 'listen', 'listen.ts');

  async function runListen(args: string[]): Promise<{ url: string; lines: string[]; stop: () => Promise<void> }> {
    const temporary = temporaryFolder();
    cleanups.push(() => {
      temporary.remove();
    });
    const child = spawn(process.execPath, [cli, '--port', '0', '--json', '--data', temporary.folder, ...args]);
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const lines: string[] = [];
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      pending += text;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      lines.push(...parts);
    });
    const exited = new Promise<void>((resolve) => {
      child.on('exit', () => {
        resolve();
      });
    });
    await eventually(() => lines.length > 0 || child.exitCode !== null);
    const first = JSON.parse(lines[0] ?? '{}') as { listening?: string };
    return {
      url: first.listening ?? '',
      lines,
      async stop() {
        child.kill('SIGINT');
        await exited;
      },
    };
  }

  it('forwards as received to a Basic-checking handler; --forward-verified-only leaves forged posts out', async () => {
    const handler = await basicCheckingHandler('bank', 's3cret');
    servers.push(handler.server);
    const listen = await runListen([
      '--basic',
      'bank:s3cret',
      '--forward-to',
      `${handler.url}/hook`,
      '--forward-append-path',
      '--forward-verified-only',
    ]);
    const real = await send(`${listen.url}/n`, {
      headers: { 'content-type': 'application/json', authorization: basicHeader('bank', 's3cret') },
      body: JSON.stringify(notificationOf('ach_real')),
    });
    const forged = await send(`${listen.url}/n`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(notificationOf('ach_forged')),
    });
    expect([real.status, forged.status]).toEqual([200, 200]);
    await eventually(() => handler.handled.length >= 1);
    await listen.stop();
    expect(handler.handled.map((entry) => [entry.url, entry.answered, entry.headers['x-ledgerdesk-verdict']])).toEqual([
      ['/hook/n', 200, 'ok'],
    ]);
  });
});
