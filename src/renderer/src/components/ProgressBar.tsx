/**
 * Progress of long work in one thin line: what runs, how many records so far, how fast, and how
 * long is left (issue 38: records and time left, never "windows"). The bar fills by the share of
 * the work done when it can be told, else shows activity without a fraction (never a fraction
 * made up from a guess of the total).
 */
import { formatCount, formatDuration } from '../lib/time.ts';

export interface ProgressBarProps {
  label: string;
  done: number;
  /** How much is done, 0 to 1; null while it cannot be told (the bar shows activity only). */
  fraction?: number | null;
  ratePerSecond?: number | null;
  etaSeconds?: number | null;
  unit?: string;
}

/** "176 records · 120/s · about 3 s left": what the line says after its label. */
function progressFigures({ done, ratePerSecond = null, etaSeconds = null, unit = 'rows' }: ProgressBarProps): string {
  const parts = [`${formatCount(done)} ${unit}`];
  if (ratePerSecond !== null && ratePerSecond > 0) parts.push(`${formatCount(ratePerSecond)}/s`);
  if (etaSeconds !== null) parts.push(etaSeconds <= 0 ? 'finishing' : `about ${formatDuration(etaSeconds)} left`);
  return parts.join(' · ');
}

export function ProgressBar(props: ProgressBarProps) {
  const { label, fraction = null } = props;
  const shown = fraction === null ? null : Math.min(1, Math.max(0, fraction));
  return (
    <div className="progress" role="group" aria-label={label}>
      <div className="progress-text">
        <span className="progress-label">{label}</span>
        <span className="progress-figures tabular">{progressFigures(props)}</span>
      </div>
      <div
        className={`progress-track${shown === null ? ' is-indeterminate' : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={shown === null ? undefined : Math.round(shown * 100)}
        aria-valuetext={
          shown === null ? progressFigures(props) : `${String(Math.round(shown * 100))}%: ${progressFigures(props)}`
        }
      >
        <div className="progress-fill" style={shown === null ? undefined : { width: `${(shown * 100).toFixed(1)}%` }} />
      </div>
    </div>
  );
}
