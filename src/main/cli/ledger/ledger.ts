/**
 * `npm run ledger -- <command>`: the headless command line. Ctrl+C stops a running sync after
 * its current page (the next run resumes there); a second Ctrl+C quits at once.
 */
import type { LedgerIo } from './runLedger.ts';

const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});

const args = process.argv.slice(2);
// `ledger serve` is web mode (src/main/web), run from its bundle as `npm run serve` runs it: a
// shell of its own, with its own Ctrl+C handling. Nothing of the command line is loaded for it.
if (args[0] === 'serve') {
  const { serveFromBuild } = await import('../../../../scripts/serve.mjs');
  await serveFromBuild(args.slice(1));
}

// Loaded only here, so `ledger serve` never loads the command line it does not use.
const { runLedger } = await import('./runLedger.ts');

const io: LedgerIo = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: interrupt.signal,
};
process.exitCode = await runLedger(args, io);
