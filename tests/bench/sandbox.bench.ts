/**
 * `npm run bench -- sandbox`: the sandbox bank under load, each figure against a baseline
 * measured in the same run.
 *
 * - A page of 100 pending transactions out of 1,000,000 (4 accounts × 250,000): requests/s and
 *   p99 with autocannon, against a bare node:http server returning the same bytes and headers.
 *   Servers run in their own process; autocannon runs here. Bare and sandbox alternate, twice,
 *   and each side keeps its best round, so a noisy neighbour hurts both alike.
 * - The same page built on every request (page cache off), to show what the cache buys.
 * - Webhook deliveries per second to a fast local receiver, against bare keep-alive POSTs with
 *   the same concurrency.
 * - Seeding 1,000,000 pending transactions into a data file (no baseline: a time).
 *
 * SANDBOX_BENCH_ROWS_PER_ACCOUNT and SANDBOX_BENCH_SECONDS shrink a run for a quick look.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { BenchFigure, Benchmark } from './benchmark.ts';

const HELPER = join(import.meta.dirname, 'sandboxBenchServer.ts');
const ACCOUNTS = 4;
const ROWS_PER_ACCOUNT = Number(process.env.SANDBOX_BENCH_ROWS_PER_ACCOUNT ?? 250_000);
const SECONDS = Number(process.env.SANDBOX_BENCH_SECONDS ?? 8);
const CONNECTIONS = 32;
const ROUNDS = 2;

interface Helper<Line> {
  line: Line;
  stop(): Promise<void>;
}

/** Starts sandboxBenchServer.ts in its own Node process and reads its JSON line. */
function startHelper<Line>(args: string[]): Promise<Helper<Line>> {
  const child: ChildProcess = spawn(process.execPath, [HELPER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const newline = output.indexOf('\n');
      if (newline < 0) return;
      resolve({
        line: JSON.parse(output.slice(0, newline)) as Line,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    void exited.then(() => {
      reject(new Error(`bench helper ${args[0] ?? ''} exited before it was ready`));
    });
  });
}

interface Load {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

async function load(url: string, authorization: string | undefined): Promise<Load> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: authorization === undefined ? {} : { authorization },
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function best(loads: Load[]): Load {
  return loads.reduce((winner, entry) => (entry.requestsPerSecond > winner.requestsPerSecond ? entry : winner));
}

interface SandboxLine {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  accounts: string[];
  startMs: number;
}

const pageBenchmark: Benchmark = {
  title: 'sandbox: a page of 100 pending transactions',
  async run(): Promise<BenchFigure[]> {
    const folder = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
    const helpers: Helper<unknown>[] = [];
    try {
      const rows = ACCOUNTS * ROWS_PER_ACCOUNT;
      const sandbox = await startHelper<SandboxLine>([
        'sandbox',
        join(folder, 'cached.db'),
        String(ACCOUNTS),
        String(ROWS_PER_ACCOUNT),
        '1024',
      ]);
      helpers.push(sandbox);
      const authorization =
        'Basic ' + Buffer.from(`${sandbox.line.keyId}:${sandbox.line.keySecret}`).toString('base64');
      const pageUrl = `${sandbox.line.baseUrl}/account/${sandbox.line.accounts[0] ?? ''}/pending_transaction?page_size=100`;
      const page = Buffer.from(await (await fetch(pageUrl, { headers: { authorization } })).arrayBuffer());
      const bytesFile = join(folder, 'page.json');
      writeFileSync(bytesFile, page);
      const bare = await startHelper<{ baseUrl: string }>(['bare', bytesFile]);
      helpers.push(bare);
      const bareUrl = `${bare.line.baseUrl}/account/x/pending_transaction?page_size=100`;

      // The same sandbox with its request log on (`npm run sandbox` without --quiet), same data file.
      const logging = await startHelper<SandboxLine>([
        'sandbox',
        join(folder, 'cached.db'),
        String(ACCOUNTS),
        String(ROWS_PER_ACCOUNT),
        '1024',
        'lines',
      ]);
      helpers.push(logging);
      const loggingUrl = `${logging.line.baseUrl}/account/${logging.line.accounts[0] ?? ''}/pending_transaction?page_size=100`;
      const loggingAuthorization =
        'Basic ' + Buffer.from(`${logging.line.keyId}:${logging.line.keySecret}`).toString('base64');

      const bareLoads: Load[] = [];
      const sandboxLoads: Load[] = [];
      const loggingLoads: Load[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        bareLoads.push(await load(bareUrl, undefined));
        // Log off and log on take turns going first, so neither always meets the machine's next burst.
        if (round % 2 === 0) {
          sandboxLoads.push(await load(pageUrl, authorization));
          loggingLoads.push(await load(loggingUrl, loggingAuthorization));
        } else {
          loggingLoads.push(await load(loggingUrl, loggingAuthorization));
          sandboxLoads.push(await load(pageUrl, authorization));
        }
      }
      await sandbox.stop();
      await logging.stop();
      await bare.stop();
      const loggedLines = readFileSync(join(folder, 'cached.db.traffic.log'), 'utf8').split('\n').length - 1;
      const loggingBest = best(loggingLoads);

      // The same page, built from SQLite on every request.
      const uncached = await startHelper<SandboxLine>([
        'sandbox',
        join(folder, 'cached.db'),
        String(ACCOUNTS),
        String(ROWS_PER_ACCOUNT),
        '0',
      ]);
      helpers.push(uncached);
      const uncachedUrl = `${uncached.line.baseUrl}/account/${uncached.line.accounts[0] ?? ''}/pending_transaction?page_size=100`;
      const uncachedLoad = await load(uncachedUrl, authorization);
      await uncached.stop();

      const bareBest = best(bareLoads);
      const sandboxBest = best(sandboxLoads);
      const ratio = sandboxBest.requestsPerSecond / bareBest.requestsPerSecond;
      const errors = sandboxLoads.reduce((sum, entry) => sum + entry.errors, 0);
      if (errors > 0) throw new Error(`${String(errors)} failed requests against the sandbox`);
      return [
        {
          name: `requests/s, page of 100 (${String(page.length)} B) out of ${rows.toLocaleString('en-US')}`,
          value: sandboxBest.requestsPerSecond,
          unit: 'req/s',
          baseline: { name: 'bare node:http, same bytes', value: bareBest.requestsPerSecond },
          target: '≥ 50% of bare',
          met: ratio >= 0.5,
        },
        {
          name: `requests/s with the request log on (one line per request; ${loggedLines.toLocaleString('en-US')} lines written)`,
          value: loggingBest.requestsPerSecond,
          unit: 'req/s',
          baseline: { name: 'the same sandbox, log off', value: sandboxBest.requestsPerSecond },
          target: '≥ 90% of log off (costs ≤ 10%)',
          met: loggingBest.requestsPerSecond >= sandboxBest.requestsPerSecond * 0.9,
        },
        {
          name: 'p99 latency, page of 100',
          value: sandboxBest.p99Ms,
          unit: 'ms',
          baseline: { name: 'bare node:http p99', value: bareBest.p99Ms },
          target: 'p99 < 50 ms',
          met: sandboxBest.p99Ms < 50,
        },
        {
          name: 'requests/s, same page built per request (page cache off)',
          value: uncachedLoad.requestsPerSecond,
          unit: 'req/s',
          baseline: { name: 'bare node:http, same bytes', value: bareBest.requestsPerSecond },
        },
        {
          name: `seed ${rows.toLocaleString('en-US')} pending transactions into a data file`,
          value: sandbox.line.startMs / 1000,
          unit: 's',
        },
      ];
    } finally {
      for (const helper of helpers) await helper.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

/** A fast receiver in this process: counts POSTs and answers 200 at once. */
async function countingReceiver(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/hook`,
    count: () => received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}

async function waitFor(condition: () => boolean, pauseMs: number, attempts: number): Promise<void> {
  for (let attempt = 0; attempt < attempts && !condition(); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  if (!condition()) throw new Error('gave up waiting for deliveries');
}

const WEBHOOKS = 100;
const EVENTS = 40;

const deliveryBenchmark: Benchmark = {
  title: 'sandbox: webhook deliveries',
  async run(): Promise<BenchFigure[]> {
    const receiver = await countingReceiver();
    const sandbox = await startHelper<SandboxLine>(['sandbox', ':memory:', '1', '10', '1024']);
    try {
      const authorization =
        'Basic ' + Buffer.from(`${sandbox.line.keyId}:${sandbox.line.keySecret}`).toString('base64');
      const headers = { authorization, 'content-type': 'application/json' };
      // Many webhooks on one event: each simulation owes WEBHOOKS deliveries.
      for (let index = 0; index < WEBHOOKS; index += 1) {
        await fetch(`${sandbox.line.baseUrl}/webhook`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ event: 'ach.create', url: receiver.url }),
        });
      }
      const total = WEBHOOKS * EVENTS;
      const started = performance.now();
      for (let index = 0; index < EVENTS; index += 1) {
        await fetch(`${sandbox.line.baseUrl}/simulation`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            type: 'ach.create',
            simulation: { account_id: sandbox.line.accounts[0], amount: '1.00', direction: 'credit' },
          }),
        });
      }
      await waitFor(() => receiver.count() >= total, 20, 30_000);
      const sandboxRate = total / ((performance.now() - started) / 1000);

      const poster = await startHelper<{ elapsedMs: number }>(['bare-poster', receiver.url, String(total), '16']);
      const bareRate = total / (poster.line.elapsedMs / 1000);
      await poster.stop();
      return [
        {
          name: `deliveries/s to a fast local receiver (${total.toLocaleString('en-US')} deliveries, pool of 16)`,
          value: sandboxRate,
          unit: 'deliveries/s',
          baseline: { name: 'bare keep-alive POSTs, 16 at once', value: bareRate },
        },
      ];
    } finally {
      await sandbox.stop();
      await receiver.close();
    }
  },
};

export default [pageBenchmark, deliveryBenchmark];
