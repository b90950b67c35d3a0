/** What a running sync reports, as the IPC layer pushes it to the window. */
type SyncKindName = 'pending-transactions' | 'webhook-sends' | 'account-application' | 'applications' | 'webhooks';
export type SyncState = 'running' | 'done' | 'cancelled' | 'failed';

export interface SyncProgress {
  jobId: string;
  kind: SyncKindName;
  /** One job per key at a time, e.g. `pending-transactions/<profile>/<account>`. */
  key: string;
  /** Records fetched from the bank so far (a resumed run counts what was fetched before). */
  fetched: number;
  /** Records new or changed in the cache so far. */
  written: number;
  /** Pages fetched in this run. */
  pages: number;
  /** Date windows walked to their end, of all the job's windows (0 of 0: one walk, no windows). */
  windowsDone: number;
  windowsTotal: number;
  /** Page requests at the bank at once now: below the configured parallelism after a 429. */
  parallelism: number;
  /** Records fetched per second in this run. */
  ratePerSecond: number;
  /** Seconds left, when it can be estimated (a date range, or a single record); else null. */
  etaSeconds: number | null;
  state: SyncState;
  error?: string;
}

/**
 * ETA from the share of the job done (0 to 1) now and at this run's start, and the time this
 * run has taken: the rest at this run's pace. Null until the share has moved.
 */
export function etaFromShare(share: number, shareAtStart: number, elapsedSeconds: number): number | null {
  const gained = share - shareAtStart;
  if (gained <= 0 || elapsedSeconds <= 0) return null;
  return Math.max(0, Math.round((elapsedSeconds * Math.max(0, 1 - share)) / gained));
}

/**
 * ETA for a list synced newest first over a date range: the share of the range already
 * covered (from the range's end down to the oldest date seen) against the time spent.
 */
export function etaFromDates(
  range: { fromDate?: string; toDate?: string },
  oldestSeen: string | null,
  elapsedSeconds: number,
  today: string,
): number | null {
  if (range.fromDate === undefined || oldestSeen === null || elapsedSeconds <= 0) return null;
  const end = Date.parse(range.toDate ?? today);
  const start = Date.parse(range.fromDate);
  const reached = Date.parse(oldestSeen);
  if (!(end > start) || Number.isNaN(reached)) return null;
  const covered = Math.min(1, Math.max(0, (end - reached) / (end - start)));
  if (covered <= 0) return null;
  return Math.max(0, Math.round((elapsedSeconds * (1 - covered)) / covered));
}
