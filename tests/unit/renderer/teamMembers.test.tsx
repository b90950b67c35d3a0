/**
 * Settings › Team in the window (issue 35, T2 and T4): a member who joined and whose fingerprint
 * this officer has not compared is a notice, acknowledged only once the officer says the
 * fingerprint matches; a login the server lists but no lead introduced is said to be one; a
 * weaker four-eyes policy waiting for a second lead is shown to every officer, and a lead may
 * approve or withdraw it.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TeamStatus } from '../../../src/shared/ipc/domains/team.ts';
import { TeamSettings } from '../../../src/renderer/src/features/team/TeamSettings.tsx';
import { useTeamStore } from '../../../src/renderer/src/features/team/teamStore.ts';
import { installFakeBridge, type FakeBridge } from './setup.tsx';

const STATUS: TeamStatus = {
  joined: true,
  workspace: 'acme',
  login: 'bob',
  role: 'lead',
  server: 'db.bank.internal:5432/ledgerdesk',
  head: { seq: 9, hash: 'ab'.repeat(32) },
  queued: 0,
  conflicts: 0,
  pulledAt: '2026-12-01T10:00:00.000Z',
  membershipSigned: true,
  newMembers: 1,
};

const DAVE_KEY = '1a2b 3c4d 5e6f 7081 92a3 b4c5 d6e7 f809';

function member(login: string, overrides: Record<string, unknown> = {}) {
  return {
    login,
    displayName: login,
    role: 'officer',
    active: true,
    joined: true,
    signingKey: '0000 1111 2222 3333 4444 5555 6666 7777',
    boxKey: null,
    introducedBy: null,
    countsAs: login,
    inviteExpires: null,
    notice: 'acknowledged',
    ...overrides,
  };
}

let bridge: FakeBridge;
let acknowledged: boolean;

beforeEach(() => {
  acknowledged = false;
  useTeamStore.setState({ status: null, statusError: null, members: null, membersError: null });
  bridge = installFakeBridge({
    'team.status': () => ({ ...STATUS, newMembers: acknowledged ? 0 : 1 }),
    'team.members': () => ({
      rows: [
        member('alice', { role: 'lead' }),
        member('bob', { role: 'lead', notice: 'self' }),
        member('dave', {
          signingKey: DAVE_KEY,
          introducedBy: 'alice',
          countsAs: acknowledged ? 'dave' : 'alice',
          notice: acknowledged ? 'acknowledged' : 'new',
        }),
        member('carol', { notice: 'unsigned' }),
      ],
    }),
    'team.acknowledgeMember': () => {
      acknowledged = true;
      return { countsAs: 'dave', confirmed: true };
    },
    'team.policy': () => ({
      workspace: 'acme',
      rules: ['escalated>cleared', 'escalated>closed', 'flagged>cleared'],
      pending: { rules: [], by: 'alice', seq: 8, hash: 'cd'.repeat(32) },
      signed: true,
    }),
    'team.decidePolicy': () => ({
      workspace: 'acme',
      rules: [],
      pending: null,
      signed: true,
      seq: 10,
    }),
  });
});

describe('Settings › Team', () => {
  it('shows a new member as a notice, acknowledged only after the officer says the fingerprint matches', async () => {
    render(<TeamSettings />);
    const notices = await screen.findByRole('region', { name: 'New members to acknowledge' });
    const notice = within(notices).getByRole('article', { name: 'New member: dave (officer, invited by alice)' });
    expect(within(notice).getByText(DAVE_KEY)).toBeTruthy();
    expect(within(notice).getByText(/four-eyes counts dave as alice/)).toBeTruthy();
    const button = within(notice).getByRole('button', { name: 'Acknowledge dave' });
    // Unavailable until the officer says the fingerprints match: a click does nothing.
    expect(button.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(button);
    expect(bridge.calls.some((call) => call.channel === 'team.acknowledgeMember')).toBe(false);
    fireEvent.click(within(notice).getByRole('checkbox', { name: /^The fingerprint dave read me is the one above/ }));
    expect(button.getAttribute('aria-disabled')).toBeNull();
    await act(async () => {
      fireEvent.click(button);
      await Promise.resolve();
    });
    expect(bridge.calls.find((call) => call.channel === 'team.acknowledgeMember')?.input).toEqual({
      login: 'dave',
      fingerprint: DAVE_KEY,
    });
    // Re-read: the notice is gone, the row says acknowledged.
    await screen.findByText('none to acknowledge');
    expect(screen.queryByRole('region', { name: 'New members to acknowledge' })).toBeNull();
    const row = screen.getByRole('row', { name: /dave/ });
    expect(within(row).getByText('acknowledged')).toBeTruthy();
  });

  it('says which listed login no lead introduced', async () => {
    render(<TeamSettings />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The server lists carol, whom no lead introduced');
    const row = screen.getByRole('row', { name: /carol/ });
    expect(within(row).getByText('not in the signed history')).toBeTruthy();
  });

  it('shows a weaker policy waiting for a second lead, and a lead approves it', async () => {
    render(<TeamSettings />);
    const waiting = await screen.findByText('A weaker policy waits for a second lead');
    const box = waiting.closest('[role="status"]') as HTMLElement;
    expect(box.textContent).toContain('proposed by alice, event #8');
    expect(box.textContent).toContain('no move would need a second officer');
    expect(box.textContent).toContain('Until another lead approves it, the policy above holds.');
    await act(async () => {
      fireEvent.click(within(box).getByRole('button', { name: 'Approve as second lead' }));
      await Promise.resolve();
    });
    expect(bridge.calls.find((call) => call.channel === 'team.decidePolicy')?.input).toEqual({ decision: 'approve' });
    expect(screen.queryByText('A weaker policy waits for a second lead')).toBeNull();
  });
});
