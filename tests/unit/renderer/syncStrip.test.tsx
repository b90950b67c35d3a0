/** The sync strip: records, rate and time left in its bar, pages and windows beside it, cancel. */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../../src/shared/ipc/index.ts';
import { SyncStrip } from '../../../src/renderer/src/components/SyncStrip.tsx';
import { installFakeBridge } from './setup.tsx';

const running: SyncProgress = {
  jobId: 'sync_1',
  profileId: 'p',
  kind: 'pendingTransactions',
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

describe('SyncStrip', () => {
  it('tells records, rate, time left, pages, windows done and requests at once', () => {
    installFakeBridge({});
    render(<SyncStrip job={running} what="pending transactions" />);
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Syncing pending transactions');
    expect(status.textContent).toContain('120,000 / 200,000 records');
    expect(status.textContent).toContain('40,000/s');
    expect(status.textContent).toContain('120 pages · windows 7 of 18 · 3 at once');
    expect(
      screen.getByRole('progressbar', { name: 'Syncing pending transactions' }).getAttribute('aria-valuenow'),
    ).toBe('120000');
  });

  it('leaves out windows for a sync that walks one cursor, and cancels from the keyboard', async () => {
    const bridge = installFakeBridge({ 'sync.cancel': () => null });
    render(<SyncStrip job={{ ...running, windowsTotal: 0, windowsDone: 0, pages: 1 }} what="webhooks" />);
    expect(screen.getByRole('status').textContent).toContain('1 page');
    expect(screen.getByRole('status').textContent).not.toContain('windows');
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.keyboard('{Enter}');
    expect(bridge.calls).toContainEqual({ channel: 'sync.cancel', input: { jobId: 'sync_1' } });
  });
});
