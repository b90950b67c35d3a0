/**
 * Web mode's cost. (1) One cache page (`pendingTransactions.list`, 100 rows) over the web
 * transport — a WebSocket call through the web shell, the same router — against the same call
 * dispatched in process, p95 of each measured in the same run on the same services (target:
 * ≤ 2× in process + 1 ms). (2) From `npm run serve` (the real command, its own process) to the
 * first screen drawn in Chromium with its rows (target: ≤ 2 s here); baseline: the same page
 * drawn again in a warm browser.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import WebSocket from 'ws';
import { startWebModeApp } from '../e2e/support/webModeApp.ts';
import { percentile, type Benchmark, type BenchFigure } from './benchmark.ts';

const CALLS = 400;
const WARMUP = 50;

function cookieFor(entryUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = new URL(entryUrl);
    const outgoing = request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}` },
      (response) => {
        response.resume();
        const cookie = String(response.headers['set-cookie'] ?? '').split(';')[0] ?? '';
        if (cookie === '') reject(new Error('no session cookie'));
        else resolve(cookie);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const transport: Benchmark = {
  title: 'Web mode: a cache page over the WebSocket vs in process',
  async run(): Promise<BenchFigure[]> {
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-bench-web-'));
    const app = await startWebModeApp(folder);
    try {
      const { router } = app.shell.ledgerdesk;
      const socket = new WebSocket(`${app.shell.origin.replace('http', 'ws')}/ledgerdesk/socket`, {
        headers: { cookie: await cookieFor(app.shell.entryUrl), origin: app.shell.origin },
      });
      const waiting = new Map<number, (result: unknown) => void>();
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as { type: string; id?: number; result?: unknown };
        if (message.type === 'ready') waiting.get(0)?.(null);
        if (message.type === 'answer' && message.id !== undefined) waiting.get(message.id)?.(message.result);
      });
      await new Promise<void>((resolve) =>
        socket.on('open', () => {
          resolve();
        }),
      );
      const ready = new Promise((resolve) => waiting.set(0, resolve));
      socket.send(JSON.stringify({ type: 'hello', session: 'bench-session-000001', subscriptions: [] }));
      await ready;
      let nextId = 1;
      const overSocket = (channel: string, input: unknown): Promise<unknown> => {
        const id = nextId;
        nextId += 1;
        const answered = new Promise((resolve) => waiting.set(id, resolve));
        socket.send(JSON.stringify({ type: 'call', id, channel, input }));
        return answered;
      };
      // Data to page through: one account synced from the embedded sandbox.
      const accounts = (await overSocket('accounts.list', { profileId: 'local-sandbox' })) as {
        value: { rows: { id: string }[] };
      };
      const accountId = accounts.value.rows[0]?.id ?? '';
      const job = (await overSocket('sync.start', {
        profileId: 'local-sandbox',
        job: { kind: 'pendingTransactions', accountId },
      })) as { value: { jobId: string } };
      for (;;) {
        const status = (await overSocket('sync.status', {})) as { value: { jobs: { jobId: string; state: string }[] } };
        if (!status.value.jobs.some((running) => running.jobId === job.value.jobId && running.state === 'running'))
          break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const input = { profileId: 'local-sandbox', accountId, limit: 100 };
      const sender = { webContentsId: 1, isMainFrame: true, frameUrl: `${app.shell.origin}/` };
      // In process: the router itself, with the socket's own sender identity (its connection is open).
      const inProcess = (): Promise<unknown> => router.dispatch(sender, 'pendingTransactions.list', input);
      const first = (await inProcess()) as { ok: boolean; value?: { rows: unknown[] } };
      if (!first.ok || (first.value?.rows.length ?? 0) < 100)
        throw new Error(`no page to measure: ${JSON.stringify(first).slice(0, 200)}`);
      const timings = { socket: [] as number[], local: [] as number[] };
      for (let round = 0; round < WARMUP + CALLS; round += 1) {
        // Alternated, so both meet the same machine load.
        let started = performance.now();
        await inProcess();
        const local = performance.now() - started;
        started = performance.now();
        await overSocket('pendingTransactions.list', input);
        const remote = performance.now() - started;
        if (round >= WARMUP) {
          timings.local.push(local);
          timings.socket.push(remote);
        }
      }
      socket.close();
      const local = percentile(timings.local, 95);
      const remote = percentile(timings.socket, 95);
      return [
        {
          name: 'pendingTransactions.list (100 rows) over the web transport, p95',
          value: remote,
          unit: 'ms',
          baseline: { name: 'the same call in process, p95', value: local },
          target: '≤ 2× in process + 1 ms',
          met: remote <= 2 * local + 1,
        },
      ];
    } finally {
      await app.shell.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

const firstScreen: Benchmark = {
  title: 'Web mode: npm run serve to the first screen drawn',
  async run(): Promise<BenchFigure[]> {
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-bench-serve-'));
    const browser = await chromium.launch({
      executablePath: process.env['LEDGERDESK_CHROMIUM'] ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [join('src', 'main', 'web', 'serve.ts'), '--no-open', '--json', '--data', folder],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: '' },
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const line = out.split('\n')[0];
          if (out.includes('\n') && line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
        });
        child.on('exit', () => {
          reject(new Error('serve ended before it was open'));
        });
      });
      const printed = performance.now() - started;
      const page = await browser.newPage();
      await page.goto(url);
      await page.getByRole('navigation', { name: 'Screens' }).waitFor();
      await page.locator('html[data-ledgerdesk-connection="open"]').waitFor();
      await page.getByRole('heading', { name: 'Pending transactions', level: 1 }).waitFor();
      const drawn = performance.now() - started;
      const again = performance.now();
      await page.reload();
      await page.getByRole('heading', { name: 'Pending transactions', level: 1 }).waitFor();
      const warm = performance.now() - again;
      return [
        { name: 'npm run serve: first line printed (open)', value: printed, unit: 'ms' },
        {
          name: 'npm run serve to the first screen drawn in Chromium',
          value: drawn,
          unit: 'ms',
          baseline: { name: 'the same screen drawn again, warm', value: warm },
          target: '≤ 2 s',
          met: drawn <= 2000,
        },
      ];
    } finally {
      child.kill('SIGINT');
      await new Promise((resolve) => child.on('exit', resolve));
      await browser.close();
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

export default [transport, firstScreen];
