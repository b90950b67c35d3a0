/** The Overview's figures of the active profile, read from main (aggregates only). */
import { create } from 'zustand';
import type { OverviewData } from '../../../../shared/ipc/domains/overview.ts';
import { api } from '../../lib/api.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';

interface OverviewState {
  profileId: string | null;
  data: OverviewData | null;
  loading: boolean;
  error: UiError | null;
  load: (profileId: string) => Promise<void>;
}

export const useOverviewStore = create<OverviewState>((set, get) => ({
  profileId: null,
  data: null,
  loading: false,
  error: null,
  async load(profileId) {
    if (get().profileId !== profileId) set({ profileId, data: null });
    set({ loading: true, error: null });
    try {
      const data = await api().overview.get({ profileId });
      if (get().profileId === profileId) set({ data, loading: false });
    } catch (reason) {
      if (get().profileId === profileId) set({ loading: false, error: uiErrorOf(reason) });
    }
  },
}));
