/** The Overview's figures of the active profile, read from main (aggregates only). */
import { create } from 'zustand';
import type { OverviewData } from '../../../../shared/ipc/domains/overview.ts';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';

/** The dates of the volume by day: null for the 30 latest with records, else both ends (included). */
export type PendingWindow = { from: string; to: string } | null;

interface OverviewState {
  profileId: string | null;
  data: OverviewData | null;
  loading: boolean;
  error: UiError | null;
  /** The officer's choice of dates for the volume by day (kept while the app runs). */
  pendingWindow: PendingWindow;
  load: (profileId: string) => Promise<void>;
  choosePendingWindow: (window: PendingWindow) => Promise<void>;
}

export const useOverviewStore = create<OverviewState>((set, get) => ({
  profileId: null,
  data: null,
  loading: false,
  error: null,
  pendingWindow: null,
  async load(profileId) {
    if (get().profileId !== profileId) set({ profileId, data: null, pendingWindow: null });
    set({ loading: true, error: null });
    const window = get().pendingWindow;
    try {
      const data = await api().overview.get({ profileId, ...(window === null ? {} : { pendingWindow: window }) });
      if (get().profileId === profileId && get().pendingWindow === window) set({ data, loading: false });
    } catch (reason) {
      if (get().profileId === profileId) set({ loading: false, error: uiErrorOf(reason) });
    }
  },
  async choosePendingWindow(pendingWindow) {
    set({ pendingWindow });
    const profileId = get().profileId;
    if (profileId !== null) await get().load(profileId);
  },
}));
