/** The CLI's sync progress line (progressBar.ts): records, pages, windows, rate, ETA. */
import { describe, expect, it } from 'vitest';
import { durationText, progressLine } from '../../../src/main/cli/ledger/progressBar.ts';
import type { SyncProgress } from '../../../src/main/services/sync/syncProgress.ts';

const running: SyncProgress = {
  jobId: 'sync_1',
  kind: 'pending-transactions',
  key: 'pending-transactions/p/acct_1',
  fetched: 120_000,
  written: 118_500,
  pages: 120,
  windowsDone: 7,
  windowsTotal: 18,
  parallelism: 3,
  ratePerSecond: 40_000,
  etaSeconds: 2,
  state: 'running',
};

describe('progressLine', () => {
  it('says records, pages, windows done, requests at once, rate and ETA', () => {
    expect(progressLine(running, null)).toBe(
      '[##############----------] 120,000 fetched · 118,500 written · 120 pages · windows 7/18 · 3 at once · 40,000/s · ETA 2 s',
    );
  });

  it('leaves out the windows of a sync that walks none, and the ETA once done', () => {
    const line = progressLine(
      { ...running, windowsDone: 0, windowsTotal: 0, pages: 1, state: 'done', etaSeconds: 0 },
      null,
    );
    expect(line).toBe('[########################] 120,000 fetched · 118,500 written · 1 page · 40,000/s');
  });

  it('shows activity without a fraction while nothing tells the total', () => {
    expect(progressLine({ ...running, etaSeconds: null }, null)).toMatch(/^\[·{24}\] /);
  });

  it('reads durations as a person would', () => {
    expect(durationText(45)).toBe('45 s');
    expect(durationText(200)).toBe('3 min 20 s');
    expect(durationText(3900)).toBe('1 h 5 min');
  });
});
