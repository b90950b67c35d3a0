/** Progress of long work: how far, how fast, and how long is left. */
import { formatCount, formatDuration } from '../lib/time.ts';

export interface ProgressBarProps {
  label: string;
  done: number;
  /** When unknown, the bar shows activity without a fraction. */
  total?: number | null;
  ratePerSecond?: number | null;
  etaSeconds?: number | null;
  unit?: string;
}

export function ProgressBar({
  label,
  done,
  total = null,
  ratePerSecond = null,
  etaSeconds = null,
  unit = 'rows',
}: ProgressBarProps) {
  const fraction = total === null || total === 0 ? null : Math.min(1, done / total);
  return (
    <div className="progress" role="group" aria-label={label}>
      <div className="progress-text">
        <span className="progress-label">{label}</span>
        <span className="progress-figures tabular">
          {formatCount(done)}
          {total === null ? '' : ` / ${formatCount(total)}`} {unit}
          {ratePerSecond === null ? '' : ` · ${formatCount(ratePerSecond)}/s`}
          {etaSeconds === null ? '' : ` · ${formatDuration(etaSeconds)} left`}
        </span>
      </div>
      <div
        className={`progress-track${fraction === null ? ' is-indeterminate' : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total ?? undefined}
        aria-valuenow={fraction === null ? undefined : done}
      >
        <div
          className="progress-fill"
          style={fraction === null ? undefined : { width: `${(fraction * 100).toFixed(1)}%` }}
        />
      </div>
    </div>
  );
}
