/**
 * Settings › Local sandbox bank and the way to it (issue 25): the way shows only beside a
 * sentence that says the sandbox is not running and opens Settings › Profiles; the panel says
 * the state, restarts through main, shows and announces the outcome, and says a refusal.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_RESTART_ACTION } from '../../../src/shared/ipc/index.ts';
import { SandboxBankPanel } from '../../../src/renderer/src/features/settings/SandboxBankPanel.tsx';
import { SandboxRestartLink } from '../../../src/renderer/src/features/settings/SandboxRestartLink.tsx';
import { useSandboxBankStore } from '../../../src/renderer/src/features/settings/sandboxBankStore.ts';
import { useSettingsStore } from '../../../src/renderer/src/features/settings/store.ts';
import { useAnnouncements } from '../../../src/renderer/src/stores/announcements.ts';
import { useNavigationStore } from '../../../src/renderer/src/stores/navigation.ts';
import { installFakeBridge, refuse, settle } from './setup.tsx';

beforeEach(() => {
  useSandboxBankStore.setState({ status: null, statusProblem: null, outcome: { state: 'idle' }, focusRestart: false });
});

describe('the way to restart the sandbox', () => {
  it('shows only beside a sentence that says the sandbox is not running, and opens Settings › Profiles', () => {
    installFakeBridge({});
    const { rerender } = render(<SandboxRestartLink sentence="The bank of Staging cannot be reached." />);
    expect(screen.queryByRole('button')).toBeNull();
    rerender(<SandboxRestartLink sentence={null} />);
    expect(screen.queryByRole('button')).toBeNull();
    useSettingsStore.getState().setTab('audit');
    rerender(<SandboxRestartLink sentence={`The local sandbox bank is not running. ${SANDBOX_RESTART_ACTION}`} />);
    fireEvent.click(screen.getByRole('button', { name: 'Restart it in Settings' }));
    expect(useNavigationStore.getState().screen).toBe('settings');
    expect(useSettingsStore.getState().tab).toBe('profiles');
    expect(useSandboxBankStore.getState().focusRestart).toBe(true);
  });
});

describe('Settings › Local sandbox bank', () => {
  it('says why it is not running, restarts it, and shows and announces the outcome', async () => {
    let running = false;
    const bridge = installFakeBridge({
      'embeddedSandbox.status': () =>
        running
          ? { running: true, baseUrl: 'http://127.0.0.1:40001', startedAt: '2026-11-27T09:00:00.000Z' }
          : {
              running: false,
              startedAt: '2026-11-27T08:00:00.000Z',
              stoppedAt: '2026-11-27T08:30:00.000Z',
              problem: 'It stopped on its own (exit code 1).',
            },
      'embeddedSandbox.restart': () => {
        running = true;
        return {
          state: { running: true, baseUrl: 'http://127.0.0.1:40001', startedAt: '2026-11-27T09:00:00.000Z' },
          tookMs: 2400,
          answering: true,
        };
      },
      'profiles.list': () => ({ profiles: [], activeProfileId: null }),
    });
    render(<SandboxBankPanel />);
    await settle();
    expect(screen.getByText('not running')).toBeTruthy();
    expect(screen.getByText('It stopped on its own (exit code 1).')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Restart the sandbox bank' }));
    await settle();
    expect(bridge.calls.filter((call) => call.channel === 'embeddedSandbox.restart')).toHaveLength(1);
    const said =
      'The local sandbox bank is running again (restarted in 2.4 s) and answers; sync to fetch what changed.';
    expect(screen.getByText(said)).toBeTruthy();
    expect(useAnnouncements.getState().text).toBe(said);
    expect(screen.getByText('http://127.0.0.1:40001')).toBeTruthy();
  });

  it('says a restart that failed, and reads the state again', async () => {
    const bridge = installFakeBridge({
      'embeddedSandbox.status': () => ({
        running: false,
        startedAt: null,
        stoppedAt: '2026-11-27T08:30:00.000Z',
        problem: 'It could not start: the data file is locked.',
      }),
      'embeddedSandbox.restart': () => {
        throw refuse('not_available', 'The local sandbox bank did not start again: the data file is locked.');
      },
    });
    render(<SandboxBankPanel />);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Restart the sandbox bank' }));
    await settle();
    expect(screen.getByText('did not restart')).toBeTruthy();
    expect(useAnnouncements.getState().text).toMatch(/^The local sandbox bank did not restart\. .*data file is locked/);
    expect(bridge.calls.filter((call) => call.channel === 'embeddedSandbox.status').length).toBeGreaterThanOrEqual(2);
  });
});
