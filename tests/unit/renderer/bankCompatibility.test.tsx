/**
 * Settings → Bank compatibility: the active profile's drift read over the bridge, one row per
 * resource with the fields left out and those beyond the interface, "Start over", and the
 * states (nothing read yet, an error with Try again). Operable from the keyboard.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { BankCompatibilityPanel } from '../../../src/renderer/src/features/settings/BankCompatibilityPanel.tsx';
import type { DriftReport } from '../../../src/shared/ipc/index.ts';
import { installFakeBridge, refuse, settle, withStagingProfile } from './setup.tsx';

const REPORT: DriftReport = {
  profileId: 'staging',
  since: '2026-11-24T10:00:00.000Z',
  resources: [
    {
      resource: 'account_application',
      records: 12,
      missing: [
        { field: 'account_number', count: 12 },
        { field: 'ownership_type', count: 9 },
      ],
      unknown: [{ field: 'risk_score', count: 3 }],
      firstSeen: '2026-11-24T10:00:00.000Z',
      lastSeen: '2026-11-24T11:00:00.000Z',
    },
    {
      resource: 'webhook',
      records: 2,
      missing: [],
      unknown: [],
      firstSeen: '2026-11-24T10:00:00.000Z',
      lastSeen: '2026-11-24T10:00:00.000Z',
    },
  ],
};

const EMPTY: DriftReport = { profileId: 'staging', since: null, resources: [] };

beforeEach(() => {
  withStagingProfile();
});

describe('BankCompatibilityPanel', () => {
  it("shows each resource's fields left out and fields beyond the interface, with their counts", async () => {
    const bridge = installFakeBridge({ 'drift.report': () => REPORT });
    render(<BankCompatibilityPanel />);
    await settle();
    expect(bridge.calls).toEqual([{ channel: 'drift.report', input: { profileId: 'staging' } }]);
    expect(screen.getByRole('heading', { name: 'Bank compatibility · Staging' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain(
      '1 of 2 resources came back not as the interface lists them.',
    );
    const table = screen.getByRole('table', { name: 'Bank compatibility by resource' });
    const application = within(table).getByRole('row', { name: /account_application/ });
    const cells = within(application).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      '12',
      'account_number · 12 (every one)ownership_type · 9 of 12',
      'risk_score · 3 of 12',
    ]);
    const webhook = within(table).getByRole('row', { name: /webhook/ });
    expect(webhook.textContent).toContain('as the interface lists it');
  });

  it('starts over from the keyboard, and then says nothing was read yet', async () => {
    const bridge = installFakeBridge({ 'drift.report': () => REPORT, 'drift.reset': () => EMPTY });
    render(<BankCompatibilityPanel />);
    await settle();
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Refresh' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Start over' }));
    await user.keyboard('{Enter}');
    await settle();
    expect(bridge.calls.map((call) => call.channel)).toEqual(['drift.report', 'drift.reset']);
    expect(screen.getByRole('status').textContent).toMatch(/^Nothing read from this bank yet/);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('button', { name: 'Start over' }).getAttribute('aria-disabled')).toBe('true');
  });

  it('puts an error in place of the table, and reads again on Try again', async () => {
    let calls = 0;
    installFakeBridge({
      'drift.report': () => {
        calls += 1;
        if (calls === 1) throw refuse('storage_error', 'The cache database is busy.');
        return REPORT;
      },
    });
    render(<BankCompatibilityPanel />);
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('The cache database is busy.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await settle();
    expect(screen.getByRole('table', { name: 'Bank compatibility by resource' })).toBeTruthy();
  });
});
