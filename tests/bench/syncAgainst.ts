/**
 * `npm run bench -- sync --against REF [--against REF2 …] [--records N] [--delay-ms MS] [--runs R]`:
 * the sync benchmark run on this checkout and on REF in the same run, so a slower sync is seen
 * the day it lands (issue 36, item 4).
 *
 * REF is checked out as againstBuilds.ts says. syncProbe.ts is copied in, so both builds run the very same
 * measurement, each sync in a process of its own. One sandbox (this checkout's, 200,000
 * pending transactions in one account) behind one latency proxy (50 ms) serves every run: the
 * bank is the same, only the client differs. Runs alternate (walk, this, REF, then walk, REF,
 * this, …) so each build meets the same machine. Prints each run, then records a second of
 * each build, the ratio between them, and each against the sequential fetch-only walk.
 *
 * `--tree DIR` instead of a REF measures a checkout already made (the bisect in
 * docs/sync-benchmark.md). The worktrees made here are removed at the end.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkoutBuild, HERE, removeBuild, thisCheckout, treeBuild, type Build } from './againstBuilds.ts';
import { startFarBank, startSandboxProcess, stopSandboxProcess, type SandboxChild } from './sandboxChild.ts';

interface ProbeResult {
  kind: string;
  seconds: number;
  rate: number;
  threads: Record<string, number>;
  cores: number;
  peakRss: number;
}

interface MeasuredBuild extends Build {
  runs: ProbeResult[];
}

const { values } = parseArgs({
  options: {
    against: { type: 'string', multiple: true },
    tree: { type: 'string', multiple: true },
    records: { type: 'string' },
    'delay-ms': { type: 'string' },
    runs: { type: 'string' },
    parallelism: { type: 'string' },
  },
  // run.ts passes its filter ("sync") through.
  allowPositionals: true,
});
const RECORDS = Number(values.records ?? 200_000);
const DELAY_MS = Number(values['delay-ms'] ?? 50);
const RUNS = Number(values.runs ?? 2);
/** Runs syncProbe.ts in the build's folder (its own code), one process a run. */
async function probe(build: MeasuredBuild, bank: SandboxChild, kind: string): Promise<ProbeResult> {
  const script = join(build.folder, 'tests', 'bench', 'syncProbe.ts');
  const ours = join(HERE, 'tests', 'bench', 'syncProbe.ts');
  if (script !== ours && (!existsSync(script) || readFileSync(script, 'utf8') !== readFileSync(ours, 'utf8'))) {
    copyFileSync(ours, script);
  }
  const { baseUrl, keyId, keySecret, account } = bank;
  const args = [
    script,
    '--bank',
    JSON.stringify({ baseUrl, keyId, keySecret, account }),
    '--records',
    String(RECORDS),
    '--kind',
    kind,
    ...(values.parallelism === undefined ? [] : ['--parallelism', values.parallelism]),
  ];
  const output = await new Promise<string>((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: build.folder, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolvePromise(text);
      else reject(new Error(`${build.name}: the ${kind} probe ended with exit ${String(code)}`));
    });
  });
  const line = output.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as ProbeResult;
}

function rate(runs: readonly ProbeResult[]): number {
  return runs.reduce((sum, run) => sum + run.rate, 0) / Math.max(1, runs.length);
}

function shown(result: ProbeResult): string {
  const threads = Object.entries(result.threads)
    .sort(([, a], [, b]) => b - a)
    .slice(0, 5)
    .map(([name, us]) => `${name} ${us.toFixed(1)}`)
    .join(', ');
  return `${result.seconds.toFixed(2)} s, ${Math.round(result.rate).toLocaleString('en-US')} records/s, ${result.cores.toFixed(2)} cores; CPU µs a record: ${threads}`;
}

const self: MeasuredBuild = { ...thisCheckout(), runs: [] };
const others: MeasuredBuild[] = [];
const walks: ProbeResult[] = [];
try {
  for (const ref of values.against ?? []) others.push({ ...checkoutBuild(ref), runs: [] });
  for (const tree of values.tree ?? []) others.push({ ...treeBuild(tree), runs: [] });
  if (others.length === 0) throw new Error('syncAgainst: name a build to compare with: --against REF (or --tree DIR).');
  const sandbox = await startSandboxProcess(RECORDS);
  const bank = await startFarBank(sandbox, DELAY_MS);
  try {
    process.stdout.write(
      `\n== Sync of ${RECORDS.toLocaleString('en-US')} pending transactions, bank ${String(DELAY_MS)} ms away: ${self.name} against ${others.map((build) => build.name).join(', ')}\n`,
    );
    await probe(self, bank, 'walk'); // warm-up: the sandbox's page cache
    for (let run = 0; run < RUNS; run += 1) {
      const walk = await probe(self, bank, 'walk');
      walks.push(walk);
      process.stdout.write(
        `  run ${String(run + 1)}, sequential walk: ${shown(walk)} (load ${loadavg()[0]?.toFixed(1) ?? '?'})\n`,
      );
      // Alternated: this checkout first in odd runs, last in even ones.
      const order = run % 2 === 0 ? [self, ...others] : [...others, self];
      for (const build of order) {
        const result = await probe(build, bank, 'pending-transactions');
        build.runs.push(result);
        process.stdout.write(
          `  run ${String(run + 1)}, ${build.name}: ${shown(result)} (load ${loadavg()[0]?.toFixed(1) ?? '?'})\n`,
        );
      }
    }
  } finally {
    await stopSandboxProcess(bank);
    await stopSandboxProcess(sandbox);
  }
  const walkRate = rate(walks);
  process.stdout.write(`\n  sequential fetch-only walk: ${Math.round(walkRate).toLocaleString('en-US')} records/s\n`);
  for (const build of [self, ...others]) {
    process.stdout.write(
      `  ${build.name}: ${Math.round(rate(build.runs)).toLocaleString('en-US')} records/s, ${(rate(build.runs) / walkRate).toFixed(2)}× the walk\n`,
    );
  }
  for (const other of others) {
    process.stdout.write(
      `  ratio: this checkout's sync is ${(rate(self.runs) / rate(other.runs)).toFixed(2)}× as fast as ${other.name}'s\n`,
    );
  }
} finally {
  for (const build of others) removeBuild(build);
}
process.exit(0);
