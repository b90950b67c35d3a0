/**
 * A bank further away, for the sync benchmark: a proxy on loopback, in a process of its own,
 * that forwards every request to the sandbox and holds each answer back by --delay-ms (the
 * round trip to a bank across a network), so the benchmark can show how a sync compares
 * with fetching once the fetch is not served from the same machine.
 *   node tests/bench/latencyProxy.ts --target http://127.0.0.1:PORT --delay-ms 10
 * prints one line {"baseUrl": …} when it listens, and stops on SIGTERM.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { target: { type: 'string' }, 'delay-ms': { type: 'string' } } });
const target = new URL(values.target ?? '');
const delayMs = Number(values['delay-ms'] ?? '0');
const upstream = new Agent({ keepAlive: true });

const server = createServer((incoming, outgoing) => {
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
