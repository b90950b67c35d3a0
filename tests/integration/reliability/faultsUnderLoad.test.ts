/**
 * Faults under load (support/faultRun.ts): sandbox, listener and sync together while the
 * receiver is healthy, slow, slow past the bank's deadline, answering 500, resetting
 * connections, down, and healthy again. Every event accounted for, the cache equal to the
 * bank, RSS bounded (the peak is reported, with the bank process's), no file descriptor
 * leaked. A bounded run; the longer one is `npm run bench -- reliability`.
 */
import { describe, expect, it } from 'vitest';
import { FAULT_PHASES, runFaultScenario } from './support/faultRun.ts';

/** A generous ceiling on RSS growth during the run: it catches unbounded growth, not a few buffers. */
const RSS_GROWTH_LIMIT_MIB = 400;
const EVENTS_PER_PHASE = 40;

describe('faults under load', () => {
  // The timeout only stops a hung run (the loops inside are bounded too); nothing here is timed.
  it(
    'accounts for every event through every fault, keeps memory bounded and leaks no descriptor',
    { timeout: 600_000 },
    async () => {
      const report = await runFaultScenario({ eventsPerPhase: EVENTS_PER_PHASE, syncAccountSize: 3_000 });
      process.stdout.write(`Faults under load: ${JSON.stringify(report)}\n`);
      expect(report.violations).toEqual([]);
      expect(report.events.ach).toBe((FAULT_PHASES.length * EVENTS_PER_PHASE) / 2);
      // Each way an event can end happened: at once, after retries, given up while the receiver was down.
      expect(report.outcomes.sentFirstTime).toBeGreaterThan(0);
      expect(report.outcomes.sentAfterRetries).toBeGreaterThan(0);
      expect(report.outcomes.gaveUp).toBeGreaterThan(0);
      expect(report.syncRounds).toBeGreaterThan(0);
      expect(report.rss.peakMiB - report.rss.startMiB).toBeLessThan(RSS_GROWTH_LIMIT_MIB);
      expect(report.fds.leaked).toEqual([]);
    },
  );
});
