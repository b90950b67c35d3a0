/**
 * Web mode's first screen (issue 36, item 5): from the command (`npm run serve`, its own
 * process, as npm runs it minus npm's own start) to the first rows of Pending transactions drawn
 * in a Chromium launched once the address is printed, against a bare Node http server started
 * the same way with the same Chromium launched once its address is printed, drawing a static
 * page of rows. The browser's launch is counted in both, so the ratio says what Ledgerdesk adds
 * to what any local web app pays (target ≤ 1.5×). Rounds alternate between the two so both meet
 * the same machine load; the medians are compared.
 *
 * The data folder is prepared by one open first (the first-open sync fills the cache), so the
 * measured opens are a returning user's: rows from the cache. That needs a Secret Service to keep
 * the cache's key between runs: `sh scripts/with-keyring.sh npm run bench -- webModeFirstRows`
 * (a throwaway keyring); without one the benchmark says so and measures nothing.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import type { Benchmark, BenchFigure } from './benchmark.ts';

/** A process started with its stdout and stderr read here. */
type Served = ChildProcessByStdio<null, Readable, Readable>;

const ROUNDS = Number(process.env['LEDGERDESK_BENCH_FIRST_ROWS_ROUNDS'] ?? '3');

/** The moment, in ms since the epoch, on the clock the start's own phases use (startTimes.ts). */
function now(): number {
  return performance.timeOrigin + performance.now();
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? NaN)
    : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** Whether this run has a Secret Service (scripts/with-keyring.sh) the served process keeps the cache's key in. */
const WITH_KEYCHAIN = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['LEDGERDESK_CHROMIUM'] ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

/** Resolves with the first stdout line of `child`, parsed by `read`; rejects if it ends first. */
function firstLine<Value>(child: Served, read: (line: string) => Value): Promise<Value> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const end = out.indexOf('\n');
      if (end >= 0) resolve(read(out.slice(0, end)));
    });
    child.on('exit', (code) => {
      reject(new Error(`the process ended (status ${String(code)}) before it printed its address`));
    });
  });
}

async function stop(child: Served): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGINT');
  await ended;
}

/**
 * The phases of the start, in order, as printed with LEDGERDESK_START_TIMES=1 by the web
 * server's process and the sandbox's: each figure is the time from the previous phase of the
 * same process (the sandbox's process from its fork). A phase a build does not print is left out.
 */
const SERVER_PHASES: [phase: string, after: string, words: string][] = [
  ['launcher-loaded', 'spawned', 'Node started, launcher loaded (scripts/serve.mjs)'],
  ['build-checked', 'launcher-loaded', 'out/ checked against the sources (not built)'],
  ['web-server-code-loaded', 'build-checked', 'out/web/serve.js loaded'],
  ['sandbox-forked', 'web-server-code-loaded', 'sandbox process forked'],
  [
    'services-code-loaded',
    'sandbox-forked',
    'serve command code loaded (since issue 36 only the lock, keys and web server)',
  ],
  ['keychain-detected', 'services-code-loaded', 'keychain detected (the data folder locked first)'],
  // Since issue 36 the server listens and prints its address before the services' code is loaded
  // and before the sandbox and the services are up; the page's socket waits for them.
  ['listening', 'keychain-detected', 'control socket open, web server listening'],
  ['open-printed', 'listening', 'first line printed'],
  ['services-code-imported', 'open-printed', 'services code loaded (after the address)'],
  ['data-folder-locked', 'services-code-imported', 'shared start entered'],
  ['sandbox-ready', 'data-folder-locked', 'waiting for the sandbox bank'],
  ['services-started', 'sandbox-ready', 'services started (cache, listener, handlers)'],
  ['sandbox-process-code-loaded', 'sandbox-forked', 'sandbox process: its code loaded'],
  ['sandbox-bank-listening', 'sandbox-start-asked', 'sandbox process: bank opened and listening'],
];

/** What the page itself says of its load (Navigation and Resource Timing), in ms from its navigation. */
interface PageTimings {
  responseEnd: number;
  domContentLoaded: number;
  scriptBytes: number;
  scripts: number;
  lastScriptEnd: number;
}

/** The fields of the page's timing entries read here (the tests' types have no DOM library). */
interface TimingEntry {
  name: string;
  responseEnd: number;
  encodedBodySize: number;
  domContentLoadedEventEnd?: number;
}

function pageTimings(page: Page): Promise<PageTimings> {
  return page.evaluate(() => {
    // The page's Performance (a browser's: it has navigation entries, Node's type does not).
    const timeline = performance as unknown as { getEntriesByType(type: string): TimingEntry[] };
    const entries = (type: 'navigation' | 'resource'): TimingEntry[] => timeline.getEntriesByType(type);
    const navigation = entries('navigation')[0];
    const scripts = entries('resource').filter((entry) => /\.m?js$/.test(new URL(entry.name).pathname));
    return {
      responseEnd: navigation?.responseEnd ?? NaN,
      domContentLoaded: navigation?.domContentLoadedEventEnd ?? NaN,
      scriptBytes: scripts.reduce((sum, entry) => sum + entry.encodedBodySize, 0),
      scripts: scripts.length,
      lastScriptEnd: Math.max(0, ...scripts.map((entry) => entry.responseEnd)),
    };
  });
}

/** One open of Ledgerdesk: the command to the first rows drawn, with its phases (ms since the epoch). */
async function openLedgerdesk(folder: string): Promise<{ marks: Map<string, number>; page: PageTimings }> {
  const marks = new Map<string, number>();
  marks.set('spawned', now());
  const child = spawn(process.execPath, [join('scripts', 'serve.mjs'), '--no-open', '--json', '--data', folder], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LEDGERDESK_START_TIMES: '1' },
  });
  child.stderr.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      const mark = /^ledgerdesk-start (\S+) (\d+(?:\.\d+)?)$/.exec(line);
      if (mark?.[1] !== undefined && !marks.has(mark[1])) marks.set(mark[1], Number(mark[2]));
    }
  });
  let browser: Browser | null = null;
  try {
    const url = await firstLine(child, (line) => (JSON.parse(line) as { url: string }).url);
    marks.set('printed-read', now());
    browser = await launchBrowser();
    marks.set('browser-launched', now());
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    marks.set('page-loaded', now());
    await page.locator('html[data-ledgerdesk-connection="open"]').waitFor({ timeout: 120_000 });
    marks.set('socket-open', now());
    await page.getByRole('heading', { name: 'Pending transactions', level: 1 }).waitFor({ timeout: 120_000 });
    marks.set('frame-drawn', now());
    await page
      .getByRole('grid', { name: 'Pending transactions' })
      .locator('.vtable-row:not(.is-placeholder)')
      .first()
      .waitFor({ timeout: 120_000 });
    marks.set('rows-drawn', now());
    return { marks, page: await pageTimings(page) };
  } finally {
    await browser?.close();
    await stop(child);
  }
}

/** The same start for a bare Node http server and a static page of rows: what any local web app pays. */
const BARE_SERVER = `
import { createServer } from 'node:http';
const rows = Array.from({ length: 30 }, (_, i) => '<tr><td>row ' + i + '</td><td>12.34</td></tr>').join('');
const page = Buffer.from('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static</title></head>' +
  '<body><h1>Pending transactions</h1><table><tbody>' + rows + '</tbody></table></body></html>');
const server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.byteLength });
  response.end(page);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port + '/' }) + '\\n');
});
process.on('SIGINT', () => server.close(() => process.exit(0)));
`;

/** The bare start's three parts, in ms: to its address printed, the browser's launch, and to the page drawn. */
interface BareOpen {
  printed: number;
  launched: number;
  drawn: number;
  total: number;
}

async function openBare(): Promise<BareOpen> {
  const started = now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', BARE_SERVER], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let browser: Browser | null = null;
  try {
    const url = await firstLine(child, (line) => (JSON.parse(line) as { url: string }).url);
    const printed = now();
    browser = await launchBrowser();
    const launched = now();
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    await page.locator('td').first().waitFor({ timeout: 120_000 });
    const drawn = now();
    return {
      printed: printed - started,
      launched: launched - printed,
      drawn: drawn - launched,
      total: drawn - started,
    };
  } finally {
    await browser?.close();
    await stop(child);
  }
}

const firstRows: Benchmark = {
  title: 'Web mode: npm run serve to the first rows drawn, against a bare Node server and a static page',
  async run(): Promise<BenchFigure[]> {
    if (!WITH_KEYCHAIN) {
      throw new Error(
        'the first rows of a returning user need a keychain to keep the cache key between runs: ' +
          'run sh scripts/with-keyring.sh npm run bench -- webModeFirstRows',
      );
    }
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-bench-first-rows-'));
    try {
      // A returning user's folder: the first open synced the sandbox's first account.
      await openLedgerdesk(folder);
      const opens: { marks: Map<string, number>; page: PageTimings }[] = [];
      const bare: BareOpen[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        // Alternated, the order swapped every round, so both meet the same load.
        if (round % 2 === 0) {
          opens.push(await openLedgerdesk(folder));
          bare.push(await openBare());
        } else {
          bare.push(await openBare());
          opens.push(await openLedgerdesk(folder));
        }
      }
      const since = (phase: string, after: string): number =>
        median(opens.map(({ marks }) => (marks.get(phase) ?? NaN) - (marks.get(after) ?? NaN)));
      const onPage = (of: (timings: PageTimings) => number): number => median(opens.map(({ page }) => of(page)));
      const rows = since('rows-drawn', 'spawned');
      const bareMedian = median(bare.map((open) => open.total));
      const ofBare = (part: keyof BareOpen): number => median(bare.map((open) => open[part]));
      const phases: BenchFigure[] = SERVER_PHASES.map(([phase, after, words]) => ({
        name: `start phase: ${words}`,
        value: since(phase, after),
        unit: 'ms',
      })).filter((figure) => Number.isFinite(figure.value));
      return [
        ...phases,
        { name: 'npm run serve: first line printed (open)', value: since('open-printed', 'spawned'), unit: 'ms' },
        {
          name: 'browser: launched (after the address was read)',
          value: since('browser-launched', 'printed-read'),
          unit: 'ms',
        },
        {
          name: 'browser: page’s HTML answered (from its navigation)',
          value: onPage((page) => page.responseEnd),
          unit: 'ms',
        },
        {
          name: 'browser: scripts fetched at start (bytes on the wire)',
          value: onPage((page) => page.scriptBytes),
          unit: 'B',
        },
        { name: 'browser: scripts fetched at start (files)', value: onPage((page) => page.scripts), unit: 'files' },
        {
          name: 'browser: HTML answered to scripts run (DOMContentLoaded: parse and evaluation)',
          value: onPage((page) => page.domContentLoaded - page.responseEnd),
          unit: 'ms',
        },
        { name: 'browser: launched to the page loaded', value: since('page-loaded', 'browser-launched'), unit: 'ms' },
        { name: 'browser: page loaded to its socket open', value: since('socket-open', 'page-loaded'), unit: 'ms' },
        {
          name: 'browser: socket open to the frame drawn (heading)',
          value: since('frame-drawn', 'socket-open'),
          unit: 'ms',
        },
        { name: 'browser: frame drawn to the first rows drawn', value: since('rows-drawn', 'frame-drawn'), unit: 'ms' },
        { name: 'bare server: its address printed', value: ofBare('printed'), unit: 'ms' },
        { name: 'bare server: browser launched (after the address was read)', value: ofBare('launched'), unit: 'ms' },
        { name: 'bare server: launched to the static page drawn', value: ofBare('drawn'), unit: 'ms' },
        {
          name: `npm run serve to the first rows drawn in a Chromium launched then (cached rows), median of ${String(ROUNDS)}`,
          value: rows,
          unit: 'ms',
          baseline: {
            name: 'a bare Node http server started the same way, the same Chromium launched drawing a static page',
            value: bareMedian,
          },
          target: '≤ 1.5× the bare server and static page',
          met: rows <= 1.5 * bareMedian,
        },
      ];
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

export default [firstRows];
