/**
 * What every benchmark reports: its figure, the baseline measured in the same run, and the
 * ratio between them. Targets are ratios (or latencies) checked here, never in tests.
 */
export interface BenchFigure {
  /** What was measured, e.g. "sandbox: page of 100 pending transactions". */
  name: string;
  value: number;
  unit: string;
  /** The same-run baseline, e.g. a bare node:http server returning the same bytes. */
  baseline?: { name: string; value: number };
  /** The target, said in words, e.g. "≥ 50% of bare" or "p95 ≤ 5 ms". */
  target?: string;
  /** Whether the target was met in this run; undefined when there is no target. */
  met?: boolean;
}

export interface Benchmark {
  /** Short title for the report's section. */
  title: string;
  run(): Promise<BenchFigure[]>;
}

/** value / baseline, for "higher is better" figures like requests per second. */
export function ratioOf(figure: BenchFigure): number | undefined {
  return figure.baseline === undefined || figure.baseline.value === 0
    ? undefined
    : figure.value / figure.baseline.value;
}

/** Percentile of a list of samples (nearest rank). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}
