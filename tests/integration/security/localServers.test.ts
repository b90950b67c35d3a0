/**
 * Issue 15 item 4: the sandbox bank and the webhook listener are closed to the browser. Real
 * servers on 127.0.0.1, raw HTTP written on a socket, so Host and Origin are exactly what a
 * DNS-rebinding page or a cross-site form would send: 421 or 403 with {"error"}, nothing kept,
 * no CORS header; the addresses the servers really have (and the ones the user allowed) work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { basicHeader, notificationOf, rawExchange, startTestListener, type TestListener } from '../listener/support.ts';

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** One HTTP/1.1 request written by hand: the headers are exactly these (no Host is added). */
async function raw(
  port: number,
  request: { method?: string; path?: string; headers: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  const body = request.body ?? '';
  const lines = [`${request.method ?? 'GET'} ${request.path ?? '/'} HTTP/1.1`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (body !== '') lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  lines.push('Connection: close', '', body);
  const text = await rawExchange(port, lines.join('\r\n'));
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

function corsHeadersOf(answer: RawAnswer): string[] {
  return [...answer.headers.keys()].filter((name) => name.startsWith('access-control-'));
}

function errorOf(answer: RawAnswer): string {
  const parsed = JSON.parse(answer.body) as { error?: unknown };
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(typeof parsed.error).toBe('string');
  return String(parsed.error);
}

const FORGED_HOSTS = ['attacker.example', 'attacker.example:PORT', '127.0.0.1:1', 'localhost', '[::2]:PORT', 'a b'];

function hostsFor(port: number): { own: string[]; forged: string[] } {
  const text = String(port);
  return {
    own: [`127.0.0.1:${text}`, `localhost:${text}`, `[::1]:${text}`, `LOCALHOST:${text}`],
    forged: FORGED_HOSTS.map((host) => host.replace('PORT', text)),
  };
}

describe('the sandbox bank', () => {
  let sandbox: RunningSandbox;
  let port: number;
  let authorization: string;

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      pendingTransactionsPerAccount: 5,
      allowedHosts: ['bank.tunnel.example'],
      allowedOrigins: ['http://localhost:5173'],
    });
    port = Number(new URL(sandbox.baseUrl).port);
    authorization = basicHeader(sandbox.keyId, sandbox.keySecret);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('answers requests addressed to its own loopback names', async () => {
    for (const host of hostsFor(port).own) {
      const answer = await raw(port, { path: '/account', headers: { Host: host, Authorization: authorization } });
      expect(answer.status, host).toBe(200);
      expect(corsHeadersOf(answer)).toEqual([]);
    }
  });

  it('refuses every other Host with 421 and {"error"}, before authentication and without touching data', async () => {
    for (const host of hostsFor(port).forged) {
      const answer = await raw(port, {
        method: 'POST',
        path: '/webhook',
        headers: { Host: host, Authorization: authorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({ event: 'ach.create', url: 'http://127.0.0.1:9/x' }),
      });
      expect(answer.status, host).toBe(421);
      expect(errorOf(answer)).toMatch(
        /answers only requests addressed to 127\.0\.0\.1:\d+, localhost:\d+ or \[::1\]:\d+/,
      );
      expect(corsHeadersOf(answer)).toEqual([]);
    }
    // Even the public routes: a rebinding page learns nothing, not even that the bank is up.
    const ping = await raw(port, { path: '/ping', headers: { Host: 'attacker.example' } });
    expect(ping.status).toBe(421);
    const noHost = await raw(port, { path: '/ping', headers: {} });
    expect([400, 421]).toContain(noHost.status);
    // None of the refused creates happened.
    const webhooks = await raw(port, {
      path: '/webhook',
      headers: { Host: `127.0.0.1:${port}`, Authorization: authorization },
    });
    expect((JSON.parse(webhooks.body) as { data: unknown[] }).data).toEqual([]);
  });

  it('answers a host the user allowed (a tunnel), at any port', async () => {
    const answer = await raw(port, { path: '/ping', headers: { Host: 'bank.tunnel.example' } });
    expect(answer.status).toBe(200);
    const withPort = await raw(port, { path: '/ping', headers: { Host: 'BANK.tunnel.example:443' } });
    expect(withPort.status).toBe(200);
  });

  it('refuses requests made by a web page (Origin, Sec-Fetch-Site) with 403, unless the origin is allowed', async () => {
    const own = `127.0.0.1:${port}`;
    const fromPage = await raw(port, {
      method: 'POST',
      path: '/webhook',
      headers: {
        Host: own,
        Origin: 'https://attacker.example',
        Authorization: authorization,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ event: 'ach.create', url: 'http://127.0.0.1:9/x' }),
    });
    expect(fromPage.status).toBe(403);
    expect(errorOf(fromPage)).toMatch(/Requests from web pages are refused.*https:\/\/attacker\.example/);
    expect(corsHeadersOf(fromPage)).toEqual([]);
    const nullOrigin = await raw(port, { path: '/ping', headers: { Host: own, Origin: 'null' } });
    expect(nullOrigin.status).toBe(403);
    const preflight = await raw(port, {
      method: 'OPTIONS',
      path: '/account',
      headers: { Host: own, Origin: 'https://attacker.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(403);
    expect(corsHeadersOf(preflight)).toEqual([]);
    const image = await raw(port, { path: '/ping', headers: { Host: own, 'Sec-Fetch-Site': 'cross-site' } });
    expect(image.status).toBe(403);
    // Typed in the address bar: no page made it.
    const typed = await raw(port, { path: '/ping', headers: { Host: own, 'Sec-Fetch-Site': 'none' } });
    expect(typed.status).toBe(200);
    const allowed = await raw(port, {
      path: '/account',
      headers: { Host: own, Origin: 'http://localhost:5173', Authorization: authorization },
    });
    expect(allowed.status).toBe(200);
    expect(corsHeadersOf(allowed)).toEqual([]);
    const webhooks = await raw(port, { path: '/webhook', headers: { Host: own, Authorization: authorization } });
    expect((JSON.parse(webhooks.body) as { data: unknown[] }).data).toEqual([]);
  });

  it('refuses a bad --allow-host or --allow-origin with a clear error', async () => {
    await expect(startSandbox({ allowedHosts: ['http://x.example/'] })).rejects.toThrow(/is not a host name/);
    await expect(startSandbox({ allowedOrigins: ['http://x.example/path'] })).rejects.toThrow(/is not an origin/);
  });
});

describe('the webhook listener', () => {
  let current: TestListener;

  beforeAll(async () => {
    current = await startTestListener({
      settings: { allowedHosts: ['hooks.tunnel.example'], allowedOrigins: ['http://localhost:5173'] },
    });
  });
  afterAll(async () => {
    await current.close();
  });

  function post(headers: Record<string, string>, id: string) {
    return raw(current.port, {
      method: 'POST',
      path: '/webhooks',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(notificationOf(id)),
    });
  }

  it('keeps notifications addressed to its own loopback names', async () => {
    const before = current.listener.count();
    for (const [index, host] of hostsFor(current.port).own.entries()) {
      const answer = await post({ Host: host }, `ach_own_${index}`);
      expect(answer.status, host).toBe(200);
      expect(answer.body).toBe('{"received":true}');
      expect(corsHeadersOf(answer)).toEqual([]);
    }
    expect(current.listener.count()).toBe(before + 4);
  });

  it('refuses every other Host with 421 and {"error"}, and keeps nothing', async () => {
    const before = current.listener.count();
    const refusedBefore = current.listener.stats().refused;
    const forged = hostsFor(current.port).forged;
    for (const [index, host] of forged.entries()) {
      const answer = await post({ Host: host }, `ach_forged_${index}`);
      expect(answer.status, host).toBe(421);
      expect(errorOf(answer)).toMatch(/answers only requests addressed to 127\.0\.0\.1:\d+/);
      expect(answer.headers.get('x-ledgerdesk-request')).toBeUndefined();
      expect(corsHeadersOf(answer)).toEqual([]);
    }
    expect(current.listener.count()).toBe(before);
    expect(current.listener.requests({ search: 'ach_forged' })).toEqual([]);
    expect(current.listener.stats().refused).toBe(refusedBefore + forged.length);
  });

  it('keeps notifications for a host the user allowed (a tunnel)', async () => {
    const answer = await post({ Host: 'hooks.tunnel.example' }, 'ach_tunnel');
    expect(answer.status).toBe(200);
    expect(current.listener.requests({ objectId: 'ach_tunnel' })).toHaveLength(1);
  });

  it('refuses requests made by a web page with 403 and keeps nothing, unless the origin is allowed', async () => {
    const own = `127.0.0.1:${current.port}`;
    const before = current.listener.count();
    const form = await raw(current.port, {
      method: 'POST',
      path: '/webhooks',
      // What a cross-site fetch with text/plain sends: no preflight, so the origin check is all there is.
      headers: { Host: own, Origin: 'https://attacker.example', 'Content-Type': 'text/plain' },
      body: JSON.stringify(notificationOf('ach_from_page')),
    });
    expect(form.status).toBe(403);
    expect(errorOf(form)).toMatch(/Requests from web pages are refused/);
    const preflight = await raw(current.port, {
      method: 'OPTIONS',
      path: '/webhooks',
      headers: { Host: own, Origin: 'https://attacker.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(corsHeadersOf(preflight)).toEqual([]);
    const image = await raw(current.port, { path: '/pixel', headers: { Host: own, 'Sec-Fetch-Site': 'cross-site' } });
    expect(image.status).toBe(403);
    expect(current.listener.count()).toBe(before);

    const allowed = await post({ Host: own, Origin: 'http://localhost:5173' }, 'ach_allowed_page');
    expect(allowed.status).toBe(200);
    expect(corsHeadersOf(allowed)).toEqual([]);
    expect(current.listener.requests({ objectId: 'ach_allowed_page' })).toHaveLength(1);
  });

  it('applies a changed allow-list while running, and refuses a bad entry without changing anything', async () => {
    current.listener.configure({ allowedHosts: [] });
    expect((await post({ Host: 'hooks.tunnel.example' }, 'ach_tunnel_gone')).status).toBe(421);
    expect(() => current.listener.configure({ allowedHosts: ['https://x.example/'] })).toThrow(/is not a host name/);
    expect(() => current.listener.configure({ allowedOrigins: ['x.example'] })).toThrow(/is not an origin/);
    expect(current.listener.settings.allowedHosts).toEqual([]);
    expect(current.listener.settings.allowedOrigins).toEqual(['http://localhost:5173']);
  });
});
