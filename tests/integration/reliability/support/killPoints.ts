/**
 * What the kill -9 tests share: a small seeded generator, so kill points repeat from run to
 * run (LEDGERDESK_CRASH_SEED), and a child's end, its signal or its exit code.
 */
import type { ChildProcess } from 'node:child_process';

/** mulberry32: numbers in [0, 1), the same sequence for the same seed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The signal that ended the child (SIGKILL), or its exit code when it ended first. */
export function exitOf(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? child.exitCode);
    else
      child.once('exit', (code, signal) => {
        resolve(signal ?? code);
      });
  });
}
