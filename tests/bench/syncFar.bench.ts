/**
 * `npm run bench -- syncFar`: a sync of 200,000 pending transactions from a bank 50 ms away
 * (the sandbox behind a proxy process holding each answer back 50 ms, as a bank across the
 * internet), against walking the same list with plain sequential fetches through the same
 * proxy, in the same run. The sync walks date windows side by side (the app's default
 * parallelism); the sequential walk is one cursor, page after page. Also the sync walking one
 * cursor (parallelism 1, the sync before windows) and the sync's peak resident memory.
 * Target (issue 17): the sync at least 3× as fast as the sequential walk.
 */
import { join } from 'node:path';
import type { BenchFigure, Benchmark } from './benchmark.ts';
import {
  clientOf,
  megabytes,
  startFarBank,
  startSandboxProcess,
  stopSandboxProcess,
  syncWatchingMemory,
  temporaryFolder,
  type SandboxChild,
} from './sandboxChild.ts';

const RECORDS = 200_000;
const PAGE = 1000;
const DELAY_MS = 50;

/** The sequential walk: every page validated, nothing kept; records a second. */
async function sequentialWalk(bank: SandboxChild): Promise<number> {
  const started = performance.now();
  let records = 0;
  for await (const page of clientOf(bank).pendingTransactionPages(bank.account, {}, { pageSize: PAGE })) {
    records += page.items.length;
  }
  if (records !== RECORDS) throw new Error(`the walk saw ${String(records)} records, not ${String(RECORDS)}`);
  return records / ((performance.now() - started) / 1000);
}

const farSyncBenchmark: Benchmark = {
  title: `Sync of 200,000 pending transactions from a bank ${String(DELAY_MS)} ms away`,
  async run(): Promise<BenchFigure[]> {
    const sandbox = await startSandboxProcess(RECORDS);
    const temp = temporaryFolder();
    const far = await startFarBank(sandbox, DELAY_MS);
    try {
      // Alternated, so both see the same machine: walk, sync, walk, sync (each sync into a new cache).
      const walkA = await sequentialWalk(far);
      const syncA = await syncWatchingMemory(far, join(temp.folder, 'a'), RECORDS, PAGE);
      const walkB = await sequentialWalk(far);
      const syncB = await syncWatchingMemory(far, join(temp.folder, 'b'), RECORDS, PAGE);
      const oneCursor = await syncWatchingMemory(far, join(temp.folder, 'one-cursor'), RECORDS, PAGE, 1);
      const walkRate = (walkA + walkB) / 2;
      const syncRate = (RECORDS / syncA.seconds + RECORDS / syncB.seconds) / 2;
      return [
        {
          name: `sync in date windows (6 at once), bank ${String(DELAY_MS)} ms away`,
          value: syncRate,
          unit: 'records/s',
          baseline: { name: 'sequential fetch-only walk through the same proxy', value: walkRate },
          target: '≥ 3× the sequential walk',
          met: syncRate >= 3 * walkRate,
        },
        {
          name: `sync walking one cursor (parallelism 1), bank ${String(DELAY_MS)} ms away`,
          value: RECORDS / oneCursor.seconds,
          unit: 'records/s',
          baseline: { name: 'sequential fetch-only walk through the same proxy', value: walkRate },
        },
        {
          name: 'peak resident memory during the windowed sync',
          value: megabytes(Math.max(syncA.peakRss, syncB.peakRss)),
          unit: 'MiB',
          baseline: { name: 'resident memory before the sync', value: megabytes(syncB.rssBefore) },
        },
      ];
    } finally {
      await stopSandboxProcess(far);
      temp.remove();
      await stopSandboxProcess(sandbox);
    }
  },
};

export default [farSyncBenchmark];
