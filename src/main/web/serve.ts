/**
 * `npm run serve`: Ledgerdesk in web mode (serveCommand.ts). The first Ctrl+C (or SIGTERM) stops
 * it in order, letting the work in flight finish; a second one ends it at once.
 */
import { runServe } from './serveCommand.ts';

let requestStop: () => void = () => undefined;
const stopRequested = new Promise<void>((resolve) => {
  requestStop = resolve;
});
let signals = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    signals += 1;
    if (signals > 1) process.exit(130);
    requestStop();
  });
}

process.exitCode = await runServe(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stopRequested,
});
// Nothing of Ledgerdesk is left running: any handle still open (a browser's keep-alive socket) must not hold the terminal.
process.exit();
