/**
 * The one HTTP transport of the main process: every outbound call (the bank client, a file's
 * download, the listener's fetch of a notification's object, its forwards and replays) goes
 * through `HttpTransport.send`, and nothing else in src/main opens a connection of its own
 * (tests/unit/oneTransport.test.ts fails when something does). Per call, a NetworkPolicy
 * decides the route (direct, or a CONNECT tunnel through a proxy: proxyPolicy.ts) and the
 * trust (trust.ts); connections are pooled per route and trust, kept alive, at most 8 per
 * destination. Answers are read whole (decompressed) up to a size, within a time.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { openConnection, type Destination } from './openConnection.ts';
import { routeKey, type ProxyRoute } from './proxyRoute.ts';
import { TransportError } from './transportError.ts';
import type { Trust } from './trust.ts';

/** How one call is routed and whom it trusts: decided per URL. */
export interface NetworkPolicy {
  routeFor(url: URL): Promise<ProxyRoute>;
  trust(): Trust;
}

export interface TransportRequest {
  /** Absolute http:// or https:// URL. */
  url: string;
  method: string;
  /** In order; Host and Content-Length are set here. */
  headers: readonly (readonly [string, string])[];
  body?: Uint8Array | null;
  policy: NetworkPolicy;
  /** How messages name the other end: "the bank of Acme (https://api.acme.example)". */
  destinationName: string;
  /** Time to connect (TCP, the proxy's tunnel, TLS). */
  connectMs: number;
  /** Time for the whole exchange, from the start. */
  responseMs: number;
  /** The most of the (decompressed) answer read. */
  maxBytes: number;
  /** `refuse` (default): a longer answer is a 'too-large' failure; `truncate`: the first maxBytes are kept. */
  overflow?: 'refuse' | 'truncate';
  signal?: AbortSignal;
}

export interface TransportAnswer {
  status: number;
  /** Lower-case names; repeated headers joined as Node joins them. */
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** With overflow 'truncate': whether the answer was longer than what was kept. */
  truncated: boolean;
  durationMs: number;
}

const MAX_SOCKETS_PER_DESTINATION = 8;

/** An agent whose connections are made by openConnection(): direct or tunnelled, TLS when https. */
class RoutedAgent extends http.Agent {
  readonly #destinationProtocol: 'http:' | 'https:';
  readonly #route: ProxyRoute;
  readonly #trust: () => Trust;
  readonly #connectMs: number;

  constructor(protocol: 'http:' | 'https:', route: ProxyRoute, trust: () => Trust, connectMs: number) {
    super({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_DESTINATION, scheduling: 'lifo' });
    this.#destinationProtocol = protocol;
    this.#route = route;
    this.#trust = trust;
    this.#connectMs = connectMs;
  }

  override createConnection(
    options: http.ClientRequestArgs & { destinationName?: string },
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const destination: Destination = {
      protocol: this.#destinationProtocol,
      host: (options.host ?? '').replace(/^\[|\]$/g, ''),
      port: Number(options.port),
      name: options.destinationName ?? `${this.#destinationProtocol}//${String(options.host)}:${String(options.port)}`,
    };
    openConnection(destination, this.#route, this.#trust, this.#connectMs).then(
      (socket) => {
        callback?.(null, socket);
      },
      (error: unknown) => {
        callback?.(error as Error, undefined as unknown as Duplex);
      },
    );
    return undefined;
  }
}

function decoderOf(encoding: string | undefined): NodeJS.ReadWriteStream | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

export class HttpTransport {
  readonly #agents = new Map<string, RoutedAgent>();
  #closed = false;

  /** Send one request and read its answer; every failure before an answer is a TransportError. */
  async send(request: TransportRequest): Promise<TransportAnswer> {
    if (this.#closed) throw new Error('The HTTP transport is closed.');
    const started = performance.now();
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`${request.url} is not an http:// or https:// address.`);
    }
    if (request.signal?.aborted === true) throw cancelled(request);
    let route: ProxyRoute;
    try {
      route = await request.policy.routeFor(url);
    } catch (error) {
      if (error instanceof TransportError) throw error;
      throw new TransportError({
        kind: 'proxy-setting',
        message: `No route to ${request.destinationName}: ${error instanceof Error ? error.message : String(error)}`,
        action:
          'Correct the proxy setting (the profile’s Network section, or HTTPS_PROXY / HTTP_PROXY), then try again.',
        code: null,
        neverSent: true,
      });
    }
    // The trust (a secure context holding every root certificate, bundled and the system's: about
    // 63 ms of the first call in web mode's start, issue 36) is made only for an https:// address;
    // a plain http:// one (the embedded sandbox, a bank on this machine) never handshakes, so its
    // first call does not pay for it. A proxy is reached in plain (a CONNECT tunnel).
    const agent = this.#agentFor(url.protocol, route, request.policy, request.connectMs);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    const headers: [string, string][] = [['Host', url.host]];
    for (const [name, value] of request.headers) {
      if (name.toLowerCase() !== 'host' && name.toLowerCase() !== 'content-length') headers.push([name, value]);
    }
    const body = request.body ?? null;
    if (body !== null) headers.push(['Content-Length', String(body.byteLength)]);
    return new Promise<TransportAnswer>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: { answer: TransportAnswer } | { error: Error }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        if ('answer' in outcome) resolve(outcome.answer);
        else reject(outcome.error);
      };
      const outgoing = http.request({
        protocol: 'http:',
        host: url.hostname,
        port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: headers.flat(),
        agent,
        destinationName: request.destinationName,
      } as http.RequestOptions);
      const timer = setTimeout(() => {
        outgoing.destroy(
          new TransportError({
            kind: 'timeout',
            message: `${capitalised(request.destinationName)} did not answer within ${String(request.responseMs)} ms.`,
            action: 'It is slow or out of reach: try again in a moment.',
            code: 'ETIMEDOUT',
            neverSent: false,
          }),
        );
      }, request.responseMs);
      timer.unref();
      const onAbort = (): void => {
        outgoing.destroy(cancelled(request));
      };
      request.signal?.addEventListener('abort', onAbort, { once: true });
      outgoing.on('error', (error) => {
        finish({ error: asTransportError(error, request) });
      });
      outgoing.on('response', (response) => {
        const decoder = decoderOf(response.headers['content-encoding']);
        const stream: NodeJS.ReadableStream = decoder === null ? response : response.pipe(decoder);
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const stop = (): void => {
          response.destroy();
          decoder?.end();
        };
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          if (size + chunk.length > request.maxBytes) {
            if (request.overflow === 'truncate') {
              chunks.push(chunk.subarray(0, request.maxBytes - size));
              size = request.maxBytes;
              truncated = true;
              // Settled first: destroying the answer emits its own abort at once.
              finish({ answer: answerOf(response, chunks, truncated, started) });
              stop();
              return;
            }
            finish({
              error: new TransportError({
                kind: 'too-large',
                message: `${capitalised(request.destinationName)} answered more than ${String(request.maxBytes)} bytes, the most Ledgerdesk reads here.`,
                action: 'The answer was refused as it arrived; nothing of it was kept.',
                code: 'ETOOLARGE',
                neverSent: false,
              }),
            });
            stop();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        stream.on('end', () => {
          finish({ answer: answerOf(response, chunks, truncated, started) });
        });
        stream.on('error', (error: Error) => {
          finish({ error: asTransportError(error, request) });
        });
        response.on('aborted', () => {
          finish({ error: asTransportError(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), request) });
        });
      });
      outgoing.end(body === null ? undefined : Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    });
  }

  /** Close every pooled connection; sends after this are refused. */
  close(): void {
    this.#closed = true;
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }

  #agentFor(protocol: string, route: ProxyRoute, policy: { trust(): Trust }, connectMs: number): RoutedAgent {
    const secure = protocol === 'https:';
    const trust = secure ? policy.trust() : null;
    // A hash of the proxy's password, in memory only, so tunnels made with one login are never reused for another.
    const tag =
      route.kind === 'proxy' && route.credentials !== null
        ? createHash('sha256').update(route.credentials.password).digest('hex').slice(0, 16)
        : '';
    const key = `${protocol}|${routeKey(route, tag)}|${trust?.key ?? 'plain'}|${String(connectMs)}`;
    let agent = this.#agents.get(key);
    if (agent === undefined) {
      agent = new RoutedAgent(
        secure ? 'https:' : 'http:',
        route,
        // Asked again for a plain agent only if it ever had to secure a connection (it never does).
        () => trust ?? policy.trust(),
        connectMs,
      );
      this.#agents.set(key, agent);
    }
    return agent;
  }
}

function answerOf(
  response: http.IncomingMessage,
  chunks: Buffer[],
  truncated: boolean,
  started: number,
): TransportAnswer {
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    body: Buffer.concat(chunks),
    truncated,
    durationMs: performance.now() - started,
  };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function cancelled(request: TransportRequest): TransportError {
  return new TransportError({
    kind: 'cancelled',
    message: `The request to ${request.destinationName} was cancelled.`,
    action: 'Nothing to do.',
    code: 'ABORT_ERR',
    neverSent: false,
  });
}

function asTransportError(error: unknown, request: TransportRequest): TransportError {
  if (error instanceof TransportError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code ?? null;
  const message = error instanceof Error ? error.message : String(error);
  return new TransportError({
    kind: 'connection-lost',
    message: `The connection to ${request.destinationName} broke before its answer was read (${code ?? message}).`,
    action: 'Try again in a moment.',
    code,
    neverSent: false,
  });
}
