/**
 * Web mode's HTTP server: the built renderer and one WebSocket, on one origin, closed to
 * everyone but the browser that exchanged the printed address (webAccess.ts). Every request is
 * checked before anything is read or served; refusals carry a status and no detail, except a
 * page's 401, which is the page saying how to sign in again (signedOutPage.ts). No CORS.
 * Over TLS when given a certificate (`--tls-cert`/`--tls-key`, required to listen beyond
 * loopback: W3).
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import {
  SIGN_IN_CHECK_PATH,
  SIGNED_OUT_PATH,
  TAB_KEY_HEADER,
  WEB_MESSAGE_MAX_BYTES,
  WEB_SOCKET_PATH,
  WEB_SOCKET_PROTOCOL,
} from '../../shared/ipc/webSocketProtocol.ts';
import { TOKEN_PARAMETER, type WebAccess } from './webAccess.ts';
import type { WebConnections } from './webConnections.ts';
import { rendererFile } from './rendererFiles.ts';
import { appResponseHeaders } from '../app/appProtocol.ts';
import { signedOutPage } from './signedOutPage.ts';
import { acceptsGzip, createCompressor, isLoopback } from './compressedFiles.ts';

export interface WebServerOptions {
  access: WebAccess;
  /**
   * The sockets' side, once the services are up (issue 36: the page is served before them). A
   * socket that comes before waits for it, never refused for it; if the start fails, the socket
   * is closed with CLOSE_START_FAILED and the reason, and the page says so.
   */
  connections: WebConnections | Promise<WebConnections>;
  /** out/renderer */
  rendererRoot: string;
  log?: (message: string) => void;
}

/** Headers on every answer, refusals included. */
const BASE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function refuse(response: ServerResponse, status: number, extra: Record<string, string> = {}): void {
  response.writeHead(status, { ...BASE_HEADERS, 'content-length': '0', ...extra }).end();
}

function refuseUpgrade(socket: Duplex, status: number): void {
  socket.end(
    `HTTP/1.1 ${String(status)} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
  );
}

function pathOf(request: IncomingMessage): { path: string; token: string | null } | null {
  const raw = request.url ?? '/';
  if (!raw.startsWith('/')) return null;
  const query = raw.indexOf('?');
  const path = query < 0 ? raw : raw.slice(0, query);
  const token = query < 0 ? null : new URLSearchParams(raw.slice(query + 1)).get(TOKEN_PARAMETER);
  return { path, token };
}

/** A certificate and its key, PEM (W3). */
export interface TlsFiles {
  cert: string | Buffer;
  key: string | Buffer;
}

/** A server not yet answering (HTTPS when given a certificate): its port decides the origin the access check needs. */
export function createWebServer(tls?: TlsFiles): Server {
  return tls === undefined ? createServer() : createTlsServer({ cert: tls.cert, key: tls.key });
}

/** A path the browser navigates to (a screen of the app), as opposed to a file or the socket. */
function isPage(path: string): boolean {
  if (path === '/' || path === '/index.html') return true;
  return /^\/[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/.test(path) && !path.startsWith('/ledgerdesk/');
}

function answerSignedOut(response: ServerResponse, status: 200 | 401, method: string | undefined): void {
  const body = Buffer.from(signedOutPage(), 'utf8');
  response.writeHead(status, {
    ...appResponseHeaders('signed-out.html'),
    ...BASE_HEADERS,
    'content-length': String(body.byteLength),
  });
  response.end(method === 'HEAD' ? undefined : body);
}

/** A socket's close code when the start failed after the page was served (the page says so). */
export const CLOSE_START_FAILED = 4002;
/** A WebSocket close reason is at most 123 bytes. */
const CLOSE_REASON_BYTES = 123;

function closeReason(error: unknown): string {
  let text = `Ledgerdesk could not start: ${error instanceof Error ? error.message : String(error)}`;
  while (Buffer.byteLength(text) > CLOSE_REASON_BYTES) text = `${text.slice(0, Math.max(0, text.length - 2))}…`;
  return text;
}

export interface ServedWebMode {
  /** Resolves once every socket told of a failed start has closed (then the server may stop). */
  failureTold(): Promise<void>;
}

/** Makes `server` answer as web mode: the renderer, the token exchange and the socket. */
export function serveWebMode(server: Server, options: WebServerOptions): ServedWebMode {
  const { access } = options;
  const connections = Promise.resolve(options.connections);
  // Sockets opened while the services start, and those told the start failed, until they close.
  const waiting = new Set<Promise<void>>();
  const compressor = createCompressor();
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: WEB_MESSAGE_MAX_BYTES,
    perMessageDeflate: false,
    // The page offers `ledgerdesk` and its tab key; the answer names `ledgerdesk` alone, never the key.
    handleProtocols: (protocols) => (protocols.has(WEB_SOCKET_PROTOCOL) ? WEB_SOCKET_PROTOCOL : false),
  });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const address = access.checkAddress(request.headers, request.rawHeaders);
    if (!address.allowed) {
      refuse(response, address.status);
      return;
    }
    const target = pathOf(request);
    if (target === null) {
      refuse(response, 400);
      return;
    }
    const readOnly = request.method === 'GET' || request.method === 'HEAD';
    if (target.path === SIGNED_OUT_PATH && readOnly) {
      answerSignedOut(response, 200, request.method);
      return;
    }
    if (target.token !== null && request.method === 'GET') {
      // The printed address: its token is exchanged once for a sign-in. The answer is the app
      // itself, its tab key in a <meta> the web bridge moves into the origin's storage before
      // it replaces the address (the token leaves the address bar and the back list).
      const signIn = access.exchange(target.token);
      if (signIn !== null) {
        const page = await rendererFile(options.rendererRoot, '/index.html', signIn.tabKey);
        if (page === null) {
          refuse(response, 500);
          return;
        }
        response.writeHead(200, {
          ...page.headers,
          ...BASE_HEADERS,
          'set-cookie': signIn.cookieHeader,
          'content-length': String(page.body.byteLength),
        });
        response.end(page.body);
        return;
      }
      // A spent token opened again by the browser signed in with it (a reload, a restored
      // session): the app, without the token. Anyone else: how to get a new address.
      if (access.check(request.headers, request.rawHeaders).allowed) refuse(response, 303, { location: '/' });
      else answerSignedOut(response, 401, request.method);
      return;
    }
    const verdict = access.check(request.headers, request.rawHeaders);
    if (!verdict.allowed) {
      if (verdict.status === 401 && readOnly && isPage(target.path)) answerSignedOut(response, 401, request.method);
      else refuse(response, verdict.status);
      return;
    }
    if (!readOnly) {
      refuse(response, 405, { allow: 'GET, HEAD' });
      return;
    }
    if (target.path === SIGN_IN_CHECK_PATH) {
      // The page asks whether its sign-in still holds (after its socket was refused or closed).
      const key = request.headers[TAB_KEY_HEADER];
      refuse(response, access.holdsTabKey(typeof key === 'string' ? key : undefined) ? 204 : 401);
      return;
    }
    if (target.path === WEB_SOCKET_PATH) {
      refuse(response, 426, { upgrade: 'websocket' });
      return;
    }
    const file = await rendererFile(options.rendererRoot, target.path);
    if (file === null) {
      refuse(response, 404);
      return;
    }
    // Compressed only for a browser on another machine (compressedFiles.ts says why).
    const gzipped =
      isLoopback(request.socket.remoteAddress) || !acceptsGzip(request.headers['accept-encoding'])
        ? null
        : compressor.gzipOf(target.path, file.headers['content-type'] ?? '', file.body);
    const body = gzipped ?? file.body;
    response.writeHead(200, {
      ...file.headers,
      ...(gzipped === null ? {} : { 'content-encoding': 'gzip' }),
      vary: 'accept-encoding',
      'content-length': String(body.byteLength),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    answer(request, response).catch((error: unknown) => {
      options.log?.(`web: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) refuse(response, 500);
      else response.destroy();
    });
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const address = access.checkAddress(request.headers, request.rawHeaders);
    if (!address.allowed) {
      refuseUpgrade(socket, address.status);
      return;
    }
    // A browser always says which page opens a socket; a socket without an Origin is not our page's.
    if (request.headers.origin === undefined) {
      refuseUpgrade(socket, 403);
      return;
    }
    // The cookie and the tab key (W1): the cookie alone reaches every port of this host.
    const verdict = access.checkSocket(request.headers, request.rawHeaders);
    if (!verdict.allowed) {
      refuseUpgrade(socket, verdict.status);
      return;
    }
    if (pathOf(request)?.path !== WEB_SOCKET_PATH) {
      refuseUpgrade(socket, 404);
      return;
    }
    // Before the services are up the upgrade waits for them (issue 36); a failed start is said
    // on the socket itself (the page shows it), the reason being the terminal's sentence.
    const settled = connections.then(
      (ready) => {
        // Checked again: another sign-in may have replaced this one while it waited.
        const still = access.checkSocket(request.headers, request.rawHeaders);
        if (!still.allowed) {
          refuseUpgrade(socket, still.status);
          return;
        }
        sockets.handleUpgrade(request, socket, head, (webSocket) => {
          ready.attach(webSocket, still.signIn);
        });
      },
      (error: unknown) =>
        new Promise<void>((resolve) => {
          if (socket.destroyed) {
            resolve();
            return;
          }
          socket.once('close', () => {
            resolve();
          });
          sockets.handleUpgrade(request, socket, head, (webSocket) => {
            webSocket.close(CLOSE_START_FAILED, closeReason(error));
          });
        }),
    );
    waiting.add(settled);
    void settled.finally(() => waiting.delete(settled));
  });
  server.on('close', () => {
    sockets.close();
  });
  return {
    failureTold: async () => {
      await Promise.allSettled([...waiting]);
    },
  };
}
