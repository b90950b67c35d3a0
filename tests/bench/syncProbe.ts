/**
 * One measured run of the sync benchmark, in a process of its own, against a bank already
 * started (a sandbox, or the latency proxy in front of it):
 *   node tests/bench/syncProbe.ts --bank '{"baseUrl":…,"keyId":…,"keySecret":…,"account":…}' \
 *     --records 200000 [--kind pending-transactions|walk] [--parallelism N]
 * prints one line of JSON: the seconds it took, records a second, the CPU each thread of this
 * process spent a record (from /proc/self/task, Linux), the cores it kept busy and its peak
 * resident memory. `walk` is the sequential fetch-only walk (every page validated, nothing
 * kept), the baseline of the far-bank figures.
 *
 * It imports only ./sandboxChild.ts, whose exports have not changed since 3b75e6a, so
 * syncAgainst.ts copies this file into an older build's worktree and runs the very same
 * measurement there (`npm run bench -- sync --against REF`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clientOf, syncSandboxAccount, temporaryFolder, type SandboxChild } from './sandboxChild.ts';

const { values } = parseArgs({
  options: {
    bank: { type: 'string' },
    records: { type: 'string' },
    kind: { type: 'string' },
    parallelism: { type: 'string' },
    page: { type: 'string' },
  },
});
const bank = JSON.parse(values.bank ?? '{}') as Omit<SandboxChild, 'process'>;
const RECORDS = Number(values.records ?? 200_000);
const PAGE = Number(values.page ?? 1000);
const kind = values.kind ?? 'pending-transactions';
const parallelism = values.parallelism === undefined ? undefined : Number(values.parallelism);
/** Clock ticks a second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU ticks of a /proc stat line: utime + stime (fields 14 and 15). */
function ticksOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** CPU ticks by thread name (V8's collector threads share one name, so they add up). */
function threadTicks(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      ticks.set(name, (ticks.get(name) ?? 0) + ticksOf(stat));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ticks;
}

const child = { ...bank, process: undefined } as unknown as SandboxChild;
let before = new Map<string, number>();
let rssBefore = 0;
let peakRss = 0;
let sampler: NodeJS.Timeout | undefined;
const threads: Record<string, number> = {};
let cpuTicks = 0;
const start = (): void => {
  before = threadTicks();
  rssBefore = process.memoryUsage().rss;
  peakRss = rssBefore;
  sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 10);
};
const end = (): void => {
  clearInterval(sampler);
  for (const [name, ticks] of threadTicks()) {
    const spent = ticks - (before.get(name) ?? 0);
    if (spent <= 0) continue;
    threads[name] = Number(((spent / TICKS_PER_SECOND / RECORDS) * 1e6).toFixed(1));
    cpuTicks += spent;
  }
};

let seconds: number;
if (kind === 'walk') {
  start();
  const started = performance.now();
  let records = 0;
  for await (const page of clientOf(child).pendingTransactionPages(child.account, {}, { pageSize: PAGE })) {
    records += page.items.length;
  }
  seconds = (performance.now() - started) / 1000;
  end();
  if (records !== RECORDS) throw new Error(`the walk saw ${String(records)} records, not ${String(RECORDS)}`);
} else {
  const temp = temporaryFolder('ledgerdesk-sync-probe-');
  try {
    seconds = await syncSandboxAccount(
      child,
      join(temp.folder, 'cache'),
      RECORDS,
      PAGE,
      { started: start, ended: end },
      parallelism,
    );
  } finally {
    temp.remove();
  }
}
process.stdout.write(
  JSON.stringify({
    kind,
    seconds,
    rate: RECORDS / seconds,
    threads,
    cores: cpuTicks / TICKS_PER_SECOND / seconds,
    rssBefore,
    peakRss,
  }) + '\n',
);
process.exit(0);
