/**
 * HTTP agents with a connect timeout. axios's `timeout` only watches an established exchange;
 * a bank address that swallows SYNs would otherwise hang for the OS's minutes-long default.
 * A socket that is not connected (TLS handshake included) within the limit is destroyed
 * with code ECONNECT_TIMEOUT, which the retry policy knows was never sent.
 */
import http from 'node:http';
import https from 'node:https';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

function armConnectTimeout(socket: Duplex | null | undefined, timeoutMs: number, secure: boolean): void {
  if (!(socket instanceof Socket) || !socket.connecting) return;
  const timer = setTimeout(() => {
    const error = new Error(`could not connect within ${String(timeoutMs)} ms`) as NodeJS.ErrnoException;
    error.code = 'ECONNECT_TIMEOUT';
    socket.destroy(error);
  }, timeoutMs);
  timer.unref();
  const disarm = (): void => {
    clearTimeout(timer);
  };
  socket.once(secure ? 'secureConnect' : 'connect', disarm);
  socket.once('close', disarm);
}

export class ConnectTimeoutHttpAgent extends http.Agent {
  readonly #timeoutMs: number;
  constructor(timeoutMs: number) {
    super({ keepAlive: true, maxSockets: 8 });
    this.#timeoutMs = timeoutMs;
  }
  override createConnection(
    options: http.ClientRequestArgs,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    armConnectTimeout(socket, this.#timeoutMs, false);
    return socket;
  }
}

export class ConnectTimeoutHttpsAgent extends https.Agent {
  readonly #timeoutMs: number;
  constructor(timeoutMs: number) {
    super({ keepAlive: true, maxSockets: 8 });
    this.#timeoutMs = timeoutMs;
  }
  override createConnection(
    options: http.ClientRequestArgs,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    armConnectTimeout(socket, this.#timeoutMs, true);
    return socket;
  }
}
