/**
 * The attempts to deliver one notification, on a time axis (SVG, no chart library): a mark
 * per attempt coloured by its status, and below, a bar per gap showing how the retries
 * spread out (the bank's backoff).
 */
import { formatDuration } from '../lib/time.ts';

export interface Attempt {
  id: string;
  attemptNumber: number;
  status: string;
  at: string | null;
  willRetry: boolean;
  error: string | null;
}

const WIDTH = 560;
const LEFT = 36;
const RIGHT = 16;
const LANE_Y = 28;
const GAPS_TOP = 64;
const GAPS_HEIGHT = 70;

function timeOf(attempt: Attempt): number | null {
  if (attempt.at === null) return null;
  const time = Date.parse(attempt.at);
  return Number.isNaN(time) ? null : time;
}

/** Gaps in seconds between consecutive attempts (null where a time is missing). */
function gapsOf(attempts: readonly Attempt[]): (number | null)[] {
  const gaps: (number | null)[] = [];
  for (let index = 1; index < attempts.length; index += 1) {
    const before = timeOf(attempts[index - 1] as Attempt);
    const after = timeOf(attempts[index] as Attempt);
    gaps.push(before === null || after === null ? null : (after - before) / 1000);
  }
  return gaps;
}

export function AttemptTimeline({ attempts }: { attempts: readonly Attempt[] }) {
  if (attempts.length === 0) return <p className="muted">No attempts recorded.</p>;
  const times = attempts.map(timeOf);
  const known = times.filter((time): time is number => time !== null);
  const start = known.length === 0 ? 0 : Math.min(...known);
  const end = known.length === 0 ? 1 : Math.max(...known);
  const span = Math.max(1, end - start);
  const usable = WIDTH - LEFT - RIGHT;
  // Times recorded to the second can coincide: then marks are spread by order, not stacked.
  const byOrder = known.length < 2 || end === start || new Set(known).size < known.length;
  // Without times (or all at once), attempts are spaced evenly by their order.
  const xOf = (index: number): number => {
    const time = times[index];
    if (time === null || time === undefined || byOrder) {
      return LEFT + (attempts.length === 1 ? usable / 2 : (usable * index) / (attempts.length - 1));
    }
    return LEFT + (usable * (time - start)) / span;
  };
  const gaps = gapsOf(attempts);
  const largestGap = Math.max(1, ...gaps.filter((gap): gap is number => gap !== null));
  const barWidth = Math.max(4, Math.min(28, usable / Math.max(1, gaps.length) - 4));
  const height = GAPS_TOP + GAPS_HEIGHT + 22;
  const last = attempts[attempts.length - 1];
  return (
    <figure className="stack" style={{ margin: 0 }}>
      <svg
        className="timeline"
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-label={`Timeline of ${attempts.length} delivery attempts over ${formatDuration(span / 1000)}`}
      >
        <line className="axis" x1={LEFT} x2={WIDTH - RIGHT} y1={LANE_Y} y2={LANE_Y} />
        <text x={LEFT} y={LANE_Y + 20}>
          0 s
        </text>
        <text x={WIDTH - RIGHT} y={LANE_Y + 20} textAnchor="end">
          {byOrder ? `${attempts.length} attempts, in order` : `+${formatDuration(span / 1000)}`}
        </text>
        {attempts.map((attempt, index) => (
          <g key={attempt.id}>
            <circle className={`mark-${attempt.status}`} cx={xOf(index)} cy={LANE_Y} r={5}>
              <title>
                Attempt {attempt.attemptNumber}: {attempt.status}
                {attempt.error === null ? '' : ` — ${attempt.error}`}
                {attempt.at === null ? '' : ` at ${attempt.at}`}
              </title>
            </circle>
            {attempts.length <= 20 ? (
              <text x={xOf(index)} y={LANE_Y - 10} textAnchor="middle">
                {attempt.attemptNumber}
              </text>
            ) : null}
          </g>
        ))}
        {last?.willRetry === true ? (
          <text x={WIDTH - RIGHT} y={12} textAnchor="end">
            another retry is scheduled
          </text>
        ) : null}
        <text x={0} y={GAPS_TOP + 8}>
          gap
        </text>
        <line className="grid" x1={LEFT} x2={WIDTH - RIGHT} y1={GAPS_TOP + GAPS_HEIGHT} y2={GAPS_TOP + GAPS_HEIGHT} />
        {gaps.map((gap, index) => {
          const barHeight = gap === null ? 2 : Math.max(2, (GAPS_HEIGHT * gap) / largestGap);
          const x = LEFT + (usable / Math.max(1, gaps.length)) * (index + 0.5) - barWidth / 2;
          return (
            <g key={index}>
              <rect
                className="mark-skipped"
                x={x}
                y={GAPS_TOP + GAPS_HEIGHT - barHeight}
                width={barWidth}
                height={barHeight}
                rx={2}
                opacity={0.55}
              >
                <title>
                  Between attempts {attempts[index]?.attemptNumber} and {attempts[index + 1]?.attemptNumber}:{' '}
                  {gap === null ? 'unknown' : formatDuration(gap)}
                </title>
              </rect>
              {gaps.length <= 16 ? (
                <text x={x + barWidth / 2} y={GAPS_TOP + GAPS_HEIGHT + 14} textAnchor="middle">
                  {gap === null ? '?' : gap < 10 ? `${gap.toFixed(1)}s` : formatDuration(gap).replace(/ \d+ s$/, '')}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend">
        <span style={{ ['--legend-color' as string]: 'var(--positive)' }}>sent</span>
        <span style={{ ['--legend-color' as string]: 'var(--negative)' }}>error</span>
        <span style={{ ['--legend-color' as string]: 'var(--neutral)' }}>skipped · gap between attempts</span>
      </figcaption>
    </figure>
  );
}
