/**
 * Web mode's HTTP server: the built renderer and one WebSocket, on one origin, closed to
 * everyone but the browser that opened the printed address (webAccess.ts). Every request is
 * checked before anything is read or served; refusals carry a status and no detail. No CORS.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { WEB_MESSAGE_MAX_BYTES, WEB_SOCKET_PATH } from '../../shared/ipc/webSocketProtocol.ts';
import { TOKEN_PARAMETER, type AccessVerdict, type WebAccess } from './webAccess.ts';
import type { WebConnections } from './webConnections.ts';
import { rendererFile } from './rendererFiles.ts';

export interface WebServerOptions {
  access: WebAccess;
  connections: WebConnections;
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

/** A listening server, not yet answering: its port decides the origin the access check needs. */
export function createWebServer(): Server {
  return createServer();
}

/** Makes `server` answer as web mode: the renderer, the token exchange and the socket. */
export function serveWebMode(server: Server, options: WebServerOptions): void {
  const { access, connections } = options;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: WEB_MESSAGE_MAX_BYTES, perMessageDeflate: false });

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const address = access.checkAddress(request.headers);
    if (!address.allowed) {
      refuse(response, address.status);
      return;
    }
    const target = pathOf(request);
    if (target === null) {
      refuse(response, 400);
      return;
    }
    if (target.token !== null) {
      // The printed address: its token is exchanged once for the session cookie, then the
      // browser is sent to the app without the token in its address bar or history.
      if (access.exchange(target.token)) {
        refuse(response, 303, { location: '/', 'set-cookie': access.sessionCookieHeader() });
        return;
      }
      const verdict: AccessVerdict = access.check(request.headers);
      refuse(response, verdict.allowed ? 303 : 401, verdict.allowed ? { location: '/' } : {});
      return;
    }
    const verdict = access.check(request.headers);
    if (!verdict.allowed) {
      refuse(response, verdict.status);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      refuse(response, 405, { allow: 'GET, HEAD' });
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
    response.writeHead(200, { ...file.headers, 'content-length': String(file.body.byteLength) });
    response.end(request.method === 'HEAD' ? undefined : file.body);
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
    const verdict = access.check(request.headers);
    if (!verdict.allowed) {
      refuseUpgrade(socket, verdict.status);
      return;
    }
    // A browser always says which page opens a socket; a socket without an Origin is not our page's.
    if (request.headers.origin === undefined) {
      refuseUpgrade(socket, 403);
      return;
    }
    if (pathOf(request)?.path !== WEB_SOCKET_PATH) {
      refuseUpgrade(socket, 404);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      connections.attach(webSocket);
    });
  });
  server.on('close', () => {
    sockets.close();
  });
}
