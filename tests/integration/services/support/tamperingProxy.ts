/**
 * A proxy on loopback between the app and a bank: it forwards every request as it came and the
 * bank's answer as it came, except where a test says how to spoil one (an answer cut short,
 * swapped for other bytes, or held back past the client's timeout), the way a flaky network or
 * a bank changing its shapes would. It keeps what it forwarded, so a test can check what the
 * bank was asked.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Forwarded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** What the bank answered (before any spoiling). */
  status: number;
  answer: string;
}

/** What to send instead of the bank's answer: other bytes, or nothing (the connection is dropped after a while). */
export type Spoiler = (forwarded: Forwarded, index: number) => { body: string } | { holdMs: number } | null;

export interface TamperingProxy {
  baseUrl: string;
  forwarded: Forwarded[];
  spoil(spoiler: Spoiler | null): void;
  close(): Promise<void>;
}

export async function startTamperingProxy(bankUrl: string): Promise<TamperingProxy> {
  let spoiler: Spoiler | null = null;
  const forwarded: Forwarded[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length' && name !== 'connection') {
          headers[name] = value;
        }
      }
      void (async () => {
        const answer = await fetch(new URL(incoming.url ?? '/', bankUrl), {
          method: incoming.method ?? 'GET',
          headers,
          ...(body.length === 0 ? {} : { body }),
        });
        const text = await answer.text();
        const record: Forwarded = {
          method: incoming.method ?? 'GET',
          path: incoming.url ?? '/',
          headers: incoming.headers,
          status: answer.status,
          answer: text,
        };
        forwarded.push(record);
        const spoiled = spoiler?.(record, forwarded.length - 1) ?? null;
        if (spoiled !== null && 'holdMs' in spoiled) {
          setTimeout(() => outgoing.destroy(), spoiled.holdMs);
          return;
        }
        const sent = spoiled === null ? text : spoiled.body;
        outgoing.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json;charset=utf-8',
        });
        outgoing.end(answer.status === 204 ? undefined : sent);
      })().catch(() => {
        outgoing.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${String(port)}`,
    forwarded,
    spoil(next) {
      spoiler = next;
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
