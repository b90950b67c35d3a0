/**
 * A real local webhook receiver on 127.0.0.1 that fails on purpose: each request is answered
 * as `behave` says (a status, a reset connection, a redirect, or held until released).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour = number | 'reset' | 'hold' | { redirectTo: string };

export interface ReceivedNotification {
  at: number;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedNotification[];
  /** Requests held open right now (behaviour 'hold'). */
  held(): number;
  /** Most requests held open at the same moment. */
  maxHeld(): number;
  /** Answers every held request with `status`. */
  release(status?: number): void;
  behave: (notification: ReceivedNotification, index: number) => Behaviour;
  close(): Promise<void>;
}

export async function startReceiver(
  behave: (notification: ReceivedNotification, index: number) => Behaviour = () => 200,
): Promise<WebhookReceiver> {
  const received: ReceivedNotification[] = [];
  const holding = new Set<http.ServerResponse>();
  let maxHeld = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const notification: ReceivedNotification = {
        at: performance.now(),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        authorization: request.headers.authorization,
      };
      received.push(notification);
      const behaviour = receiver.behave(notification, received.length - 1);
      if (behaviour === 'reset') {
        request.socket.destroy();
      } else if (behaviour === 'hold') {
        holding.add(response);
        maxHeld = Math.max(maxHeld, holding.size);
      } else if (typeof behaviour === 'object') {
        response.writeHead(302, { location: behaviour.redirectTo }).end();
      } else {
        response.writeHead(behaviour, { 'content-type': 'text/plain' }).end(String(behaviour));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${String(port)}/hook`,
    received,
    held: () => holding.size,
    maxHeld: () => maxHeld,
    release(status = 200) {
      for (const response of holding) response.writeHead(status).end();
      holding.clear();
    },
    behave,
    async close() {
      receiver.release(503);
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
  return receiver;
}
