/**
 * The listener's header and lists (issue 27, item 6), in the renderer: the events multi-select
 * (keyboard, each change said, Escape returns focus), registering the chosen events in one call
 * (said, refusals of some told apart), the registrations' delivery figures from
 * webhookDeliveries.stats, and the trigger result's per-notification reach.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ListenerRegistrations } from '../../../src/renderer/src/features/listener/ListenerRegistrations.tsx';
import { RegisterEventsPicker } from '../../../src/renderer/src/features/listener/RegisterEventsPicker.tsx';
import { useRegistrationsStore } from '../../../src/renderer/src/features/listener/registrationsStore.ts';
import { registeredSentence, useListenerStore } from '../../../src/renderer/src/features/listener/store.ts';
import { useDeliveryStatsStore } from '../../../src/renderer/src/features/webhooks/deliveryStatsStore.ts';
import { useNotificationReach } from '../../../src/renderer/src/features/listener/notificationReach.ts';
import { reachSentence } from '../../../src/renderer/src/features/listener/notificationReach.ts';
import type { NotificationReach } from '../../../src/shared/ipc/domains/listener.ts';
import { useAnnouncements } from '../../../src/renderer/src/stores/announcements.ts';
import { useProfilesStore } from '../../../src/renderer/src/stores/profiles.ts';
import { useToastStore } from '../../../src/renderer/src/stores/toasts.ts';
import type { WebhookDeliveryStats } from '../../../src/shared/ipc/domains/webhookDeliveries.ts';
import { installFakeBridge } from './setup.tsx';

beforeEach(() => {
  useToastStore.setState({ toasts: [] });
  useRegistrationsStore.setState({ registrations: null, loadError: null, removing: null });
  useDeliveryStatsStore.setState({ profileId: null, byWebhook: new Map(), since: null, asOf: null, error: null });
  useProfilesStore.setState({
    profiles: [{ id: 'embedded', name: 'Embedded sandbox', production: false }] as never,
    activeProfileId: 'embedded',
  });
});

function Picker({ onChosen }: { onChosen: (events: string[]) => void }) {
  const [chosen, setChosen] = useState<string[]>(['ach.update']);
  return (
    <>
      <RegisterEventsPicker
        chosen={chosen}
        onChange={(events) => {
          setChosen(events);
          onChosen(events);
        }}
      />
      <button type="button">after</button>
    </>
  );
}

describe('RegisterEventsPicker', () => {
  it('opens by keyboard, ticks with Space (said), keeps the catalog order, closes on Escape back to its button', async () => {
    const seen: string[][] = [];
    render(<Picker onChosen={(events) => seen.push(events)} />);
    const toggle = screen.getByRole('button', { name: 'Events: ach.update' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const group = screen.getByRole('group', { name: 'Events to register' });
    // Focus moves into the list, on its first event.
    expect(document.activeElement).toBe(within(group).getByRole('checkbox', { name: 'account.create' }));
    within(group).getByRole('checkbox', { name: 'account.update' }).focus();
    await userEvent.keyboard(' ');
    expect(seen.at(-1)).toEqual(['account.update', 'ach.update']);
    expect(useAnnouncements.getState().text).toBe('account.update chosen: 2 events to register.');
    within(group).getByRole('checkbox', { name: 'ach.update' }).focus();
    await userEvent.keyboard(' ');
    expect(seen.at(-1)).toEqual(['account.update']);
    expect(useAnnouncements.getState().text).toBe('ach.update left out: 1 event to register.');
    // Events only the real service sends are offered too, each said to be so.
    const realOnly = within(group).getByRole('checkbox', { name: 'incoming_ach.create' });
    const described = document.getElementById(realOnly.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Sent by the real service only: the sandbox bank never sends it.');
    expect(within(group).getByRole('checkbox', { name: 'ach.update' }).hasAttribute('aria-describedby')).toBe(false);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Events to register' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
    expect(toggle.textContent).toBe('Events: account.update');
  });
});

describe('registering several events', () => {
  it('sends the chosen events in one call, says what was registered and tells a refused event apart', async () => {
    const bridge = installFakeBridge({
      'listener.register': () => ({
        webhook: webhookOf('wh_1', 'ach.create'),
        webhooks: [webhookOf('wh_1', 'ach.create')],
        failed: [{ event: 'ach.update', message: 'The bank refused it.' }],
        listenerUrl: 'http://127.0.0.1:4880/webhooks/x',
      }),
      'listener.getConfig': () => {
        throw new Error('not needed');
      },
      'listener.registrations': () => ({ registrations: [] }),
    });
    const registered = await useListenerStore.getState().register('embedded', ['ach.create', 'ach.update']);
    expect(registered).toBe(true);
    expect(bridge.calls.find((call) => call.channel === 'listener.register')?.input).toEqual({
      profileId: 'embedded',
      events: ['ach.create', 'ach.update'],
    });
    expect(useAnnouncements.getState().text).toBe(
      // The webhook's own address, which the bank posts to.
      'Registered 1 webhook posting to http://127.0.0.1:4880/webhooks/wh_1: ach.create (wh_1).',
    );
    const toasts = useToastStore.getState().toasts.map((toast) => `${toast.title}: ${toast.body ?? ''}`);
    expect(toasts).toContainEqual('Not registered: ach.update: ach.update: The bank refused it.');
  });

  it('names every webhook it made with its own address', () => {
    expect(
      registeredSentence(
        [
          { id: 'wh_1', event: 'ach.create', url: 'http://127.0.0.1:4880/webhooks/a' },
          { id: 'wh_2', event: 'ach.update', url: 'http://127.0.0.1:4880/webhooks/b' },
        ],
        'http://127.0.0.1:4880',
      ),
    ).toBe(
      'Registered 2 webhooks: ach.create (wh_1) posting to http://127.0.0.1:4880/webhooks/a, ach.update (wh_2) posting to http://127.0.0.1:4880/webhooks/b.',
    );
    expect(
      registeredSentence(
        [
          { id: 'wh_1', event: 'ach.create', url: 'http://127.0.0.1:4880/' },
          { id: 'wh_2', event: 'ach.update', url: 'http://127.0.0.1:4880/' },
        ],
        'http://127.0.0.1:4880',
      ),
    ).toBe('Registered 2 webhooks posting to http://127.0.0.1:4880/: ach.create (wh_1), ach.update (wh_2).');
  });

  it('sends nothing without a chosen event', async () => {
    const bridge = installFakeBridge({});
    expect(await useListenerStore.getState().register('embedded', [])).toBe(false);
    expect(bridge.calls).toEqual([]);
    expect(useToastStore.getState().toasts[0]?.title).toBe('Choose an event first');
  });
});

function webhookOf(id: string, event: string) {
  return {
    id,
    event,
    url: `http://127.0.0.1:4880/webhooks/${id}`,
    status: 'enabled',
    error: null,
    basic_user: 'u',
    basic_secret: null,
    userdata: null,
    created_at: '2026-11-27T06:00:00Z',
    updated_at: '2026-11-27T06:00:00Z',
  };
}

describe('the registrations’ delivery figures', () => {
  it('shows status, success rate, retries, what is still retrying and the last attempt, from main’s figures', async () => {
    const stats: WebhookDeliveryStats = {
      webhookId: 'wh_1',
      webhookStatus: 'enabled',
      lastAttempt: { at: '2026-11-27T08:00:00Z', status: 'error', attemptNumber: 2, willRetry: true },
      attempts: 4,
      delivered: 3,
      retries: 2,
      retrying: 1,
      retryingSince: '2026-11-27T08:00:00Z',
    };
    const bridge = installFakeBridge({
      'listener.registrations': () => ({
        registrations: [
          {
            webhookId: 'wh_1',
            event: 'ach.update',
            url: 'http://127.0.0.1:4880/webhooks/a',
            path: '/webhooks/a',
            basicUser: 'u',
            createdAt: '2026-11-27T06:00:00.000Z',
          },
        ],
      }),
      'webhookDeliveries.stats': () => ({
        stats: [stats],
        since: '2026-11-26T09:00:00Z',
        asOf: '2026-11-27T09:00:00Z',
      }),
    });
    render(<ListenerRegistrations />);
    const row = (await screen.findAllByRole('listitem'))[0];
    await expect.poll(() => row?.textContent ?? '').toContain('75% delivered');
    const text = row?.textContent ?? '';
    expect(text).toContain('enabled');
    expect(text).toContain('(3 of 4 attempts, 24 h)');
    expect(text).toContain('2 retries in 24 h');
    expect(text).toContain('1 notification retrying');
    expect(text).toContain('Last attempt error at');
    expect(text).toContain('(retry 2)');
    expect(bridge.calls.find((call) => call.channel === 'webhookDeliveries.stats')?.input).toEqual({
      profileId: 'embedded',
      webhookIds: ['wh_1'],
    });
    expect(within(row as HTMLElement).getByRole('button', { name: 'Send log of webhook wh_1' })).toBeTruthy();
  });

  it('keeps the list when the figures cannot be read, and says why', async () => {
    installFakeBridge({
      'listener.registrations': () => ({
        registrations: [
          {
            webhookId: 'wh_1',
            event: 'ach.update',
            url: 'http://127.0.0.1:4880/webhooks/a',
            path: '/webhooks/a',
            basicUser: 'u',
            createdAt: '2026-11-27T06:00:00.000Z',
          },
        ],
      }),
    });
    render(<ListenerRegistrations />);
    expect(await screen.findByText(/Delivery figures are not available/)).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });
});

function ReachProbe({ notifications }: { notifications: { event: string; id: string }[] }) {
  const reach = useNotificationReach('embedded', '2026-11-27T08:00:00.000Z', notifications);
  return (
    <ul aria-label="reach">
      {notifications.map((notification) => {
        const where = reach.byNotification.get(`${notification.event}\u0000${notification.id}`);
        return <li key={notification.id}>{where === undefined ? 'checking' : reachSentence(where)}</li>;
      })}
    </ul>
  );
}

describe('whether a trigger’s notifications reached the listener', () => {
  it('says not yet, then reached (verified) once the listener has it, announced once; and no webhook subscribed', async () => {
    let arrived = false;
    const answer = (event: string, objectId: string): NotificationReach => {
      if (event === 'card.update') {
        return {
          event,
          objectId,
          state: 'no_webhook',
          subscribed: 0,
          toListener: 0,
          requestId: null,
          receivedAt: null,
          verdict: null,
        };
      }
      return arrived
        ? {
            event,
            objectId,
            state: 'reached',
            subscribed: 1,
            toListener: 1,
            requestId: '7',
            receivedAt: '2026-11-27T08:00:01.000Z',
            verdict: 'ok',
          }
        : {
            event,
            objectId,
            state: 'not_yet',
            subscribed: 1,
            toListener: 1,
            requestId: null,
            receivedAt: null,
            verdict: null,
          };
    };
    const bridge = installFakeBridge({
      'listener.reach': (input) => ({
        notifications: (input as { notifications: { event: string; objectId: string }[] }).notifications.map((entry) =>
          answer(entry.event, entry.objectId),
        ),
      }),
    });
    render(
      <ReachProbe
        notifications={[
          { event: 'ach.update', id: 'ach_1' },
          { event: 'card.update', id: 'card_1' },
        ]}
      />,
    );
    const list = screen.getByRole('list', { name: 'reach' });
    await expect.poll(() => list.textContent).toBe('not yetno webhook subscribed');
    arrived = true;
    await expect.poll(() => list.textContent, { timeout: 5000 }).toBe('reached, verifiedno webhook subscribed');
    expect(useAnnouncements.getState().text).toBe('ach.update ach_1 reached, verified.');
    const asked = bridge.calls.filter((call) => call.channel === 'listener.reach');
    expect(asked[0]?.input).toEqual({
      profileId: 'embedded',
      since: '2026-11-27T08:00:00.000Z',
      notifications: [
        { event: 'ach.update', objectId: 'ach_1' },
        { event: 'card.update', objectId: 'card_1' },
      ],
    });
    // Nothing left to wait for: it stops asking.
    const count = asked.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(bridge.calls.filter((call) => call.channel === 'listener.reach').length).toBe(count);
  });
});
