/**
 * Where a start's time goes, phase by phase, for the benchmark of web mode's start
 * (tests/bench/webMode.bench.ts) and for anyone asking why a start is slow: with
 * LEDGERDESK_START_TIMES=1, each phase prints one line to stderr,
 * `ledgerdesk-start <phase> <ms since the epoch>` (this process's clock, so the web server's
 * and the sandbox's lines line up). Nothing is printed otherwise; no line holds anything but
 * the phase's name and the time.
 */
const START_TIMES_VARIABLE = 'LEDGERDESK_START_TIMES';

export function markStart(phase: string): void {
  if (process.env[START_TIMES_VARIABLE] !== '1') return;
  process.stderr.write(`ledgerdesk-start ${phase} ${(performance.timeOrigin + performance.now()).toFixed(1)}\n`);
}
