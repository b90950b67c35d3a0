/**
 * The embedded sandbox bank as Settings shows it: whether it runs (and at which loopback
 * address since when), or why not; and restarting it on its own data (nothing in it is lost:
 * the same file, the same key). Every error that says it is not running points here, in the
 * same words (SANDBOX_RESTART_ACTION), so the window can offer the way to Settings beside it.
 */
import { z } from 'zod';
import { noInput } from '../common.ts';

/** What to do when the local sandbox bank is not running: the words every such error ends with. */
export const SANDBOX_RESTART_ACTION = 'Restart it from Settings; cached data stays available.';

/** Whether a sentence (an error, an offline reason) sends the person to restart the sandbox. */
export function pointsToSandboxRestart(sentence: string | null | undefined): boolean {
  return sentence?.includes(SANDBOX_RESTART_ACTION) === true;
}

const embeddedSandboxState = z.discriminatedUnion('running', [
  z.object({
    running: z.literal(true),
    /** Its loopback address (http://127.0.0.1:PORT): a new port after each restart. */
    baseUrl: z.string(),
    /** When this process answered ready (ISO 8601 UTC). */
    startedAt: z.string(),
  }),
  z.object({
    running: z.literal(false),
    startedAt: z.string().nullable(),
    stoppedAt: z.string().nullable(),
    /** Why it is not running, in a sentence. */
    problem: z.string(),
  }),
]);
export type EmbeddedSandboxState = z.infer<typeof embeddedSandboxState>;

const sandboxRestart = z.object({
  state: embeddedSandboxState,
  /** How long stopping the old process and starting the new one took. */
  tookMs: z.number().min(0),
  /** Whether the bank answered its ping once restarted (the Online badge follows it). */
  answering: z.boolean(),
});
export type SandboxRestart = z.infer<typeof sandboxRestart>;

export const embeddedSandboxOperations = {
  status: { input: noInput, output: embeddedSandboxState },
  /** Stops the sandbox (what is in flight finishes) and starts it again on its data. */
  restart: { input: noInput, output: sandboxRestart },
} as const;
