/**
 * `npm run bench`: runs every tests/bench/*.bench.ts (each default-exports a Benchmark, or
 * an array of them), prints one table with each figure, its same-run baseline and the ratio,
 * and writes the same table to docs/benchmarks.md with the machine it ran on.
 * `npm run bench -- sandbox` runs only the files whose name contains "sandbox".
 * Each file runs in a process of its own, so no benchmark inherits the heap, the threads or the
 * open files another one left behind (a sync measured after the others ran in a process
 * already holding 1.3 GB, and its collector paid for it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ratioOf, type BenchFigure, type Benchmark } from './benchmark.ts';

interface FileReport {
  rows: { section: string; figure: BenchFigure }[];
  failures: number;
}

const folder = import.meta.dirname;
const ONE_FILE = '--one-file';
const oneFile = process.argv.indexOf(ONE_FILE);
if (oneFile !== -1) {
  // The child: runs one file's benchmarks and writes what it measured to the report file.
  const [file, reportFile] = process.argv.slice(oneFile + 1);
  if (file === undefined || reportFile === undefined) throw new Error(`${ONE_FILE} FILE REPORT`);
  writeFileSync(reportFile, JSON.stringify(await runFile(file)));
  process.exit(0);
}

if (process.argv.some((argument) => argument === '--against' || argument === '--tree')) {
  // `npm run bench -- NAME --against REF`: the benchmark on this checkout and on REF, in one run;
  // the sync has a harness of its own (one bank for every build, a probe process a sync).
  const name = process.argv.slice(2).find((argument) => !argument.startsWith('-'));
  await import(pathToFileURL(join(folder, name === 'sync' ? 'syncAgainst.ts' : 'benchAgainst.ts')).href);
  process.exit(0);
}

const filter = process.argv.slice(2).find((argument) => !argument.startsWith('-'));
const files = readdirSync(folder)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => filter === undefined || file.includes(filter))
  .sort();

if (files.length === 0) {
  process.stderr.write(`bench: no benchmark matches ${filter ?? '(all)'} in tests/bench.\n`);
  process.exit(2);
}

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(2);
}

/** Runs the benchmarks of one file in this process, printing each figure as it comes. */
async function runFile(file: string): Promise<FileReport> {
  const report: FileReport = { rows: [], failures: 0 };
  const loaded = (await import(pathToFileURL(join(folder, file)).href)) as { default: Benchmark | Benchmark[] };
  const benchmarks = Array.isArray(loaded.default) ? loaded.default : [loaded.default];
  for (const benchmark of benchmarks) {
    process.stdout.write(`\n== ${benchmark.title} (${file})\n`);
    try {
      for (const figure of await benchmark.run()) {
        report.rows.push({ section: benchmark.title, figure });
        const ratio = ratioOf(figure);
        process.stdout.write(
          `  ${figure.name}: ${format(figure.value)} ${figure.unit}` +
            (figure.baseline ? ` | baseline ${figure.baseline.name}: ${format(figure.baseline.value)}` : '') +
            (ratio === undefined ? '' : ` | ratio ${ratio.toFixed(2)}`) +
            (figure.target ? ` | target ${figure.target}: ${figure.met === true ? 'met' : 'NOT met'}` : '') +
            '\n',
        );
      }
    } catch (error) {
      report.failures += 1;
      process.stderr.write(`  failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
  }
  return report;
}

/** Runs one file in a child process (same Node, same flags) and reads back its report. */
async function runFileApart(file: string): Promise<FileReport> {
  const reports = mkdtempSync(join(tmpdir(), 'ledgerdesk-bench-report-'));
  const reportFile = join(reports, 'report.json');
  try {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, ONE_FILE, file, reportFile], {
        stdio: 'inherit',
      });
      child.once('exit', resolve);
    });
    try {
      return JSON.parse(readFileSync(reportFile, 'utf8')) as FileReport;
    } catch {
      process.stderr.write(`  failed: ${file} ended (exit ${String(code)}) without a report\n`);
      return { rows: [], failures: 1 };
    }
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}

const rows: { section: string; figure: BenchFigure }[] = [];
let failures = 0;
for (const file of files) {
  const report = await runFileApart(file);
  rows.push(...report.rows);
  failures += report.failures;
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
const machine = `${String(cpus().length)} × ${cpu}, ${String(Math.round(totalmem() / 2 ** 30))} GiB, Node ${process.version}, ${process.platform}`;
const table = [
  '| benchmark | figure | value | baseline (same run) | ratio | target | met |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(({ section, figure }) => {
    const ratio = ratioOf(figure);
    return `| ${section} | ${figure.name} | ${format(figure.value)} ${figure.unit} | ${
      figure.baseline ? `${figure.baseline.name}: ${format(figure.baseline.value)}` : '—'
    } | ${ratio === undefined ? '—' : ratio.toFixed(2)} | ${figure.target ?? '—'} | ${
      figure.met === undefined ? '—' : figure.met ? 'yes' : 'no'
    } |`;
  }),
];
process.stdout.write('\n' + table.join('\n') + '\n');
if (filter === undefined) {
  writeFileSync(
    join(process.cwd(), 'docs', 'benchmarks.md'),
    `# Benchmarks\n\nMeasured by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}; machine: ${machine}.\n` +
      `Every figure is compared with a baseline measured in the same run; the machines are shared and noisy, so read the ratios.\n\n` +
      table.join('\n') +
      '\n',
  );
}
process.exit(failures === 0 ? 0 : 1);
