/**
 * `npm run ledger -- <command>`: the headless command line. Ctrl+C stops a running sync after
 * its current page (the next run resumes there); a second Ctrl+C quits at once.
 */
import { runLedger } from './runLedger.ts';

const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});

process.exitCode = await runLedger(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: interrupt.signal,
});
