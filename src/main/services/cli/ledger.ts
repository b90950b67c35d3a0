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

const args = process.argv.slice(2);
// `ledger serve` is web mode (src/main/web): a shell of its own, with its own Ctrl+C handling.
if (args[0] === 'serve') {
  const { runServeFromTerminal } = await import('../../web/serve.ts');
  await runServeFromTerminal(args.slice(1));
}

process.exitCode = await runLedger(args, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: interrupt.signal,
});
