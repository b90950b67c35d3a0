/**
 * A small fault-injecting bank on loopback: each test says how to answer each request (bank
 * down, slow, 500s, a 429 storm, malformed JSON, data that violates the schema…), and can
 * see every request that arrived, headers included.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ArrivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Responder = (request: ArrivedRequest, response: ServerResponse, index: number) => void | Promise<void>;

export interface FaultServer {
  baseUrl: string;
  requests: ArrivedRequest[];
  respond(responder: Responder): void;
  close(): Promise<void>;
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json;charset=utf-8', ...headers });
  response.end(text);
}

export async function startFaultServer(): Promise<FaultServer> {
  let responder: Responder = (_request, response) => {
    json(response, 404, { error: 'No responder set.' });
  };
  const requests: ArrivedRequest[] = [];
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const arrived: ArrivedRequest = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(arrived);
      void Promise.resolve(responder(arrived, response, requests.length - 1)).catch(() => {
        response.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${String(port)}`,
    requests,
    respond(next) {
      responder = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
