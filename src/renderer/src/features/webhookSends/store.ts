/**
 * The webhook send log: filters, the attempts (or the notifications they group into), and
 * for one object the full run of its attempts for the timeline.
 */
import { create } from 'zustand';
import type { WebhookSendResponse, WebhookSendStatus } from '../../../../shared/bank/index.ts';
import type { ApiOutput, WebhookSendGroup } from '../../../../shared/ipc/index.ts';
import type { ReviewFilter } from '../../../../shared/review/reviewTerms.ts';
import { api } from '../../lib/api.ts';
import { cacheSource } from '../../lib/cacheSource.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';
import { useSyncStore } from '../../stores/sync.ts';
import { toast } from '../../stores/toasts.ts';

export interface WebhookSendFilters {
  webhookId: string;
  objectId: string;
  status: WebhookSendStatus | '';
  fromDate: string;
  toDate: string;
  search: string;
  /** The officer's review (of each send, or of each notification in the grouped view); '' for any. */
  review: ReviewFilter | '';
}

/** A cached send as listed, with its ref and review. */
export type CachedWebhookSend = ApiOutput<'webhookSends', 'list'>['rows'][number];

export const NO_SEND_FILTERS: WebhookSendFilters = {
  webhookId: '',
  objectId: '',
  status: '',
  fromDate: '',
  toDate: '',
  search: '',
  review: '',
};

type SendView = 'groups' | 'attempts';

interface TimelineState {
  webhookId: string;
  objectId: string;
  event: string | null;
  attempts: WebhookSendResponse[];
  loading: boolean;
  error: UiError | null;
}

interface WebhookSendsState {
  profileId: string | null;
  filters: WebhookSendFilters;
  view: SendView;
  sends: PagedRows<CachedWebhookSend> | null;
  groups: PagedRows<WebhookSendGroup> | null;
  selected: number | null;
  timeline: TimelineState | null;
  open: (profileId: string) => void;
  setFilters: (patch: Partial<WebhookSendFilters>) => void;
  setView: (view: SendView) => void;
  select: (index: number | null) => void;
  openTimeline: (webhookId: string, objectId: string, event: string | null) => Promise<void>;
  closeTimeline: () => void;
  sync: () => Promise<void>;
  exportCsv: () => Promise<void>;
}

export function sendFilterInput(profileId: string, filters: WebhookSendFilters) {
  return {
    profileId,
    ...(filters.webhookId === '' ? {} : { webhookId: filters.webhookId }),
    ...(filters.objectId.trim() === '' ? {} : { objectId: filters.objectId.trim() }),
    ...(filters.status === '' ? {} : { status: filters.status }),
    ...(filters.fromDate === '' ? {} : { fromDate: filters.fromDate }),
    ...(filters.toDate === '' ? {} : { toDate: filters.toDate }),
    ...(filters.search.trim() === '' ? {} : { search: filters.search.trim() }),
    ...(filters.review === '' ? {} : { review: filters.review }),
  };
}

export const useWebhookSendsStore = create<WebhookSendsState>((set, get) => ({
  profileId: null,
  filters: NO_SEND_FILTERS,
  view: 'attempts',
  sends: null,
  groups: null,
  selected: null,
  timeline: null,
  open(profileId) {
    if (get().profileId === profileId && get().sends !== null) {
      get().setFilters({});
      return;
    }
    set({ profileId, filters: NO_SEND_FILTERS, timeline: null });
    get().setFilters({});
  },
  setFilters(patch) {
    const profileId = get().profileId;
    if (profileId === null) return;
    const filters = { ...get().filters, ...patch };
    const filter = sendFilterInput(profileId, filters);
    get().sends?.close();
    get().groups?.close();
    set({
      filters,
      selected: null,
      sends: cacheSource(
        (page) => api().webhookSends.list({ ...filter, ...page }),
        () => api().webhookSends.count(filter),
        { pageSize: 200 },
      ),
      groups: cacheSource((page) => api().webhookSends.groups({ ...filter, ...page }), undefined, { pageSize: 200 }),
    });
  },
  setView(view) {
    set({ view, selected: null });
  },
  select(selected) {
    set({ selected });
  },
  async openTimeline(webhookId, objectId, event) {
    const profileId = get().profileId;
    if (profileId === null) return;
    set({ timeline: { webhookId, objectId, event, attempts: [], loading: true, error: null } });
    try {
      const page = await api().webhookSends.list({
        profileId,
        webhookId,
        objectId,
        ...(event === null ? {} : { event }),
        sortBy: 'created_at',
        sortDirection: 'asc',
        limit: 1000,
      });
      const current = get().timeline;
      if (current?.objectId !== objectId || current.webhookId !== webhookId) return;
      // Times are to the second: attempts in the same second keep the order of their numbers.
      const attempts = [...page.rows].sort(
        (a, b) =>
          (a.created_at ?? '').localeCompare(b.created_at ?? '') || (a.attempt_number ?? -1) - (b.attempt_number ?? -1),
      );
      set({ timeline: { ...current, attempts, loading: false } });
    } catch (reason) {
      const current = get().timeline;
      if (current !== null) set({ timeline: { ...current, loading: false, error: uiErrorOf(reason) } });
    }
  },
  closeTimeline() {
    set({ timeline: null });
  },
  async sync() {
    const { profileId, filters } = get();
    if (profileId === null) return;
    await useSyncStore.getState().start(profileId, {
      kind: 'webhookSends',
      ...(filters.webhookId === '' ? {} : { webhookId: filters.webhookId }),
      ...(filters.objectId.trim() === '' ? {} : { objectId: filters.objectId.trim() }),
      ...(filters.status === '' ? {} : { status: filters.status }),
    });
  },
  async exportCsv() {
    const { profileId, filters } = get();
    if (profileId === null) return;
    try {
      const saved = await api().exports.webhookSends({ ...sendFilterInput(profileId, filters), format: 'csv' });
      if (saved.saved) toast('success', `Exported ${saved.rows.toLocaleString('en-US')} rows`, saved.path ?? undefined);
    } catch (reason) {
      toast('error', 'Export failed', uiErrorOf(reason).message);
    }
  },
}));
