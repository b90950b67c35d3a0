/**
 * A raw HTTP client for fuzzing: any method, any header (fetch refuses some), any bytes, on
 * a keep-alive agent, with a deadline so a hung answer fails the run instead of hanging it.
 */
import { Agent, request } from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query, already encoded as they should travel. */
  target: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function rawClient(baseUrl: string): { send(raw: RawRequest): Promise<RawAnswer>; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const origin = new URL(baseUrl);
  return {
    send(raw) {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string | number> = { ...raw.headers };
        if (raw.body !== null) headers['content-length'] = raw.body.length;
        const outgoing = request(
          {
            host: origin.hostname,
            port: origin.port,
            method: raw.method,
            path: raw.target,
            headers,
            agent,
            timeout: 30_000,
          },
          (incoming) => {
            const chunks: Buffer[] = [];
            incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
            incoming.on('end', () => {
              resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) });
            });
            incoming.on('error', reject);
          },
        );
        outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer to ${raw.method} ${raw.target} in 30 s`)));
        outgoing.on('error', reject);
        outgoing.end(raw.body ?? undefined);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
