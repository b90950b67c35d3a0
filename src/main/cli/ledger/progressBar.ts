/**
 * A one-line progress bar for sync on a terminal (standard error, redrawn in place). Not on
 * a terminal, nothing is drawn: scripts get the final line only.
 */
import type { Writable } from 'node:stream';
import type { SyncProgress } from '../../services/sync/syncProgress.ts';

const WIDTH = 24;

function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** Seconds as a person reads them: 45 s, 3 min 20 s, 1 h 5 min. */
export function durationText(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${String(whole)} s`;
  if (whole < 3600) return `${String(Math.floor(whole / 60))} min ${String(whole % 60)} s`;
  return `${String(Math.floor(whole / 3600))} h ${String(Math.floor((whole % 3600) / 60))} min`;
}

export function progressLine(progress: SyncProgress, totalHint: number | null): string {
  const known = progress.etaSeconds !== null && progress.etaSeconds > 0 && progress.fetched > 0;
  const share =
    progress.state === 'done'
      ? 1
      : totalHint !== null && totalHint > 0
        ? Math.min(1, progress.fetched / totalHint)
        : known && progress.etaSeconds !== null
          ? progress.fetched / (progress.fetched + progress.ratePerSecond * progress.etaSeconds)
          : null;
  const bar =
    share === null
      ? '[' + '·'.repeat(WIDTH) + ']'
      : '[' + '#'.repeat(Math.round(share * WIDTH)) + '-'.repeat(WIDTH - Math.round(share * WIDTH)) + ']';
  const parts = [
    `${count(progress.fetched)} fetched`,
    `${count(progress.written)} written`,
    `${count(progress.pages)} ${progress.pages === 1 ? 'page' : 'pages'}`,
  ];
  if (progress.windowsTotal > 0) {
    parts.push(`windows ${count(progress.windowsDone)}/${count(progress.windowsTotal)}`);
    parts.push(`${String(progress.parallelism)} at once`);
  }
  parts.push(`${count(progress.ratePerSecond)}/s`);
  if (progress.etaSeconds !== null && progress.state === 'running')
    parts.push(`ETA ${durationText(progress.etaSeconds)}`);
  return `${bar} ${parts.join(' · ')}`;
}

export class ProgressBar {
  readonly #output: Writable & { isTTY?: boolean };
  #drawn = false;

  constructor(output: Writable & { isTTY?: boolean }) {
    this.#output = output;
  }

  update(progress: SyncProgress): void {
    if (this.#output.isTTY !== true) return;
    this.#output.write(`\r\u001b[2K${progressLine(progress, null)}`);
    this.#drawn = true;
  }

  finish(): void {
    if (this.#drawn) this.#output.write('\r\u001b[2K');
    this.#drawn = false;
  }
}
