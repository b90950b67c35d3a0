/**
 * Web mode as a plain program speaks it (no browser): the sign-in address exchanged over HTTP(S)
 * for the session cookie and the tab key the answer's page carries, and a socket client that
 * says hello, calls, and reads the server's messages one by one. Tests use it to play both the
 * page and the attacker who holds some of what the page holds.
 */
import { request as plainRequest, type IncomingMessage } from 'node:http';
import { request as tlsRequest } from 'node:https';
import WebSocket from 'ws';
import { TAB_KEY_PROTOCOL_PREFIX, WEB_SOCKET_PATH } from '../../../src/shared/ipc/webSocketProtocol.ts';

export interface WebSignIn {
  /** `ledgerdesk_session=…`, as a Cookie header carries it. */
  cookie: string;
  /** The tab key the sign-in answer's page carried in its <meta>. */
  tabKey: string;
  /** The whole Set-Cookie header. */
  setCookie: string;
  status: number;
}

/** GET `url` with `headers`; the status, headers and body (TLS trusted through `ca` when given). */
export function fetchRaw(
  url: string,
  headers: Record<string, string> = {},
  ca?: string | Buffer,
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? tlsRequest : plainRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        headers,
        ...(ca === undefined ? {} : { ca }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Exchanges the printed address's token, as a browser does, for the cookie and the tab key. */
export async function signIn(entryUrl: string, ca?: string | Buffer): Promise<WebSignIn> {
  const answer = await fetchRaw(entryUrl, {}, ca);
  const setCookie = String(answer.headers['set-cookie'] ?? '');
  const cookie = setCookie.split(';')[0] ?? '';
  const tabKey = /<meta name="ledgerdesk-tab-key" content="([A-Za-z0-9_-]+)">/.exec(answer.body)?.[1] ?? '';
  if (answer.status !== 200 || cookie === '' || tabKey === '') {
    throw new Error(`the sign-in address did not sign in (status ${String(answer.status)})`);
  }
  return { cookie, tabKey, setCookie, status: answer.status };
}

export interface SocketAttempt {
  cookie?: string;
  /** Offered as `ledgerdesk-tab.<key>` beside `ledgerdesk`; none: only `ledgerdesk` is offered. */
  tabKey?: string;
  /** The Origin header (a browser's own; a plain program may forge it). */
  origin?: string;
  ca?: string | Buffer;
}

/** The socket's address on an origin. */
export function socketAddress(origin: string): string {
  return `${origin.replace(/^http/, 'ws')}${WEB_SOCKET_PATH}`;
}

/** Tries to open the socket: the upgrade's status (101 when it opened), and the socket then. */
export function openSocket(
  origin: string,
  attempt: SocketAttempt,
): Promise<{ status: number; socket: WebSocket | null; protocol: string }> {
  const protocols = [
    'ledgerdesk',
    ...(attempt.tabKey === undefined ? [] : [`${TAB_KEY_PROTOCOL_PREFIX}${attempt.tabKey}`]),
  ];
  const socket = new WebSocket(socketAddress(origin), protocols, {
    headers: {
      ...(attempt.cookie === undefined ? {} : { cookie: attempt.cookie }),
      ...(attempt.origin === undefined ? {} : { origin: attempt.origin }),
    },
    ...(attempt.ca === undefined ? {} : { ca: attempt.ca }),
  });
  return new Promise((resolve) => {
    socket.on('unexpected-response', (_request, response) => {
      response.resume();
      socket.terminate();
      resolve({ status: response.statusCode ?? 0, socket: null, protocol: '' });
    });
    socket.on('open', () => {
      resolve({ status: 101, socket, protocol: socket.protocol });
    });
    socket.on('error', () => {
      resolve({ status: 0, socket: null, protocol: '' });
    });
  });
}

/** A socket client of the protocol: hello, calls, and the server's messages taken in order of type. */
export class SocketClient {
  readonly socket: WebSocket;
  readonly #inbox: Record<string, unknown>[] = [];
  readonly #waiters: (() => void)[] = [];
  #nextId = 1;

  constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data: Buffer) => {
      this.#inbox.push(JSON.parse(data.toString('utf8')) as Record<string, unknown>);
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  /** Every message received and not yet taken. */
  get inbox(): readonly Record<string, unknown>[] {
    return this.#inbox;
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The next message of this type (waits for it). */
  async next(type: string): Promise<Record<string, unknown>> {
    for (;;) {
      const at = this.#inbox.findIndex((message) => message['type'] === type);
      if (at >= 0) return this.#inbox.splice(at, 1)[0] as Record<string, unknown>;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  async hello(session: string): Promise<void> {
    this.send({ type: 'hello', session, subscriptions: [] });
    await this.next('ready');
  }

  /** Sends a call and returns its id (the answer comes as an `answer` message). */
  call(channel: string, input: unknown): number {
    const id = this.#nextId;
    this.#nextId += 1;
    this.send({ type: 'call', id, channel, input });
    return id;
  }

  /** A call's result, waited for: `{ok, value}` or `{ok: false, error}`. */
  async result(id: number): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
    for (;;) {
      const at = this.#inbox.findIndex((message) => message['type'] === 'answer' && message['id'] === id);
      if (at >= 0) {
        const answer = this.#inbox.splice(at, 1)[0] ?? {};
        return answer['result'] as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
      }
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  close(): void {
    this.socket.close();
  }
}
