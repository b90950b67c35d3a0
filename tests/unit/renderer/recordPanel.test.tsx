/**
 * Settings → Record: the active profile's retention read over the bridge (five years unless
 * set), saved, the legal hold placed and lifted, and a purge refused from the window while a
 * hold stands (its button disabled).
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { RecordPanel } from '../../../src/renderer/src/features/settings/RecordPanel.tsx';
import { installFakeBridge, settle, withStagingProfile } from './setup.tsx';

beforeEach(() => {
  withStagingProfile();
});

describe('RecordPanel', () => {
  it('shows five years by default, saves a new retention, and places then lifts a legal hold', async () => {
    let years = 5;
    let hold: { reason: string; placedAt: string } | null = null;
    const bridge = installFakeBridge({
      'record.retention': () => ({ years, hold }),
      'record.setRetention': (input) => {
        years = (input as { years: number }).years;
        return { years, hold };
      },
      'record.placeHold': (input) => {
        hold = { reason: (input as { reason: string }).reason, placedAt: '2026-12-02T08:00:00.000Z' };
        return hold;
      },
      'record.liftHold': () => {
        hold = null;
        return { lifted: true };
      },
    });
    render(<RecordPanel />);
    await settle();
    expect(screen.getByText('5 years after the review (Staging)')).toBeTruthy();
    const user = userEvent.setup();
    const field = screen.getByLabelText(/Years kept after the review/);
    await user.clear(field);
    await user.type(field, '7');
    await user.click(screen.getByRole('button', { name: 'Save retention' }));
    await settle();
    expect(bridge.calls).toContainEqual({ channel: 'record.setRetention', input: { profileId: 'staging', years: 7 } });
    expect(screen.getByText('7 years after the review (Staging)')).toBeTruthy();

    await user.type(screen.getByLabelText(/Reason for a legal hold/), 'subpoena 2026-114');
    await user.click(screen.getByRole('button', { name: 'Place legal hold' }));
    await settle();
    expect(screen.getByText('placed 2026-12-02T08:00:00.000Z: subpoena 2026-114')).toBeTruthy();
    const purge = screen.getByRole('button', { name: 'Purge reviews past retention' });
    expect(purge.getAttribute('aria-disabled') === 'true' || purge.hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Lift legal hold' }));
    await settle();
    expect(bridge.calls.map((call) => call.channel)).toContain('record.liftHold');
    expect(screen.getByText('none')).toBeTruthy();
  });
});
