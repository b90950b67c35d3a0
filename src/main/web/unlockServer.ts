/**
 * Web mode before its services start, when the data folder's key file needs a passphrase and
 * nothing gave one (no `--passphrase-file`, no terminal): a server on the address web mode will
 * use that serves only the unlock page (unlockPage.ts) to whoever opens the printed address with
 * its one-time unlock token. The data folder's lock is already held (serveCommand.ts). A wrong
 * passphrase is the page again with one sentence, and the key file is left as it was; the right
 * one resolves `unlocked`, the server stops listening, and the browser that unlocked is sent on
 * to the sign-in address of the web mode that then starts on the same port.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hasKeyFile, keyFileOf, PassphraseSecretStore } from '../services/credentials/passphraseSecretStore.ts';
import { KeyFileUnreadable, WeakPassphrase, WrongPassphrase } from '../services/credentials/keyFile.ts';
import { createWebServer, type TlsFiles } from './webServer.ts';
import { UNLOCK_PAGE_POLICY, unlockPage } from './unlockPage.ts';

const UNLOCK_PARAMETER = 'unlock';
const UNLOCK_PATH = '/ledgerdesk/unlock';
const MAX_FORM_BYTES = 8 * 1024;

export interface Unlocked {
  store: PassphraseSecretStore;
  /** Sends the browser that unlocked on to `entryUrl` (web mode's sign-in), or says the start failed (null). */
  sendOn(entryUrl: string | null): void;
}

export interface WaitingForUnlock {
  /** The address to open, with its one-time unlock token. */
  url: string;
  port: number;
  unlocked: Promise<Unlocked>;
  /** Stops listening (the port is free for web mode); a browser being sent on keeps its answer. */
  close(): Promise<void>;
}

const HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': UNLOCK_PAGE_POLICY,
};

function same(given: string | null | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function send(response: ServerResponse, status: number, html: string | null): void {
  const body = Buffer.from(html ?? '', 'utf8');
  response.writeHead(status, {
    ...HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(body.length),
  });
  response.end(body);
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startUnlockServer(options: {
  dataFolder: string;
  host: string;
  port: number;
  tls?: TlsFiles;
}): Promise<WaitingForUnlock> {
  const token = randomBytes(32).toString('base64url');
  const server = createWebServer(options.tls);
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = `${options.tls === undefined ? 'http' : 'https'}://${host}:${String(port)}`;
  const ownHost = `${host}:${String(port)}`.toLowerCase();
  let resolveUnlocked: (unlocked: Unlocked) => void = () => undefined;
  const unlocked = new Promise<Unlocked>((resolve) => {
    resolveUnlocked = resolve;
  });
  let done = false;

  const page = (problem: string | null): string =>
    unlockPage({ keyFile: keyFileOf(options.dataFolder), creating: !hasKeyFile(options.dataFolder), token, problem });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      // The same guards as web mode's own server: this host only, no other site's form.
      if (request.headers.host?.toLowerCase() !== ownHost || request.headers['sec-fetch-site'] === 'cross-site') {
        send(response, 403, null);
        return;
      }
      const url = new URL(request.url ?? '/', origin);
      if (request.method === 'GET' && url.pathname === '/') {
        if (!same(url.searchParams.get(UNLOCK_PARAMETER), token)) {
          send(response, 403, null);
          return;
        }
        send(response, 200, page(null));
        return;
      }
      if (request.method !== 'POST' || url.pathname !== UNLOCK_PATH || done) {
        send(response, 404, null);
        return;
      }
      // The page sends no referrer, so Chromium's Origin is "null" on its own form: Sec-Fetch-Site says same-origin.
      const sentFrom = request.headers.origin;
      const fetchSite = request.headers['sec-fetch-site'];
      const ownForm =
        (sentFrom === undefined || sentFrom === origin || sentFrom === 'null') &&
        (fetchSite === undefined || fetchSite === 'same-origin');
      const form = await formOf(request);
      if (form === null || !ownForm || !same(form.get('token'), token)) {
        send(response, 403, null);
        return;
      }
      const passphrase = form.get('passphrase') ?? '';
      let store: PassphraseSecretStore;
      try {
        if (hasKeyFile(options.dataFolder)) store = PassphraseSecretStore.unlock(options.dataFolder, passphrase);
        else if (passphrase !== (form.get('again') ?? '')) {
          send(response, 400, page('The two passphrases differ: nothing was made. Type them again.'));
          return;
        } else store = PassphraseSecretStore.create(options.dataFolder, passphrase);
      } catch (error) {
        if (error instanceof WrongPassphrase || error instanceof WeakPassphrase || error instanceof KeyFileUnreadable) {
          send(response, error instanceof WrongPassphrase ? 401 : 400, page(error.message));
          return;
        }
        throw error;
      }
      done = true;
      resolveUnlocked({
        store,
        sendOn: (entryUrl) => {
          if (entryUrl === null) {
            send(
              response,
              500,
              '<!doctype html><title>Ledgerdesk</title><p>Ledgerdesk could not start: its terminal says why.</p>',
            );
            return;
          }
          response.writeHead(303, { ...HEADERS, location: entryUrl, connection: 'close', 'content-length': '0' });
          response.end();
        },
      });
    })().catch(() => {
      if (!response.headersSent) send(response, 500, null);
    });
  });

  return {
    url: `${origin}/?${UNLOCK_PARAMETER}=${token}`,
    port,
    unlocked,
    close: async () => {
      const closed = new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      server.closeIdleConnections();
      // The port is free once the listening socket is closed; the answer being sent finishes on its own.
      await Promise.race([closed, new Promise((resolve) => setImmediate(resolve))]);
    },
  };
}
