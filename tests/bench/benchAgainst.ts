/**
 * `npm run bench -- NAME --against REF [--against REF2 …] [--tree DIR] [--runs R]`: the
 * benchmark files whose name contains NAME (any but the sync's, which has its own harness,
 * syncAgainst.ts), run on this checkout and on REF in the same run. Each build runs its own
 * copy of the file against its own code (`tests/bench/run.ts --one-file` in its folder, a process
 * a run); runs alternate (this, REF, then REF, this, …) so each build meets the same machine.
 * Prints every figure of this checkout beside the same figure of each earlier build (matched by
 * benchmark and figure name), their ratio, and each run's load. A figure REF's file does not
 * have is said so: a benchmark written after REF cannot be measured on it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkoutBuild, removeBuild, thisCheckout, treeBuild, type Build } from './againstBuilds.ts';
import type { BenchFigure } from './benchmark.ts';

interface Row {
  section: string;
  figure: BenchFigure;
}

interface MeasuredBuild extends Build {
  /** Each run's figures, keyed by "section — figure". */
  runs: Map<string, BenchFigure>[];
}

const { values, positionals } = parseArgs({
  options: {
    against: { type: 'string', multiple: true },
    tree: { type: 'string', multiple: true },
    runs: { type: 'string' },
  },
  allowPositionals: true,
});
const RUNS = Number(values.runs ?? 2);
const filter = positionals[0];
if (filter === undefined)
  throw new Error('benchAgainst: name the benchmark, e.g. npm run bench -- review --against REF');

const self: MeasuredBuild = { ...thisCheckout(), runs: [] };
const files = readdirSync(join(self.folder, 'tests', 'bench'))
  .filter((file) => file.endsWith('.bench.ts') && file.includes(filter))
  .sort();
if (files.length === 0) throw new Error(`benchAgainst: no benchmark matches ${filter} in tests/bench.`);

/** Runs one file in the build's folder with the build's own run.ts; its figures by name. */
async function runIn(build: Build, file: string): Promise<Map<string, BenchFigure>> {
  const reports = mkdtempSync(join(tmpdir(), 'ledgerdesk-against-report-'));
  const reportFile = join(reports, 'report.json');
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, ['tests/bench/run.ts', '--one-file', file, reportFile], {
        cwd: build.folder,
        stdio: 'inherit',
      });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    let rows: Row[];
    try {
      rows = (JSON.parse(readFileSync(reportFile, 'utf8')) as { rows: Row[] }).rows;
    } catch {
      throw new Error(`${build.name}: ${file} ended (exit ${String(code)}) without a report`);
    }
    return new Map(rows.map((row) => [`${row.section} — ${row.figure.name}`, row.figure]));
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}

function mean(runs: readonly Map<string, BenchFigure>[], key: string): number | undefined {
  const found = runs.map((run) => run.get(key)?.value).filter((value) => value !== undefined);
  return found.length === 0 ? undefined : found.reduce((sum, value) => sum + value, 0) / found.length;
}

function format(value: number): string {
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(2);
}

const others: MeasuredBuild[] = [];
try {
  for (const ref of values.against ?? []) others.push({ ...checkoutBuild(ref), runs: [] });
  for (const tree of values.tree ?? []) others.push({ ...treeBuild(tree), runs: [] });
  if (others.length === 0)
    throw new Error('benchAgainst: name a build to compare with: --against REF (or --tree DIR).');
  for (const file of files) {
    for (const build of others) {
      if (!readdirSync(join(build.folder, 'tests', 'bench')).includes(file))
        throw new Error(`${build.name} has no tests/bench/${file}: it cannot be measured by this benchmark.`);
    }
    for (let run = 0; run < RUNS; run += 1) {
      const order = run % 2 === 0 ? [self, ...others] : [...others, self];
      for (const build of order) {
        process.stdout.write(
          `\n-- run ${String(run + 1)} of ${file}, ${build.name} (load ${loadavg()[0]?.toFixed(1) ?? '?'})\n`,
        );
        build.runs.push(await runIn(build, file));
      }
    }
  }
  const lines = [
    '',
    `| figure | unit | ${self.name} | ${others.map((build) => `${build.name} | ratio`).join(' | ')} |`,
    `| --- | --- | --- | ${others.map(() => '--- | ---').join(' | ')} |`,
  ];
  const keys = [...new Set(self.runs.flatMap((run) => [...run.keys()]))];
  for (const key of keys) {
    const ours = mean(self.runs, key);
    const unit = self.runs.find((run) => run.has(key))?.get(key)?.unit ?? '';
    const cells = others.map((build) => {
      const theirs = mean(build.runs, key);
      return theirs === undefined || ours === undefined
        ? 'not measured by that build | —'
        : `${format(theirs)} | ${(ours / theirs).toFixed(2)}`;
    });
    lines.push(`| ${key} | ${unit} | ${ours === undefined ? '—' : format(ours)} | ${cells.join(' | ')} |`);
  }
  process.stdout.write(
    lines.join('\n') +
      `\n\nMean of ${String(RUNS)} runs each; ratio: this checkout's value over the earlier build's (a time: lower is faster; a rate: higher is).\n`,
  );
} finally {
  for (const build of others) removeBuild(build);
}
process.exit(0);
