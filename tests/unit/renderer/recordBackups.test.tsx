/**
 * Settings → Record → Backups (issue 34, item 7): the backups listed newest first with when and
 * size, shown even when the record did not open (its retention cannot load); a Restore asks first,
 * saying the current record is kept aside and the backup is put in place at the next start; a
 * No asks nothing of main; a backup that does not verify cannot be restored; a refusal is said.
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { RecordPanel } from '../../../src/renderer/src/features/settings/RecordPanel.tsx';
import { useConfirmStore } from '../../../src/renderer/src/stores/confirm.ts';
import { useToastStore } from '../../../src/renderer/src/stores/toasts.ts';
import { installFakeBridge, refuse, settle, withStagingProfile } from './setup.tsx';

const NEWER = {
  name: 'record-2026-12-02T08-00-00-000Z.sqlite',
  madeAt: '2026-12-02T08:00:00.000Z',
  bytes: 151_552,
  verified: true,
  why: null,
};
const OLDER = {
  name: 'record-2026-12-01T08-00-00-000Z.sqlite',
  madeAt: '2026-12-01T08:00:00.000Z',
  bytes: 2_048,
  verified: false,
  why: 'it is damaged (database disk image is malformed)',
};

beforeEach(() => {
  withStagingProfile();
  useConfirmStore.setState({ request: null, resolve: null });
});

describe('RecordBackups', () => {
  it('lists the backups of a record that did not open, and restores one at the next start after asking', async () => {
    let restoreAtNextStart: string | null = null;
    const bridge = installFakeBridge({
      // The record is damaged: its retention cannot load, its backups still list.
      'record.retention': () => {
        throw refuse('not_available', "The officer's record cannot be opened (database disk image is malformed).");
      },
      'record.backups': () => ({ backups: [NEWER, OLDER], restoreAtNextStart }),
      'record.restoreBackup': (input) => {
        restoreAtNextStart = (input as { name: string }).name;
        return { backups: [NEWER, OLDER], restoreAtNextStart };
      },
    });
    render(<RecordPanel />);
    await settle();
    const table = screen.getByRole('table', { name: 'Backups of the record' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      '2026-12-02 08:00 UTC',
      '2026-12-01 08:00 UTC',
    ]);
    expect(within(rows[0] as HTMLElement).getByText('148.0 KB')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText(/^no: it is damaged/)).toBeTruthy();
    const olderRestore = within(rows[1] as HTMLElement).getByRole('button', { name: /Restore/ });
    expect(olderRestore.getAttribute('aria-disabled')).toBe('true');

    const user = userEvent.setup();
    // No: nothing is asked of main.
    await user.click(screen.getByRole('button', { name: 'Restore the backup of 2026-12-02 08:00 UTC' }));
    expect(useConfirmStore.getState().request?.body).toMatch(/kept aside in the data folder, never deleted/);
    expect(useConfirmStore.getState().request?.body).toMatch(/next start/);
    await act(async () => {
      useConfirmStore.getState().answer(false);
      await Promise.resolve();
    });
    await settle();
    expect(bridge.calls.map((call) => call.channel)).not.toContain('record.restoreBackup');

    // Yes: asked for, and the panel says to restart.
    await user.click(screen.getByRole('button', { name: 'Restore the backup of 2026-12-02 08:00 UTC' }));
    await act(async () => {
      useConfirmStore.getState().answer(true);
      await Promise.resolve();
    });
    await settle();
    expect(bridge.calls).toContainEqual({ channel: 'record.restoreBackup', input: { name: NEWER.name } });
    expect(screen.getByText(new RegExp(`Restart Ledgerdesk to restore ${NEWER.name}`)).getAttribute('role')).toBe(
      'status',
    );
  });

  it('says why a restore was refused, and keeps the list as it was', async () => {
    installFakeBridge({
      'record.retention': () => ({ years: 5, hold: null }),
      'record.backups': () => ({ backups: [NEWER], restoreAtNextStart: null }),
      'record.restoreBackup': () => {
        throw refuse('invalid_input', `The backup of 2026-12-02 08:00 UTC is not restored: it is damaged.`);
      },
    });
    render(<RecordPanel />);
    await settle();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Restore the backup of 2026-12-02 08:00 UTC' }));
    await act(async () => {
      useConfirmStore.getState().answer(true);
      await Promise.resolve();
    });
    await settle();
    const toasts = useToastStore.getState().toasts;
    expect(toasts.at(-1)).toMatchObject({ title: 'Could not restore the backup' });
    expect(JSON.stringify(toasts.at(-1))).toMatch(/it is damaged/);
    expect(screen.queryByText(/Restart Ledgerdesk to restore/)).toBeNull();
    expect(screen.getAllByRole('row')).toHaveLength(2);
  });
});
