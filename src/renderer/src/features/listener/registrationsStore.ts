/**
 * The webhooks registered with the listener (issue 27, item 6): loaded from the listener's own
 * list with each one's delivery figures (main's, from the active profile's send log), each
 * removable at the bank (confirmed, audited in main as webhook.unregister).
 */
import { create } from 'zustand';
import type { ListenerRegistration } from '../../../../shared/ipc/domains/listener.ts';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { announce } from '../../stores/announcements.ts';
import { confirmWrite } from '../../stores/confirm.ts';
import { toast } from '../../stores/toasts.ts';
import { useDeliveryStatsStore } from '../webhooks/deliveryStatsStore.ts';

interface RegistrationsState {
  registrations: ListenerRegistration[] | null;
  loadError: UiError | null;
  /** The webhook being removed, so its button shows it is busy. */
  removing: string | null;
  /** Reads the list; with a profile, also each registration's delivery figures from its send log. */
  load: (profileId?: string | null) => Promise<void>;
  /** True when the webhook was removed; false when cancelled or refused (told in a toast). */
  remove: (profileId: string, registration: ListenerRegistration) => Promise<boolean>;
}

export const useRegistrationsStore = create<RegistrationsState>((set, get) => ({
  registrations: null,
  loadError: null,
  removing: null,
  async load(profileId = null) {
    try {
      const { registrations } = await api().listener.registrations();
      set({ registrations, loadError: null });
      if (profileId !== null) {
        await useDeliveryStatsStore.getState().load(
          profileId,
          registrations.map((registration) => registration.webhookId),
        );
      }
    } catch (reason) {
      set({ loadError: uiErrorOf(reason) });
    }
  },
  async remove(profileId, registration) {
    const confirmation = await confirmWrite(`Remove webhook ${registration.webhookId} (${registration.event})`, {
      alwaysAsk: true,
      danger: true,
      detail: 'The bank deletes the webhook and stops sending it; the requests the listener kept stay.',
    });
    if (confirmation === null) return false;
    set({ removing: registration.webhookId });
    try {
      await api().listener.unregister({ profileId, webhookId: registration.webhookId, ...confirmation });
      const message = `Removed webhook ${registration.webhookId} (${registration.event}).`;
      announce(message);
      toast('success', 'Webhook removed', message);
      await get().load(profileId);
      return true;
    } catch (reason) {
      toast('error', 'Could not remove the webhook', sentenceOf(uiErrorOf(reason)));
      return false;
    } finally {
      set({ removing: null });
    }
  },
}));
