/**
 * Web mode's cost per call: one cache page (`pendingTransactions.list`, 100 rows) over the web
 * transport — a WebSocket call through the web shell, the same router — against the same call
 * dispatched in process, p95 of each measured in the same run on the same services (target:
 * ≤ 2× in process + 1 ms). With LEDGERDESK_BENCH_WEB_BASELINE naming a checkout of an earlier
 * commit (its node_modules linked in), the same page is also called over that commit's web
 * shell in the same run, alternating with this one's (issue 35's target: ≤ 1.1× of it).
 * The start, from the command to the first rows drawn, is webModeFirstRows.bench.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { startWebModeApp, type WebModeApp } from '../e2e/support/webModeStart.ts';
import { fetchRaw, signIn } from '../e2e/support/webClient.ts';
import { percentile, type Benchmark, type BenchFigure } from './benchmark.ts';

const CALLS = 400;
const WARMUP = 50;

/** A socket client of a running web shell: hello said, calls answered by id. */
interface Caller {
  call(channel: string, input: unknown): Promise<unknown>;
  close(): void;
}

async function callerOver(socket: WebSocket): Promise<Caller> {
  const waiting = new Map<number, (result: unknown) => void>();
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as { type: string; id?: number; result?: unknown };
    if (message.type === 'ready') waiting.get(0)?.(null);
    if (message.type === 'answer' && message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  await new Promise<void>((resolve, reject) => {
    socket.on('open', () => {
      resolve();
    });
    socket.on('error', reject);
  });
  const ready = new Promise((resolve) => waiting.set(0, resolve));
  socket.send(JSON.stringify({ type: 'hello', session: 'bench-session-000001', subscriptions: [] }));
  await ready;
  let nextId = 1;
  return {
    call: (channel, input) => {
      const id = nextId;
      nextId += 1;
      const answered = new Promise((resolve) => waiting.set(id, resolve));
      socket.send(JSON.stringify({ type: 'call', id, channel, input }));
      return answered;
    },
    close: () => {
      socket.close();
    },
  };
}

/** This commit's web shell, signed in as its page is: the cookie and the tab key. */
async function thisCaller(app: WebModeApp): Promise<Caller> {
  const browser = await signIn(app.shell.entryUrl);
  return callerOver(
    new WebSocket(
      `${app.shell.origin.replace('http', 'ws')}/ledgerdesk/socket`,
      ['ledgerdesk', `ledgerdesk-tab.${browser.tabKey}`],
      {
        headers: { cookie: browser.cookie, origin: app.shell.origin },
      },
    ),
  );
}

/** An earlier commit's web shell (before issue 35): its token exchanged for its cookie alone. */
async function baselineCaller(origin: string, entryUrl: string): Promise<Caller> {
  const answer = await fetchRaw(entryUrl);
  const cookie = String(answer.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  if (cookie === '') throw new Error('the baseline web shell gave no session cookie');
  return callerOver(
    new WebSocket(`${origin.replace('http', 'ws')}/ledgerdesk/socket`, { headers: { cookie, origin } }),
  );
}

/** Syncs one account of the embedded sandbox over `caller`; the page's input to measure. */
async function syncedPage(caller: Caller): Promise<{ profileId: string; accountId: string; limit: number }> {
  const accounts = (await caller.call('accounts.list', { profileId: 'local-sandbox' })) as {
    value: { rows: { id: string }[] };
  };
  const accountId = accounts.value.rows[0]?.id ?? '';
  const job = (await caller.call('sync.start', {
    profileId: 'local-sandbox',
    job: { kind: 'pendingTransactions', accountId },
  })) as { value: { jobId: string } };
  for (;;) {
    const status = (await caller.call('sync.status', {})) as { value: { jobs: { jobId: string; state: string }[] } };
    if (!status.value.jobs.some((running) => running.jobId === job.value.jobId && running.state === 'running')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { profileId: 'local-sandbox', accountId, limit: 100 };
}

/** The baseline checkout's web shell, started in this process from its own sources (its own module graph, no Playwright). */
async function startBaseline(
  checkout: string,
  folder: string,
): Promise<{ shell: { origin: string; entryUrl: string; stop(): Promise<void> } }> {
  const load = async <Module>(path: string): Promise<Module> =>
    (await import(pathToFileURL(join(checkout, ...path.split('/'))).href)) as Module;
  const { startWebShell } = await load<{
    startWebShell: (
      options: Record<string, unknown>,
    ) => Promise<{ origin: string; entryUrl: string; stop(): Promise<void> }>;
  }>('src/main/web/webShell.ts');
  const { InMemorySecretStore } = await load<{ InMemorySecretStore: new () => unknown }>(
    'src/main/services/credentials/secretStore.ts',
  );
  const { FileProfileStorage } = await load<{ FileProfileStorage: new (folder: string) => unknown }>(
    'src/main/services/profiles/fileProfileStorage.ts',
  );
  const { forkSandboxChild } = await load<{ forkSandboxChild: () => unknown }>('src/main/web/forkSandbox.ts');
  const quiet = (): void => undefined;
  // The same options its own tests/e2e/support/webModeApp.ts gave it.
  const shell = await startWebShell({
    dataFolder: folder,
    rendererRoot: join(process.cwd(), 'out', 'renderer'),
    secretStore: new InMemorySecretStore(),
    settings: new FileProfileStorage(folder),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (bench)' }),
    forkSandbox: forkSandboxChild,
    downloadsFolder: join(folder, 'downloads'),
    openExternal: () => false,
    app: { name: 'Ledgerdesk', version: '0.0.0-bench', platform: process.platform },
    log: { info: quiet, warn: quiet, error: quiet },
  });
  return { shell };
}

const transport: Benchmark = {
  title: 'Web mode: a cache page over the WebSocket vs in process (and vs an earlier commit’s web shell)',
  async run(): Promise<BenchFigure[]> {
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-bench-web-'));
    const baselineCheckout = process.env['LEDGERDESK_BENCH_WEB_BASELINE'];
    const baselineFolder = mkdtempSync(join(tmpdir(), 'ledgerdesk-bench-web-baseline-'));
    const app = await startWebModeApp(folder);
    const baseline = baselineCheckout === undefined ? null : await startBaseline(baselineCheckout, baselineFolder);
    try {
      const { router } = app.shell.ledgerdesk;
      const socket = await thisCaller(app);
      const earlier = baseline === null ? null : await baselineCaller(baseline.shell.origin, baseline.shell.entryUrl);
      // Data to page through: one account synced from each embedded sandbox (the same seeded data).
      const input = await syncedPage(socket);
      const earlierInput = earlier === null ? null : await syncedPage(earlier);
      const sender = { webContentsId: 1, isMainFrame: true, frameUrl: `${app.shell.origin}/` };
      // In process: the router itself, with the socket's own sender identity (its connection is open).
      const inProcess = (): Promise<unknown> => router.dispatch(sender, 'pendingTransactions.list', input);
      const first = (await inProcess()) as { ok: boolean; value?: { rows: unknown[] } };
      if (!first.ok || (first.value?.rows.length ?? 0) < 100)
        throw new Error(`no page to measure: ${JSON.stringify(first).slice(0, 200)}`);
      const timings = { socket: [] as number[], local: [] as number[], earlier: [] as number[] };
      for (let round = 0; round < WARMUP + CALLS; round += 1) {
        // Alternated (the order swapped every round), so all meet the same machine load.
        const measure = async (call: () => Promise<unknown>): Promise<number> => {
          const started = performance.now();
          await call();
          return performance.now() - started;
        };
        const local = await measure(inProcess);
        let remote: number;
        let older = NaN;
        if (earlier !== null && earlierInput !== null && round % 2 === 1) {
          older = await measure(() => earlier.call('pendingTransactions.list', earlierInput));
          remote = await measure(() => socket.call('pendingTransactions.list', input));
        } else {
          remote = await measure(() => socket.call('pendingTransactions.list', input));
          if (earlier !== null && earlierInput !== null)
            older = await measure(() => earlier.call('pendingTransactions.list', earlierInput));
        }
        if (round >= WARMUP) {
          timings.local.push(local);
          timings.socket.push(remote);
          if (!Number.isNaN(older)) timings.earlier.push(older);
        }
      }
      socket.close();
      earlier?.close();
      const local = percentile(timings.local, 95);
      const remote = percentile(timings.socket, 95);
      const figures: BenchFigure[] = [
        {
          name: 'pendingTransactions.list (100 rows) over the web transport, p95',
          value: remote,
          unit: 'ms',
          baseline: { name: 'the same call in process, p95', value: local },
          target: '≤ 2× in process + 1 ms',
          met: remote <= 2 * local + 1,
        },
      ];
      if (earlier !== null) {
        const older = percentile(timings.earlier, 95);
        figures.push({
          name: 'pendingTransactions.list (100 rows) over this commit’s web shell (cookie and tab key), p95',
          value: remote,
          unit: 'ms',
          baseline: { name: `the same call over the web shell of ${baselineCheckout ?? ''}, p95`, value: older },
          target: '≤ 1.1× the earlier commit’s',
          met: remote <= 1.1 * older,
        });
      }
      return figures;
    } finally {
      await app.shell.stop();
      await baseline?.shell.stop();
      rmSync(folder, { recursive: true, force: true });
      rmSync(baselineFolder, { recursive: true, force: true });
    }
  },
};

export default [transport];
