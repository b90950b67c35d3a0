/**
 * A loopback server that answers exactly what the real service answered (status, headers and
 * body as recorded) and keeps what it was asked, so a test can check the client asked the
 * same thing the recording shows.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedExchange } from './realWire.ts';

export interface ReceivedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface ReplayBank {
  baseUrl: string;
  /** The recorded answer every request gets until the next one is set. */
  answerWith(exchange: RecordedExchange): void;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startReplayBank(): Promise<ReplayBank> {
  let exchange: RecordedExchange | null = null;
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://replay.invalid');
      received.push({
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (exchange === null) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end('no recorded answer set');
        return;
      }
      const { status, headers, body } = exchange.response;
      response.writeHead(status, headers);
      response.end(body === null ? undefined : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${String(port)}`,
    answerWith(next) {
      exchange = next;
      received.length = 0;
    },
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
