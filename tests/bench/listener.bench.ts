/**
 * The listener's throughput: notifications per second accepted, verified (Basic, constant
 * time) and persisted to SQLite before each answer, against a bare node:http server that
 * reads the same body and answers 200 without doing anything, measured in the same run with
 * the same load. The load comes from a worker thread (keep-alive agent, fixed concurrency,
 * a fixed number of requests), so it does not share the servers' event loop. Target: at
 * least 50% of the bare server, with the listener's request lines on (each request formatted
 * as `npm run listen` prints it and written to a file, as a terminal redirected to one would
 * take it). Every notification answered 200 must be in the database.
 */
import { Agent, createServer, request, type Server } from 'node:http';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { humanLineOf } from '../../src/main/cli/listen/cliOutput.ts';
import { openListener } from '../../src/main/services/listener/listener.ts';
import { openListenerDatabase } from '../../src/main/services/listener/listenerDatabase.ts';
import type { Benchmark, BenchFigure } from './benchmark.ts';

interface LoadOrder {
  url: string;
  total: number;
  concurrency: number;
  authorization: string;
  /** Makes object ids unique across rounds. */
  round: string;
}

interface LoadResult {
  sent: number;
  ok: number;
  failed: number;
  seconds: number;
}

const TOTAL = 20_000;
const WARMUP = 3_000;
const CONCURRENCY = 32;
const ROUNDS = 3;

/** Runs in the worker: `total` POSTs of a notification, `concurrency` at a time. */
async function generateLoad(order: LoadOrder): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: order.concurrency });
  let next = 0;
  let ok = 0;
  let failed = 0;
  const post = (index: number): Promise<number> =>
    new Promise((resolve) => {
      const body = JSON.stringify({
        event: 'ach.update',
        op: 'update',
        id: `ach_${order.round}_${index}`,
        url: `http://127.0.0.1:1/ach/ach_${order.round}_${index}`,
      });
      const outgoing = request(
        order.url + '/webhooks/bench',
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            authorization: order.authorization,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            resolve(response.statusCode ?? 0);
          });
        },
      );
      outgoing.on('error', () => {
        resolve(0);
      });
      outgoing.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: order.concurrency }, async () => {
      while (next < order.total) {
        const index = next;
        next += 1;
        if ((await post(index)) === 200) ok += 1;
        else failed += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { sent: order.total, ok, failed, seconds };
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'load') {
  const order = (workerData as { order: LoadOrder }).order;
  parentPort?.postMessage(await generateLoad(order));
}

function load(order: LoadOrder): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { role: 'load', order } });
    worker.once('message', (result: LoadResult) => {
      resolve(result);
    });
    worker.once('error', reject);
  });
}

function listenOn(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const benchmark: Benchmark = {
  title: 'Listener: notifications accepted, verified and persisted',
  async run(): Promise<BenchFigure[]> {
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-listener-bench-'));
    const bare = createServer((incoming, response) => {
      incoming.resume();
      incoming.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': 17 });
        response.end('{"received":true}');
      });
    });
    const opened = openListenerDatabase(join(folder, 'listener.sqlite'));
    const listener = await openListener({ database: opened.database, secrets: new InMemorySecretStore() });
    let batches = 0;
    const linesFile = join(folder, 'lines.txt');
    const lines = createWriteStream(linesFile);
    listener.on('batch', ({ items }) => {
      batches += 1;
      for (const item of items) if (item.type === 'request') lines.write(`${humanLineOf(item.request)}\n`);
    });
    try {
      await listener.setCredentials('bank', 'bench-secret');
      const authorization = 'Basic ' + Buffer.from('bank:bench-secret').toString('base64');
      const bareUrl = await listenOn(bare);
      const listenerUrl = (await listener.start({ port: 0 })).url ?? '';

      const order = (url: string, total: number, round: string): LoadOrder => ({
        url,
        total,
        concurrency: CONCURRENCY,
        authorization,
        round,
      });
      await load(order(bareUrl, WARMUP, 'warm'));
      await load(order(listenerUrl, WARMUP, 'warm'));
      let sentToListener = WARMUP;
      let okFromListener = 0;
      const bareRates: number[] = [];
      const listenerRates: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const bareResult = await load(order(bareUrl, TOTAL, `b${round}`));
        bareRates.push(bareResult.ok / bareResult.seconds);
        const listenerResult = await load(order(listenerUrl, TOTAL, `l${round}`));
        listenerRates.push(listenerResult.ok / listenerResult.seconds);
        sentToListener += listenerResult.sent;
        okFromListener += listenerResult.ok;
        if (listenerResult.failed > 0) throw new Error(`${listenerResult.failed} notifications were not answered 200.`);
      }
      await listener.idle();
      const persisted = listener.count({ path: '/webhooks/bench', verdict: 'ok' });
      process.stdout.write(
        `  sent ${sentToListener} notifications to the listener, ${okFromListener + WARMUP} answered 200 (warm-up included), ` +
          `${persisted} persisted with verdict ok; ${batches} pushes to subscribers\n`,
      );
      await new Promise((resolve) => lines.end(resolve));
      const printed = readFileSync(linesFile, 'utf8').split('\n').length - 1;
      process.stdout.write(
        `  ${printed} request lines printed (some may be left out when the terminal falls behind)\n`,
      );
      if (persisted !== sentToListener) {
        throw new Error(`Persisted ${persisted} notifications but sent ${sentToListener}.`);
      }
      const value = median(listenerRates);
      const baseline = median(bareRates);
      return [
        {
          name: `notifications/s with request lines on, ${CONCURRENCY} keep-alive connections, median of ${ROUNDS} × ${TOTAL}`,
          value,
          unit: 'req/s',
          baseline: { name: 'bare node:http answering 200', value: baseline },
          target: '≥ 50% of bare',
          met: value >= baseline * 0.5,
        },
        {
          name: 'persisted / sent',
          value: persisted / sentToListener,
          unit: '',
          target: '= 1',
          met: persisted === sentToListener,
        },
      ];
    } finally {
      await listener.close();
      await opened.close();
      bare.closeAllConnections();
      await new Promise((resolve) => bare.close(resolve));
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

export default benchmark;
