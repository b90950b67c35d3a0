/**
 * Listener → Setup → Registered webhooks (issue 27, item 6): the listener's registrations are
 * listed; Remove asks first, calls listener.unregister only on yes, announces the removal,
 * reloads the list and moves focus to the next Remove; a refusal is told and keeps the row.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ConfirmHost } from '../../../src/renderer/src/frame/ConfirmHost.tsx';
import { ListenerRegistrations } from '../../../src/renderer/src/features/listener/ListenerRegistrations.tsx';
import { useRegistrationsStore } from '../../../src/renderer/src/features/listener/registrationsStore.ts';
import { useAnnouncements } from '../../../src/renderer/src/stores/announcements.ts';
import { useProfilesStore } from '../../../src/renderer/src/stores/profiles.ts';
import { useToastStore } from '../../../src/renderer/src/stores/toasts.ts';
import type { ListenerRegistration } from '../../../src/shared/ipc/domains/listener.ts';
import { installFakeBridge, refuse } from './setup.tsx';

function registration(webhookId: string, event: string): ListenerRegistration {
  return {
    webhookId,
    event,
    url: `http://127.0.0.1:4880/webhooks/${webhookId}`,
    path: `/webhooks/${webhookId}`,
    basicUser: `user_${webhookId}`,
    createdAt: '2026-11-27T06:00:00.000Z',
  };
}

beforeEach(() => {
  useToastStore.setState({ toasts: [] });
  useRegistrationsStore.setState({ registrations: null, loadError: null, removing: null });
  useProfilesStore.setState({
    profiles: [{ id: 'embedded', name: 'Embedded sandbox', production: false }] as never,
    activeProfileId: 'embedded',
  });
});

function screenWithBridge(unregister: (input: unknown) => unknown) {
  let kept = [registration('wh_1', 'ach.update'), registration('wh_2', 'account_application.update')];
  const bridge = installFakeBridge({
    'listener.registrations': () => ({ registrations: kept }),
    'listener.unregister': (input) => {
      const answer = unregister(input);
      kept = kept.filter((row) => row.webhookId !== (input as { webhookId: string }).webhookId);
      return answer;
    },
  });
  render(
    <>
      <ListenerRegistrations />
      <ConfirmHost />
    </>,
  );
  return bridge;
}

describe('ListenerRegistrations', () => {
  it('lists each registration with its event, address and Basic user', async () => {
    screenWithBridge(() => ({ deleted: true, id: 'x' }));
    const list = await screen.findByRole('list', { name: 'Webhooks of this listener' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('ach.update');
    expect(rows[0]?.textContent).toContain('http://127.0.0.1:4880/webhooks/wh_1');
    expect(rows[0]?.textContent).toContain('user user_wh_1');
    expect(rows[1]?.textContent).toContain('account_application.update');
  });

  it('removes one after confirmation: unregister called, announced, list reloaded, focus on the next Remove', async () => {
    const bridge = screenWithBridge((input) => ({ deleted: true, id: (input as { webhookId: string }).webhookId }));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove webhook wh_1 (ach.update)' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('The bank deletes the webhook');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove webhook wh_1 (ach.update)' }));
    await expect.poll(() => screen.queryAllByRole('listitem').length).toBe(1);
    expect(bridge.calls.find((call) => call.channel === 'listener.unregister')?.input).toEqual({
      profileId: 'embedded',
      webhookId: 'wh_1',
    });
    expect(useAnnouncements.getState().text).toBe('Removed webhook wh_1 (ach.update).');
    await expect
      .poll(() => document.activeElement?.getAttribute('aria-label'))
      .toBe('Remove webhook wh_2 (account_application.update)');
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const bridge = screenWithBridge(() => ({ deleted: true, id: 'x' }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Remove webhook wh_2 (account_application.update)' }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(bridge.calls.filter((call) => call.channel === 'listener.unregister')).toHaveLength(0);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('tells a refusal from the bank and keeps the row', async () => {
    screenWithBridge(() => {
      throw refuse('not_found', 'Webhook wh_1 does not exist at the bank.');
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove webhook wh_1 (ach.update)' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /^Remove webhook/ }));
    await expect
      .poll(() => useToastStore.getState().toasts.map((toast) => [toast.tone, toast.title]))
      .toContainEqual(['error', 'Could not remove the webhook']);
    expect(useToastStore.getState().toasts[0]?.body).toContain('does not exist');
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('says when the list cannot be read', async () => {
    installFakeBridge({
      'listener.registrations': () => {
        throw refuse('internal', 'The listener store is unreadable.');
      },
    });
    render(<ListenerRegistrations />);
    expect((await screen.findByRole('alert')).textContent).toContain('unreadable');
  });
});
