/** Webhooks of the active profile: the cached list, and create, enable, disable, delete. */
import { create } from 'zustand';
import {
  shownField,
  type WebhookResponse,
  type WebhookCreateRequest,
  type WebhookStatus,
} from '../../../../shared/bank/index.ts';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import { confirmWrite } from '../../stores/confirm.ts';
import { useSyncStore } from '../../stores/sync.ts';
import { toast } from '../../stores/toasts.ts';

interface WebhooksState {
  profileId: string | null;
  rows: WebhookResponse[];
  asOf: string | null;
  loading: boolean;
  error: UiError | null;
  status: WebhookStatus | '';
  busyId: string | null;
  load: (profileId: string) => Promise<void>;
  setStatus: (status: WebhookStatus | '') => void;
  refresh: () => Promise<void>;
  /** Resolves with the webhook, or throws the bridge's error (for the form to place). */
  create: (request: WebhookCreateRequest, options?: { allowHttp: boolean }) => Promise<WebhookResponse | null>;
  setEnabled: (webhook: WebhookResponse, enabled: boolean) => Promise<void>;
  remove: (webhook: WebhookResponse) => Promise<void>;
}

export const useWebhooksStore = create<WebhooksState>((set, get) => ({
  profileId: null,
  rows: [],
  asOf: null,
  loading: false,
  error: null,
  status: '',
  busyId: null,
  async load(profileId) {
    set({ profileId, loading: true, error: null });
    try {
      const status = get().status;
      const page = await api().webhooks.list({ profileId, limit: 1000, ...(status === '' ? {} : { status }) });
      if (get().profileId !== profileId) return;
      set({ rows: page.rows, asOf: page.asOf, loading: false });
    } catch (reason) {
      set({ error: uiErrorOf(reason), loading: false });
    }
  },
  setStatus(status) {
    set({ status });
    const profileId = get().profileId;
    if (profileId !== null) void get().load(profileId);
  },
  async refresh() {
    const profileId = get().profileId;
    if (profileId === null) return;
    // The list, then the send log its delivery figures are computed from.
    await useSyncStore.getState().start(profileId, { kind: 'webhooks' });
    await useSyncStore.getState().start(profileId, { kind: 'webhookSends' });
  },
  async create(request, options) {
    const profileId = get().profileId;
    if (profileId === null) return null;
    const confirmation = await confirmWrite(`Create a webhook for ${request.event}`);
    if (confirmation === null) return null;
    const webhook = await api().webhooks.create({
      profileId,
      request,
      ...confirmation,
      ...(options?.allowHttp === true ? { allowHttp: true } : {}),
    });
    toast('success', 'Webhook created', `${shownField(webhook.event)} → ${shownField(webhook.url)}`);
    await get().load(profileId);
    return webhook;
  },
  async setEnabled(webhook, enabled) {
    const profileId = get().profileId;
    if (profileId === null) return;
    const verb = enabled ? (webhook.status === 'error' ? 'Re-enable' : 'Enable') : 'Disable';
    const confirmation = await confirmWrite(`${verb} the webhook ${webhook.id}`);
    if (confirmation === null) return;
    set({ busyId: webhook.id });
    try {
      await api().webhooks.update({
        profileId,
        id: webhook.id,
        changes: { status: enabled ? 'enabled' : 'disabled' },
        ...confirmation,
      });
      toast('success', `Webhook ${enabled ? 'enabled' : 'disabled'}`, webhook.url ?? webhook.id);
      await get().load(profileId);
    } catch (reason) {
      toast('error', `Could not ${verb.toLowerCase()} the webhook`, uiErrorOf(reason).message);
    } finally {
      set({ busyId: null });
    }
  },
  async remove(webhook) {
    const profileId = get().profileId;
    if (profileId === null) return;
    const confirmation = await confirmWrite('Delete the webhook', {
      alwaysAsk: true,
      danger: true,
      detail: `${shownField(webhook.event)} → ${shownField(webhook.url)} stops receiving notifications.`,
    });
    if (confirmation === null) return;
    set({ busyId: webhook.id });
    try {
      await api().webhooks.delete({ profileId, id: webhook.id, ...confirmation });
      toast('success', 'Webhook deleted', webhook.url ?? webhook.id);
      await get().load(profileId);
    } catch (reason) {
      toast('error', 'Could not delete the webhook', uiErrorOf(reason).message);
    } finally {
      set({ busyId: null });
    }
  },
}));
