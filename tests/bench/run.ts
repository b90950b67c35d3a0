/**
 * `npm run bench`: runs every tests/bench/*.bench.ts (each default-exports a Benchmark, or
 * an array of them), prints one table with each figure, its same-run baseline and the ratio,
 * and writes the same table to docs/benchmarks.md with the machine it ran on.
 * `npm run bench -- sandbox` runs only the files whose name contains "sandbox".
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ratioOf, type BenchFigure, type Benchmark } from './benchmark.ts';

const filter = process.argv.slice(2).find((argument) => !argument.startsWith('-'));
const folder = import.meta.dirname;
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

const rows: { section: string; figure: BenchFigure }[] = [];
let failures = 0;
for (const file of files) {
  const loaded = (await import(pathToFileURL(join(folder, file)).href)) as { default: Benchmark | Benchmark[] };
  const benchmarks = Array.isArray(loaded.default) ? loaded.default : [loaded.default];
  for (const benchmark of benchmarks) {
    process.stdout.write(`\n== ${benchmark.title} (${file})\n`);
    try {
      for (const figure of await benchmark.run()) {
        rows.push({ section: benchmark.title, figure });
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
      failures += 1;
      process.stderr.write(`  failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
  }
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
