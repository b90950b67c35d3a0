/**
 * Issue 36, item 5: web mode serves the page before its services are up. The page and its files
 * are answered at once; the signed-in socket waits for the services (it is not refused), and is
 * let in once they are; if the start fails instead, the socket is closed with 4002 and the
 * terminal's sentence, which the page shows (webSocketTransport.test.ts), and the server knows
 * when every socket told of it has closed. The door's checks still come first: a socket without
 * the tab key is refused at once, not kept waiting.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WebAccess, type SignIn } from '../../../src/main/web/webAccess.ts';
import { CLOSE_START_FAILED, serveWebMode, type ServedWebMode } from '../../../src/main/web/webServer.ts';
import type { WebConnections } from '../../../src/main/web/webConnections.ts';

let root: string;
let server: Server;
let port: number;
let access: WebAccess;
let signIn: SignIn;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'ledgerdesk-before-services-'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Ledgerdesk</title>');
  writeFileSync(join(root, 'app.js'), 'export {};');
  server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  access = new WebAccess({ hosts: [`127.0.0.1:${String(port)}`], origin: `http://127.0.0.1:${String(port)}` });
  const exchanged = access.exchange(access.token);
  if (exchanged === null) throw new Error('the token did not sign in');
  signIn = exchanged;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

function cookie(): string {
  return signIn.cookieHeader.split(';')[0] ?? '';
}

function get(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const asked = request(
      { host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${String(port)}`, cookie: cookie() } },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      },
    );
    asked.on('error', reject);
    asked.end();
  });
}

function socket(tabKey = signIn.tabKey): WebSocket {
  return new WebSocket(`ws://127.0.0.1:${String(port)}/ledgerdesk/socket`, ['ledgerdesk', `ledgerdesk-tab.${tabKey}`], {
    headers: { cookie: cookie() },
    origin: `http://127.0.0.1:${String(port)}`,
  });
}

/** Stands in for the services' side: says hello to every socket it is given. */
const greeter = {
  attach: (webSocket: WebSocket) => {
    webSocket.send('let in');
  },
} as unknown as WebConnections;

function served(connections: Promise<WebConnections>): ServedWebMode {
  return serveWebMode(server, { access, connections, rendererRoot: root });
}

describe('web mode before its services are up (issue 36)', () => {
  it('answers the page and its files at once, and lets the waiting socket in once the services are up', async () => {
    let up: (connections: WebConnections) => void = () => undefined;
    served(
      new Promise<WebConnections>((resolve) => {
        up = resolve;
      }),
    );
    expect(await get('/app.js')).toBe(200);
    const waiting = socket();
    const greeted = new Promise<string>((resolve) => {
      waiting.once('message', (data: Buffer) => {
        resolve(data.toString('utf8'));
      });
    });
    // Still answered while the socket waits: the server is not held by it.
    expect(await get('/app.js')).toBe(200);
    up(greeter);
    expect(await greeted).toBe('let in');
    waiting.close();
  });

  it('closes the waiting socket with 4002 and the sentence when the start fails', async () => {
    let fail: (error: Error) => void = () => undefined;
    const starting = new Promise<WebConnections>((_resolve, reject) => {
      fail = reject;
    });
    const door = served(starting);
    const reached = once(server, 'upgrade');
    const waiting = socket();
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      waiting.once('close', (code: number, reason: Buffer) => {
        resolve({ code, reason: reason.toString('utf8') });
      });
    });
    // The upgrade reached the server and waits there.
    await reached;
    fail(new Error('the cache file is damaged.'));
    expect(await closed).toEqual({
      code: CLOSE_START_FAILED,
      reason: 'Ledgerdesk could not start: the cache file is damaged.',
    });
    await door.failureTold();
  });

  it('refuses a socket without the tab key at once, services or not', async () => {
    served(new Promise<WebConnections>(() => undefined));
    const refused = socket('not-the-key');
    const status = await new Promise<number>((resolve) => {
      refused.once('unexpected-response', (_request, answer) => {
        resolve(answer.statusCode ?? 0);
      });
    });
    expect(status).toBe(401);
  });
});
