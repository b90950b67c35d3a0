/**
 * How each webhook's deliveries are going (issue 27, item 6), as main computes them from the
 * cached send log: asked for the webhooks a screen shows, kept by webhook id. The Webhooks
 * screen and the listener's registrations both read it.
 */
import { create } from 'zustand';
import type { WebhookDeliveryStats } from '../../../../shared/ipc/index.ts';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';

interface DeliveryStatsState {
  profileId: string | null;
  byWebhook: ReadonlyMap<string, WebhookDeliveryStats>;
  /** The window's start (24 hours before it was computed) and the send log's sync time. */
  since: string | null;
  asOf: string | null;
  error: UiError | null;
  load: (profileId: string, webhookIds: readonly string[]) => Promise<void>;
}

export const useDeliveryStatsStore = create<DeliveryStatsState>((set, get) => ({
  profileId: null,
  byWebhook: new Map(),
  since: null,
  asOf: null,
  error: null,
  async load(profileId, webhookIds) {
    if (webhookIds.length === 0) return;
    try {
      const answer = await api().webhookDeliveries.stats({ profileId, webhookIds: [...new Set(webhookIds)] });
      // Figures of other webhooks of the same profile stay: both screens share this store.
      const kept = get().profileId === profileId ? get().byWebhook : new Map<string, WebhookDeliveryStats>();
      const byWebhook = new Map(kept);
      for (const stats of answer.stats) byWebhook.set(stats.webhookId, stats);
      set({ profileId, byWebhook, since: answer.since, asOf: answer.asOf, error: null });
    } catch (reason) {
      set({ error: uiErrorOf(reason) });
    }
  },
}));

/** "75%" of delivered over attempts; null when nothing was attempted in the window. */
export function successRateOf(stats: Pick<WebhookDeliveryStats, 'attempts' | 'delivered'>): string | null {
  if (stats.attempts === 0) return null;
  return `${String(Math.round((100 * stats.delivered) / stats.attempts))}%`;
}
