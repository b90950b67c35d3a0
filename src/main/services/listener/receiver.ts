/**
 * The HTTP side of the listener, on bare node:http: read each body up to a cap while it
 * streams (never buffering past it), give up on bodies that arrive too slowly, hand every
 * arrival to `accept` (which decides, persists, then replies), and answer as told only then.
 * The answer reflects receipt only (spec §6.5): nothing downstream can slow it down.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { GuardedHeaders, LocalServerGuard } from '../../../shared/security/localServerGuard.ts';
import type { RequestOutcome } from './receivedRequest.ts';

export interface ReceiverLimits {
  /** Larger bodies are refused with 413 (default 1 MiB). */
  maxBodyBytes: number;
  /** How much of each body is kept in the log. */
  keepBodyBytes: number;
  /** A body must arrive in full within this time, or the request gets 408. */
  bodyTimeoutMs: number;
  /** How long a "no answer" rule holds a connection before closing it. */
  noAnswerHoldMs: number;
}

/** Why a request could not be read in full; null when it was. */
type ArrivalFailure = 'too_large' | 'timeout' | 'client_aborted' | 'bad_request' | null;

export interface Arrival {
  /** performance.now() when the request arrived, for durations. */
  startedAt: number;
  /** Epoch milliseconds. */
  receivedAt: number;
  method: string;
  path: string;
  query: string | null;
  remoteAddress: string | null;
  /** Node's rawHeaders: name, value, name, value... as sent. */
  rawHeaders: string[];
  authorization: string | undefined;
  contentType: string | undefined;
  /** The body read (all of it, or what arrived before the request failed, capped at keepBodyBytes when it did). */
  body: Buffer;
  bodyBytes: number;
  declaredBytes: number | null;
  bodyTruncated: boolean;
  failure: ArrivalFailure;
  /** For bad_request: what the HTTP parser objected to. */
  failureDetail: string | null;
}

export interface Answer {
  requestId: number;
  behaviour: 'answer' | 'no_answer' | 'drop';
  status: number;
  delayMs: number;
  /** Shown in the answer's body when the status is an error. */
  reason: string | null;
}

export interface ReceiverHandlers {
  /** Decide and persist one arrival; `reply` comes once it is written, and only then is it answered. */
  accept(arrival: Arrival, reply: (written: { answer: Answer } | { error: unknown }) => void): void;
  /** Called once per accepted request when its exchange is over. */
  settled(requestId: number, outcome: RequestOutcome, status: number | null, durationMs: number, late: boolean): void;
  /** A failure of the listener itself while handling a request; the request got a 500. */
  failed(error: unknown): void;
}

const RECEIVED = Buffer.from('{"received":true}');
const JSON_TYPE = 'application/json;charset=utf-8';

function errorBody(reason: string): Buffer {
  return Buffer.from(JSON.stringify({ error: reason }));
}

function declaredLengthOf(header: string | undefined): number | null {
  if (header === undefined || !/^[0-9]{1,15}$/.test(header)) return null;
  return Number(header);
}

export class Receiver {
  readonly server: Server;
  #limits: ReceiverLimits;
  readonly #handlers: ReceiverHandlers;
  /** Requests answered late or held open, each with what to record if the listener stops first. */
  readonly #waiting = new Map<NodeJS.Timeout, () => void>();
  /** Who may talk to the listener at all; until the port is known, nobody. */
  #guard: LocalServerGuard = () => ({ status: 421, error: 'The listener is still starting.' });
  #refused = 0;
  /** Requests Node could not parse that were kept lately (N3: a page cannot flood the log). */
  readonly #badRequests = new RecentCount(BAD_REQUESTS_KEPT_PER_MINUTE, 60_000);

  constructor(limits: ReceiverLimits, handlers: ReceiverHandlers) {
    this.#limits = limits;
    this.#handlers = handlers;
    this.server = createServer(
      {
        // Our own body timer records what happened; Node's coarse one would answer first.
        requestTimeout: 0,
        headersTimeout: 30_000,
        keepAliveTimeout: 5_000,
        maxHeaderSize: 16_384,
      },
      (request, response) => {
        this.#onRequest(request, response);
      },
    );
    // A flood must not be able to open sockets without bound.
    this.server.maxConnections = 1024;
    this.server.on('clientError', (error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket) => {
      this.#onClientError(error, socket);
    });
  }

  setLimits(limits: ReceiverLimits): void {
    this.#limits = limits;
  }

  /** Set once bound: requests for another Host, or made by a web page, are refused and never kept. */
  setGuard(guard: LocalServerGuard): void {
    this.#guard = guard;
  }

  /** Requests refused by the guard since the start (they are not kept anywhere else). */
  get refused(): number {
    return this.#refused;
  }

  /** Close every connection, answered or not, and every held request. */
  async close(): Promise<void> {
    for (const [timer, abandon] of this.#waiting) {
      clearTimeout(timer);
      abandon();
    }
    this.#waiting.clear();
    const closed = new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
    this.server.closeAllConnections();
    await closed;
  }

  #onRequest(request: IncomingMessage, response: ServerResponse): void {
    const refusal = this.#guard(request.headers, request.rawHeaders);
    if (refusal !== null) {
      // Answered before the body is read, and the connection closed: nothing of it is kept.
      this.#refused += 1;
      this.#write(response, refusal.status, refusal.error, true);
      return;
    }
    const startedAt = performance.now();
    const receivedAt = Date.now();
    const limits = this.#limits;
    const declaredBytes = declaredLengthOf(request.headers['content-length']);
    const chunks: Buffer[] = [];
    let bodyBytes = 0;
    let done = false;

    const arrive = (failure: ArrivalFailure, truncated: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.off('data', onData);
      let body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      if (failure !== null && body.length > limits.keepBodyBytes) body = body.subarray(0, limits.keepBodyBytes);
      if (failure === null && body.length > limits.keepBodyBytes) {
        body = body.subarray(0, limits.keepBodyBytes);
        truncated = true;
      }
      const url = request.url ?? '';
      const queryAt = url.indexOf('?');
      const arrival: Arrival = {
        startedAt,
        receivedAt,
        method: request.method ?? '',
        path: queryAt < 0 ? url : url.slice(0, queryAt),
        query: queryAt < 0 ? null : url.slice(queryAt + 1),
        remoteAddress: request.socket.remoteAddress ?? null,
        rawHeaders: request.rawHeaders,
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body,
        bodyBytes,
        declaredBytes,
        bodyTruncated: truncated,
        failure,
        failureDetail: null,
      };
      this.#answer(arrival, request, response);
    };

    const onData = (chunk: Buffer): void => {
      const room = limits.maxBodyBytes - bodyBytes;
      bodyBytes += chunk.length;
      if (chunk.length > room) {
        // Keep nothing past the cap: the rest of this body is never buffered.
        if (room > 0) chunks.push(chunk.subarray(0, room));
        arrive('too_large', true);
        return;
      }
      chunks.push(chunk);
    };

    const timer = setTimeout(() => {
      arrive('timeout', true);
    }, limits.bodyTimeoutMs);

    if (declaredBytes !== null && declaredBytes > limits.maxBodyBytes) {
      arrive('too_large', true);
      return;
    }
    request.on('data', onData);
    request.once('end', () => {
      arrive(null, false);
    });
    request.once('close', () => {
      // Closed before the body ended: the sender gave up (or the connection broke).
      if (!request.complete) arrive('client_aborted', true);
    });
    request.once('error', () => {
      arrive('client_aborted', true);
    });
  }

  #answer(arrival: Arrival, request: IncomingMessage, response: ServerResponse): void {
    this.#handlers.accept(arrival, (written) => {
      if ('error' in written) {
        // The record could not be written: say so to the sender (which will retry) rather than pretend.
        this.#handlers.failed(written.error);
        if (!response.headersSent && !response.destroyed) {
          this.#write(response, 500, 'The listener could not record this request.', true);
        }
        return;
      }
      this.#respond(arrival, written.answer, request, response);
    });
  }

  #respond(arrival: Arrival, answer: Answer, request: IncomingMessage, response: ServerResponse): void {
    const { requestId } = answer;
    const durationOf = (): number => performance.now() - arrival.startedAt;
    if (arrival.failure === 'client_aborted') {
      this.#handlers.settled(requestId, 'client_aborted', null, durationOf(), false);
      request.socket.destroy();
      return;
    }
    if (answer.behaviour === 'drop') {
      request.socket.destroy();
      this.#handlers.settled(requestId, 'dropped', null, durationOf(), false);
      return;
    }
    if (answer.behaviour === 'no_answer') {
      const hold = setTimeout(() => {
        this.#waiting.delete(hold);
        request.socket.destroy();
      }, this.#limits.noAnswerHoldMs);
      this.#waiting.set(hold, () => undefined);
      request.socket.once('close', () => {
        clearTimeout(hold);
        this.#waiting.delete(hold);
      });
      this.#handlers.settled(requestId, 'no_answer', null, durationOf(), false);
      return;
    }
    // A request we could not read in full ends its connection: the rest of its bytes are unwanted.
    const close = arrival.failure !== null;
    const send = (late: boolean): void => {
      if (response.destroyed || request.socket.destroyed) {
        this.#handlers.settled(requestId, 'client_aborted', null, durationOf(), late);
        return;
      }
      response.setHeader('x-ledgerdesk-request', String(requestId));
      this.#write(response, answer.status, answer.reason, close);
      const outcome: RequestOutcome =
        arrival.failure === 'too_large' ? 'too_large' : arrival.failure === 'timeout' ? 'timeout' : 'answered';
      this.#handlers.settled(requestId, outcome, answer.status, durationOf(), late);
    };
    if (answer.delayMs <= 0) {
      send(false);
      return;
    }
    const delay = setTimeout(() => {
      this.#waiting.delete(delay);
      send(true);
    }, answer.delayMs);
    // Stopped before the delay ran out: no answer was given.
    this.#waiting.set(delay, () => {
      this.#handlers.settled(requestId, 'no_answer', null, durationOf(), true);
    });
  }

  #write(response: ServerResponse, status: number, reason: string | null, close: boolean): void {
    const body = status < 400 ? RECEIVED : errorBody(reason ?? `Answered ${status} by the listener.`);
    const headers: Record<string, string | number> = { 'content-type': JSON_TYPE, 'content-length': body.length };
    if (close) headers.connection = 'close';
    response.writeHead(status, headers);
    response.end(body);
  }

  #onClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket): void {
    // A peer that simply went away is not a request.
    if (error.code === 'ECONNRESET' || socket.destroyed) {
      socket.destroy();
      return;
    }
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const status = timedOut ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const raw = error.rawPacket ?? Buffer.alloc(0);
    // The same guard as every request (review N3): the Host/Origin lines read from the raw
    // packet; one without its own Host line is refused. Refused, or over the rate of kept bad
    // requests, it is answered and counted, never kept.
    const seen = headersOfRawPacket(raw);
    const refusal = this.#guard(seen.headers, seen.rawHeaders);
    if (refusal !== null || !this.#badRequests.admit(Date.now())) {
      this.#refused += 1;
      const answer = refusal ?? { status: 429, error: 'Too many requests that are not valid HTTP.' };
      if (socket.writable) {
        const body = errorBody(answer.error);
        socket.end(
          `HTTP/1.1 ${String(answer.status)} Refused\r\nContent-Type: ${JSON_TYPE}\r\n` +
            `Content-Length: ${String(body.length)}\r\nConnection: close\r\n\r\n${body.toString()}`,
        );
      } else {
        socket.destroy();
      }
      return;
    }
    const kept = Math.min(raw.length, this.#limits.keepBodyBytes, BAD_REQUEST_KEPT_BYTES);
    const arrival: Arrival = {
      startedAt: performance.now(),
      receivedAt: Date.now(),
      method: '',
      path: '',
      query: null,
      remoteAddress: socket.remoteAddress ?? null,
      rawHeaders: [],
      authorization: undefined,
      contentType: undefined,
      body: raw.subarray(0, kept),
      bodyBytes: raw.length,
      declaredBytes: null,
      bodyTruncated: raw.length > kept,
      failure: timedOut ? 'timeout' : 'bad_request',
      failureDetail: `${error.code ?? 'error'}: ${error.message}`,
    };
    // Written first, like every request; then answered, and the unusable connection closed.
    this.#handlers.accept(arrival, (written) => {
      if ('error' in written) this.#handlers.failed(written.error);
      if (socket.writable) {
        const body = errorBody(timedOut ? 'The request did not arrive in time.' : 'The request is not valid HTTP.');
        const reason = timedOut
          ? 'Request Timeout'
          : status === 431
            ? 'Request Header Fields Too Large'
            : 'Bad Request';
        socket.end(
          `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${JSON_TYPE}\r\n` +
            `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.toString()}`,
        );
      } else {
        socket.destroy();
      }
      if ('answer' in written) {
        this.#handlers.settled(written.answer.requestId, timedOut ? 'timeout' : 'bad_request', status, 0, false);
      }
    });
  }
}

/** What a request Node could not parse keeps at most (N3): enough to see what it was. */
const BAD_REQUEST_KEPT_BYTES = 2048;
/** How many such requests are kept in any minute; more are answered, counted and dropped. */
const BAD_REQUESTS_KEPT_PER_MINUTE = 20;

/** A sliding count of events over a window: `admit` says whether one more fits. */
class RecentCount {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #times: number[] = [];

  constructor(max: number, windowMs: number) {
    this.#max = max;
    this.#windowMs = windowMs;
  }

  admit(now: number): boolean {
    while (this.#times.length > 0 && (this.#times[0] ?? 0) <= now - this.#windowMs) this.#times.shift();
    if (this.#times.length >= this.#max) return false;
    this.#times.push(now);
    return true;
  }
}

/** The header lines of a raw request, read as well as they can be (up to 64 KiB of it). */
function headersOfRawPacket(raw: Buffer): { headers: GuardedHeaders; rawHeaders: string[] } {
  const text = raw.subarray(0, 65_536).toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const lines = (end === -1 ? text : text.slice(0, end)).split(/\r?\n/).slice(1);
  const rawHeaders: string[] = [];
  const headers: GuardedHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    rawHeaders.push(name, value);
    if (name === 'host') headers.host ??= value;
    else if (name === 'origin') headers.origin ??= value;
    else if (name === 'sec-fetch-site') headers['sec-fetch-site'] ??= value;
  }
  return { headers, rawHeaders };
}
