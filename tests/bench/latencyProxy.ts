/**
 * A bank further away, for the sync benchmark: a proxy on loopback, in a process of its own,
 * that forwards every request to the sandbox and holds each answer back by --delay-ms (the
 * round trip to a bank across a network), so the benchmark can show how a sync compares
 * with fetching once the fetch is not served from the same machine.
 *   node tests/bench/latencyProxy.ts --target http://127.0.0.1:PORT --delay-ms 10
 * prints one line {"baseUrl": …} when it listens, and stops on SIGTERM. With --log FILE it
 * appends one line a request once answered, `START_MS END_MS STATUS METHOD PATH` (times from
 * Date.now()), so a benchmark can replay the exact requests a sync made and see its phases.
 */
import { appendFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { target: { type: 'string' }, 'delay-ms': { type: 'string' }, log: { type: 'string' } },
});
const target = new URL(values.target ?? '');
const delayMs = Number(values['delay-ms'] ?? '0');
const upstream = new Agent({ keepAlive: true });

const logFile = values.log;

const server = createServer((incoming, outgoing) => {
  const arrived = Date.now();
  const forwarded = request(
    {
      agent: upstream,
      hostname: target.hostname,
      port: target.port,
      method: incoming.method,
      path: incoming.url,
      headers: { ...incoming.headers, host: target.host },
    },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        setTimeout(() => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(Buffer.concat(chunks));
          if (logFile !== undefined) {
            const line = `${String(arrived)} ${String(Date.now())} ${String(answer.statusCode ?? 502)} ${incoming.method ?? 'GET'} ${incoming.url ?? '/'}`;
            appendFileSync(logFile, line + '\n');
          }
        }, delayMs);
      });
    },
  );
  forwarded.on('error', () => {
    outgoing.writeHead(502).end();
  });
  incoming.pipe(forwarded);
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(JSON.stringify({ baseUrl: `http://127.0.0.1:${String(port)}` }) + '\n');
});
process.on('SIGTERM', () => {
  server.close();
  upstream.destroy();
  process.exit(0);
});
