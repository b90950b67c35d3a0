/**
 * A server (or a bare client) in its own process for tests/bench/sandbox.bench.ts, so the load
 * generator never shares an event loop with what it measures. Prints one JSON line when ready;
 * stops on SIGTERM.
 *
 *   node sandboxBenchServer.ts sandbox <dataFile> <accounts> <perAccount> <pageCacheEntries> [lines]
 *     (`lines`: the request log on, one line per request as `npm run sandbox` prints it, written
 *     to <dataFile>.traffic.log as a terminal redirected to a file would take it)
 *   node sandboxBenchServer.ts bare <bytesFile>
 *   node sandboxBenchServer.ts bare-poster <url> <count> <concurrency>
 */
import { createWriteStream, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, trafficLineOf } from '../../src/sandbox/index.ts';

const [mode = '', ...args] = process.argv.slice(2);

function ready(line: object): void {
  process.stdout.write(JSON.stringify(line) + '\n');
}

if (mode === 'sandbox') {
  const [dataFile = ':memory:', accounts = '4', perAccount = '250', pageCacheEntries = '1024', traffic = ''] = args;
  const lines = traffic === 'lines' ? createWriteStream(`${dataFile}.traffic.log`) : null;
  const started = performance.now();
  const sandbox = await startSandbox({
    ...(lines === null ? {} : { traffic: (entry) => lines.write(`${trafficLineOf(entry)}\n`) }),
    dataFile,
    accounts: Number(accounts),
    pendingTransactionsPerAccount: Number(perAccount),
    pageCacheEntries: Number(pageCacheEntries),
    deliveryConcurrency: 16,
  });
  ready({
    baseUrl: sandbox.baseUrl,
    keyId: sandbox.keyId,
    keySecret: sandbox.keySecret,
    accounts: sandbox.demo.accounts,
    startMs: performance.now() - started,
  });
  process.once('SIGTERM', () => {
    // The request log's file stream is ended first, so every line written is in the file.
    void sandbox
      .close()
      .then(
        () =>
          new Promise<void>((resolve) => {
            if (lines === null) resolve();
            else lines.end(resolve);
          }),
      )
      .then(() => process.exit(0));
  });
} else if (mode === 'bare') {
  // The same bytes and headers the sandbox answers with, and nothing else.
  const body = readFileSync(args[0] ?? '');
  const server = http.createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/json;charset=utf-8',
      'cache-control': 'no-cache, no-store, must-revalidate',
      'content-length': body.length,
    });
    response.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    ready({ baseUrl: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}` });
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else if (mode === 'bare-poster') {
  // The floor for delivery: plain keep-alive POSTs of a notification, as many at once as the sandbox's pool.
  const [url = '', count = '0', concurrency = '16'] = args;
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(concurrency) });
  const body = JSON.stringify({
    event: 'ach.create',
    op: 'create',
    id: 'ach_bench',
    url: 'http://127.0.0.1/ach/ach_bench',
  });
  let next = 0;
  const started = performance.now();
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (answer) => {
          answer.resume();
          answer.on('end', resolve);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async () => {
      while (next < Number(count)) {
        next += 1;
        await post();
      }
    }),
  );
  ready({ elapsedMs: performance.now() - started });
  agent.destroy();
} else {
  process.stderr.write(`sandboxBenchServer: unknown mode ${mode}\n`);
  process.exit(2);
}
