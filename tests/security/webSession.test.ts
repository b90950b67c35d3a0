/**
 * The af86022 review's web-mode findings, reproduced against the real web shell (its sandbox
 * bank in its own process, the real services, router and socket), a fake Production bank on
 * loopback that records what reaches it, and a plain process playing the attacker:
 *
 * - W1: the session cookie goes to every port of 127.0.0.1, so another local server collects
 *   it. A process holding it (and forging Origin) must not open the socket: the tab key, which
 *   no browser sends anywhere by itself, is needed too. (The browser half, a second server the
 *   signed-in tab visits, is tests/e2e/webSecurity.spec.ts.)
 * - W2: whoever holds the socket (script in the page, or W1's thief) must not be able to
 *   confirm a Production write or the listener's first send to another host by itself: the
 *   decision is a code only `serve`'s terminal shows.
 * - I-W1: two Host headers are refused (400), even with ours first.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { startWebModeApp, type WebModeApp } from '../e2e/support/webModeStart.ts';
import { openSocket, signIn, SocketClient, type WebSignIn } from '../e2e/support/webClient.ts';
import { WRONG_CODES_MAX } from '../../src/main/web/confirmationCodes.ts';

interface Caught {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A fake Production bank: answers a webhook registration as the bank would, and keeps every request. */
async function productionBank(): Promise<{ server: Server; url: string; caught: Caught[] }> {
  const caught: Caught[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      caught.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const registration = request.method === 'POST' && (request.url ?? '').startsWith('/webhook');
      response.writeHead(registration ? 200 : 404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          registration
            ? {
                id: `wh_prod_${String(caught.length)}`,
                event: 'ach.update',
                url: 'https://attacker.example/hook',
                status: 'enabled',
                basic_user: null,
                userdata: null,
                created_at: '2026-12-01T00:00:00Z',
                updated_at: '2026-12-01T00:00:00Z',
              }
            : { error: 'not found' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, caught };
}

/** One raw request over TCP (two Host headers cannot be sent any other way); its status line. */
function rawStatus(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    // Every request here says `Connection: close` or is refused: the server ends the connection.
    socket.on('end', () => {
      resolve(answer.split('\r\n')[0] ?? '');
    });
    socket.on('error', reject);
  });
}

let folder: string;
let app: WebModeApp;
let browser: WebSignIn;
let bank: Awaited<ReturnType<typeof productionBank>>;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-web-security-'));
  app = await startWebModeApp(folder);
  bank = await productionBank();
  // The user's browser signs in with the printed address.
  browser = await signIn(app.shell.entryUrl);
});

afterAll(async () => {
  await app.shell.stop();
  await new Promise<void>((resolve) =>
    bank.server.close(() => {
      resolve();
    }),
  );
  rmSync(folder, { recursive: true, force: true });
});

describe('W1: the session cookie alone does not open the socket', () => {
  it('a plain process with the stolen cookie and a forged Origin is refused; the browser’s own pair opens it', async () => {
    const origin = app.shell.origin;
    // What another port of 127.0.0.1 receives from the browser: the Cookie header, nothing else of ours.
    const stolen = browser.cookie;
    expect((await openSocket(origin, { cookie: stolen, origin })).status).toBe(401);
    expect((await openSocket(origin, { cookie: stolen, origin, tabKey: 'A'.repeat(43) })).status).toBe(401);
    // The cookie's value offered as the key is not the key either.
    expect((await openSocket(origin, { cookie: stolen, origin, tabKey: stolen.split('=')[1] ?? '' })).status).toBe(401);
    // Both halves are needed: the key without the cookie is refused too.
    expect((await openSocket(origin, { origin, tabKey: browser.tabKey })).status).toBe(401);
    // The Origin checks still hold with both.
    expect(
      (await openSocket(origin, { cookie: stolen, tabKey: browser.tabKey, origin: 'http://127.0.0.1:1' })).status,
    ).toBe(403);
    expect((await openSocket(origin, { cookie: stolen, tabKey: browser.tabKey })).status).toBe(403);
    // The control: the signed-in browser's cookie and tab key open it, and the answer never echoes the key.
    const own = await openSocket(origin, { cookie: stolen, tabKey: browser.tabKey, origin });
    expect(own.status).toBe(101);
    expect(own.protocol).toBe('ledgerdesk');
    own.socket?.close();
  });

  it('a new sign-in ends the one before: its cookie and key open nothing any more', async () => {
    const origin = app.shell.origin;
    const before = await signIn(app.shell.newSignInAddress());
    const opened = await openSocket(origin, { cookie: before.cookie, tabKey: before.tabKey, origin });
    expect(opened.status).toBe(101);
    const closed = new Promise<number>((resolve) =>
      opened.socket?.on('close', (code) => {
        resolve(code);
      }),
    );
    const after = await signIn(app.shell.newSignInAddress());
    // Its open socket is closed as signed out, and it cannot open another.
    expect(await closed).toBe(4001);
    expect((await openSocket(origin, { cookie: before.cookie, tabKey: before.tabKey, origin })).status).toBe(401);
    const now = await openSocket(origin, { cookie: after.cookie, tabKey: after.tabKey, origin });
    expect(now.status).toBe(101);
    now.socket?.close();
    browser = after;
  });
});

describe('W2: a socket client that never asks a human cannot complete a Production write', () => {
  let client: SocketClient;
  let profileId: string;

  beforeAll(async () => {
    const opened = await openSocket(app.shell.origin, {
      cookie: browser.cookie,
      tabKey: browser.tabKey,
      origin: app.shell.origin,
    });
    client = new SocketClient(opened.socket as WebSocket);
    await client.hello('w2-attacker-session-000001');
    const created = await client.result(
      client.call('profiles.create', {
        name: 'Prod Bank W2',
        baseUrl: bank.url,
        authScheme: 'bearer',
        production: true,
      }),
    );
    expect(created.ok, JSON.stringify(created.error)).toBe(true);
    profileId = (created.value as { id: string }).id;
    const secret = await client.result(client.call('credentials.set', { profileId, secret: 'prod-token-w2' }));
    expect(secret.ok, JSON.stringify(secret.error)).toBe(true);
  });

  afterAll(() => {
    client.close();
  });

  /** The review's client answered with the confirmation the question carried; there is none now. */
  const carried = (ask: Record<string, unknown>): string | null => {
    const offered = ask['confirmation'] ?? ask['code'];
    return typeof offered === 'string' ? offered : null;
  };

  const registrations = (): Caught[] => bank.caught.filter((request) => request.method === 'POST');

  /** A Production write, every question it is asked answered by `reply` (what the client can make up). */
  async function write(reply: (ask: Record<string, unknown>) => string | null): Promise<string> {
    const id = client.call('webhooks.create', {
      profileId,
      request: { event: 'ach.update', url: 'https://attacker.example/hook' },
      confirmProduction: true,
    });
    const ask = await client.next('ask');
    client.send({ type: 'reply', askId: ask['askId'], code: reply(ask) });
    const result = await client.result(id);
    return result.ok ? 'ok' : (result.error?.code ?? '?');
  }

  it('answering with what the question carries, or with guesses, sends nothing to the bank', async () => {
    expect(await write(carried)).toBe('confirmation_required');
    for (const guess of ['000000', '123456', '999999'].slice(0, WRONG_CODES_MAX - 1)) {
      expect(await write(() => (guess === app.lastCode() ? '111111' : guess))).toBe('confirmation_required');
    }
    expect(registrations()).toEqual([]);
    // Every question went to the terminal with its code and the server's own description.
    const shown = app.terminal.filter((notice) => notice.kind === 'code');
    expect(shown).toHaveLength(4);
    expect(shown[0]?.question.message).toContain('to Prod Bank W2, a Production profile');
  });

  it('the person who reads the code on the terminal and types it makes the write go (the control)', async () => {
    expect(await write(() => app.lastCode())).toBe('ok');
    expect(registrations()).toHaveLength(1);
    expect(registrations()[0]?.headers.authorization).toBe('Bearer prod-token-w2');
  });

  it('the listener’s first send to another host needs the terminal’s code too', async () => {
    expect((await client.result(client.call('listener.start', { port: 0 }))).ok).toBe(true);
    const allow = (
      url: string,
      reply: (ask: Record<string, unknown>) => string | null,
    ): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> =>
      (async () => {
        const id = client.call('listener.allowTarget', { url });
        const ask = await client.next('ask');
        expect((ask['question'] as { title: string }).title).toBe('Allow the listener to send to another host?');
        client.send({ type: 'reply', askId: ask['askId'], code: reply(ask) });
        return client.result(id);
      })();
    const unasked = await allow('https://attacker.example/', carried);
    expect(unasked.error?.code).toBe('cancelled');
    const allowed = await allow('https://hooks.example/', () => app.lastCode());
    expect(allowed.ok).toBe(true);
    const targets = (allowed as { value?: { allowedTargets: string[] } }).value?.allowedTargets ?? [];
    expect(targets).toEqual(['https://hooks.example']);
  });

  it(`after ${String(WRONG_CODES_MAX)} wrong codes the browser's confirmations are off for the run, the right code included`, async () => {
    for (;;) {
      const before = app.terminal.length;
      expect(await write(() => (app.lastCode() === '222222' ? '333333' : '222222'))).toBe('confirmation_required');
      if (app.terminal.slice(before).some((notice) => notice.kind === 'locked')) break;
    }
    const id = client.call('webhooks.create', {
      profileId,
      request: { event: 'ach.update', url: 'https://attacker.example/hook' },
      confirmProduction: true,
    });
    const result = await client.result(id);
    expect(result.error?.code).toBe('confirmation_required');
    expect(client.inbox.some((message) => message['type'] === 'ask')).toBe(false);
    expect(app.terminal[app.terminal.length - 1]?.kind).toBe('locked');
    expect(registrations()).toHaveLength(1);
  });
});

describe('I-W1: two Host headers', () => {
  it('are refused with 400, ours first or second, on a page and on the socket’s upgrade', async () => {
    const port = Number(new URL(app.shell.origin).port);
    const own = `127.0.0.1:${String(port)}`;
    const cookie = browser.cookie;
    expect(
      await rawStatus(port, `GET / HTTP/1.1\r\nHost: ${own}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`),
    ).toBe('HTTP/1.1 200 OK');
    for (const hosts of [
      [own, 'evil.example:1'],
      ['evil.example:1', own],
      [own, own],
    ]) {
      const lines = hosts.map((host) => `Host: ${host}\r\n`).join('');
      expect(await rawStatus(port, `GET / HTTP/1.1\r\n${lines}Cookie: ${cookie}\r\nConnection: close\r\n\r\n`)).toMatch(
        /^HTTP\/1\.1 (400|421) /,
      );
      expect(
        await rawStatus(
          port,
          `GET /ledgerdesk/socket HTTP/1.1\r\n${lines}Cookie: ${cookie}\r\nOrigin: ${app.shell.origin}\r\n` +
            `Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n` +
            `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: ledgerdesk, ledgerdesk-tab.${browser.tabKey}\r\n\r\n`,
        ),
      ).toMatch(/^HTTP\/1\.1 (400|421) /);
    }
    // Ours first, as the review sent it: 400, where it used to pass the Host check.
    expect(
      await rawStatus(
        port,
        `GET / HTTP/1.1\r\nHost: ${own}\r\nHost: evil.example:1\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
      ),
    ).toBe('HTTP/1.1 400 Bad Request');
  });
});
