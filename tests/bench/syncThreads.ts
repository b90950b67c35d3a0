/**
 * `node tests/bench/syncThreads.ts [RUNS] [--records N] [--delay-ms MS]`: the sync of 100,000
 * pending transactions against fetch-only, alternated, with the CPU each thread of this
 * process spent per record (from /proc/self/task, Linux only) and the sandbox process's own.
 * With --delay-ms, both go through the latency proxy (latencyProxy.ts), whose CPU is shown
 * too, with the cores the whole sync kept busy and the machine's load (the sync shares it). It is how the figures in
 * docs/sync-benchmark.md were taken: the benchmark (`npm run bench -- services`) says how fast,
 * this says where the time went. Not a *.bench.ts file, so `npm run bench` does not run it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  clientOf,
  startFarBank,
  startSandboxProcess,
  stopSandboxProcess,
  syncSandboxAccount,
  temporaryFolder,
  type SandboxChild,
} from './sandboxChild.ts';

const { values, positionals } = parseArgs({
  options: { records: { type: 'string' }, 'delay-ms': { type: 'string' } },
  allowPositionals: true,
});
const RECORDS = Number(values.records ?? 100_000);
const DELAY_MS = values['delay-ms'] === undefined ? null : Number(values['delay-ms']);
const PAGE = 1000;
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

function microsecondsPerRecord(ticks: number): string {
  return ((ticks / TICKS_PER_SECOND / RECORDS) * 1e6).toFixed(1);
}

function processTicks(pid: number | undefined): number {
  return pid === undefined ? 0 : ticksOf(readFileSync(`/proc/${String(pid)}/stat`, 'utf8'));
}

async function fetchOnly(sandbox: SandboxChild): Promise<number> {
  const client = clientOf(sandbox);
  const started = performance.now();
  let records = 0;
  for await (const page of client.pendingTransactionPages(sandbox.account, {}, { pageSize: PAGE })) {
    records += page.items.length;
  }
  return records / ((performance.now() - started) / 1000);
}

async function syncOnce(
  sandbox: SandboxChild,
  folder: string,
): Promise<{ rate: number; threads: Record<string, string>; cores: number }> {
  let before = new Map<string, number>();
  const threads: Record<string, string> = {};
  let spentInAll = 0;
  const seconds = await syncSandboxAccount(sandbox, folder, RECORDS, PAGE, {
    started: () => {
      before = threadTicks();
    },
    ended: () => {
      for (const [name, ticks] of threadTicks()) {
        const spent = ticks - (before.get(name) ?? 0);
        if (spent > 0) threads[name] = microsecondsPerRecord(spent);
        spentInAll += Math.max(0, spent);
      }
    },
  });
  return { rate: RECORDS / seconds, threads, cores: spentInAll / TICKS_PER_SECOND / seconds };
}

const runs = Number(positionals[0] ?? 3);
const sandbox = await startSandboxProcess(RECORDS);
const bank = DELAY_MS === null ? sandbox : await startFarBank(sandbox, DELAY_MS);
const temp = temporaryFolder('ledgerdesk-sync-threads-');
try {
  await fetchOnly(bank); // warm-up: the sandbox's page cache and our JIT
  for (let run = 0; run < runs; run += 1) {
    const fetchRate = await fetchOnly(bank);
    const sandboxBefore = processTicks(sandbox.process.pid);
    const proxyBefore = bank === sandbox ? 0 : processTicks(bank.process.pid);
    const { rate, threads, cores } = await syncOnce(bank, join(temp.folder, String(run)));
    const sandboxCpu = microsecondsPerRecord(processTicks(sandbox.process.pid) - sandboxBefore);
    const proxyCpu =
      bank === sandbox ? '' : `, the proxy ${microsecondsPerRecord(processTicks(bank.process.pid) - proxyBefore)}`;
    process.stdout.write(
      `fetch-only ${fetchRate.toFixed(0)}/s, sync ${rate.toFixed(0)}/s: ${(rate / fetchRate).toFixed(2)} of fetch-only; ` +
        `CPU µs a record by thread ${JSON.stringify(threads)}, the sandbox ${sandboxCpu}${proxyCpu}; ` +
        `this process kept ${cores.toFixed(2)} cores busy; load average ${loadavg()[0]?.toFixed(1) ?? '?'}\n`,
    );
  }
} finally {
  temp.remove();
  if (bank !== sandbox) await stopSandboxProcess(bank);
  await stopSandboxProcess(sandbox);
}
