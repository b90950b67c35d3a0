/**
 * `npm run serve` (and `ledger serve`): Ledgerdesk in web mode (serveCommand.ts). The first
 * Ctrl+C (or SIGTERM) stops it in order, letting the work in flight finish; a second one ends
 * it at once.
 *
 * The embedded sandbox's process is forked first, before this process loads the rest of
 * Ledgerdesk: each loads its own code at the same time (on a busy two-core machine loading
 * took 19 s here and the sandbox's start 22 s, one after the other). The early child opens
 * nothing until it is told to start, which happens only once the data folder's lock is taken.
 */
import type { SandboxChild } from '../app/embeddedSandbox.ts';
import { forkSandboxChild } from './forkSandbox.ts';
import { markStart } from '../app/startTimes.ts';

/** Options that print and end without starting anything: no sandbox is forked for them. */
function onlyPrints(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h') || args.includes('--token');
}

/** The early child for the first fork, a new one for any later (a restarted sandbox). */
function forkingEarly(early: SandboxChild | null): { fork: () => SandboxChild; unused: () => SandboxChild | null } {
  let spare = early;
  return {
    fork: () => {
      const child = spare ?? forkSandboxChild();
      spare = null;
      return child;
    },
    unused: () => spare,
  };
}

export async function runServeFromTerminal(args: readonly string[]): Promise<never> {
  markStart('web-server-code-loaded');
  const early = forkingEarly(onlyPrints(args) ? null : forkSandboxChild());
  markStart('sandbox-forked');
  const { runServe } = await import('./serveCommand.ts');
  markStart('services-code-loaded');
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
    stdin: process.stdin,
    stopRequested,
    forkSandbox: early.fork,
  });
  // Refused (usage, a second writer, not built): the early child was never told to start.
  early.unused()?.kill();
  // Everything of Ledgerdesk has stopped: a browser's idle keep-alive socket must not hold the terminal.
  process.exit(code);
}

if (import.meta.main) await runServeFromTerminal(process.argv.slice(2));
