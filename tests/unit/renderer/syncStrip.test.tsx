/**
 * The sync strip (issue 38): one thin line of records, rate and time left, its bar filled by the
 * share of the job done (never a total guessed from the rate, never "windows"), and cancel.
 */
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
  share: 0.6,
  state: 'running',
};

describe('SyncStrip', () => {
  it('tells records, rate and time left, and fills by the share done; never windows or requests at once', () => {
    installFakeBridge({});
    render(<SyncStrip job={running} what="pending transactions" />);
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Syncing pending transactions');
    expect(status.textContent).toContain('120,000 records · 40,000/s · about 2 s left');
    expect(status.textContent).not.toContain('window');
    expect(status.textContent).not.toContain('at once');
    expect(status.textContent).not.toContain(' / ');
    const bar = screen.getByRole('progressbar', { name: 'Syncing pending transactions' });
    expect(bar.getAttribute('aria-valuenow')).toBe('60');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');
  });

  it('shows activity, not a made-up fraction, when the share cannot be told; cancels from the keyboard', async () => {
    const bridge = installFakeBridge({ 'sync.cancel': () => null });
    render(
      <SyncStrip
        job={{ ...running, fetched: 176, windowsTotal: 0, windowsDone: 0, pages: 1, share: null, etaSeconds: null }}
        what="webhooks"
      />,
    );
    expect(screen.getByRole('status').textContent).toContain('176 records · 40,000/s');
    expect(screen.getByRole('status').textContent).not.toContain('left');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBeNull();
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.keyboard('{Enter}');
    expect(bridge.calls).toContainEqual({ channel: 'sync.cancel', input: { jobId: 'sync_1' } });
  });
});
