/**
 * `npm run serve` (and `ledger serve`): Ledgerdesk in web mode (serveCommand.ts). The first
 * Ctrl+C (or SIGTERM) stops it in order, letting the work in flight finish; a second one ends
 * it at once.
 */
import { runServe } from './serveCommand.ts';

export async function runServeFromTerminal(args: readonly string[]): Promise<never> {
  let requestStop: () => void = () => undefined;
  const stopRequested = new Promise<void>((resolve) => {
    requestStop = resolve;
  });
  let signals = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      signals += 1;
      if (signals > 1) process.exit(130);
      requestStop();
    });
  }
  const code = await runServe(args, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stopRequested,
  });
  // Everything of Ledgerdesk has stopped: a browser's idle keep-alive socket must not hold the terminal.
  process.exit(code);
}

if (import.meta.main) await runServeFromTerminal(process.argv.slice(2));
