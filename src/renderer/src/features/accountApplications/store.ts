/** Account applications: the cached list with a status filter, and one application with its history. */
import { create } from 'zustand';
import type { AccountApplicationStatus } from '../../../../shared/bank/index.ts';
import type { AccountApplicationDetail, ApiOutput } from '../../../../shared/ipc/index.ts';
import type { ReviewFilter } from '../../../../shared/review/reviewTerms.ts';
import { api } from '../../lib/api.ts';
import { cacheSource } from '../../lib/cacheSource.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';
import { useSyncStore } from '../../stores/sync.ts';

/** A cached application as listed, with its ref and review. */
export type CachedAccountApplication = ApiOutput<'accountApplications', 'list'>['rows'][number];

interface AccountApplicationsState {
  profileId: string | null;
  status: AccountApplicationStatus | '';
  search: string;
  /** The officer's review filter; '' for any. */
  review: ReviewFilter | '';
  source: PagedRows<CachedAccountApplication> | null;
  selected: number | null;
  detailId: string | null;
  detail: AccountApplicationDetail | null;
  detailLoading: boolean;
  detailError: UiError | null;
  open: (profileId: string) => void;
  setFilters: (patch: { status?: AccountApplicationStatus | ''; search?: string; review?: ReviewFilter | '' }) => void;
  select: (index: number | null) => void;
  showDetail: (id: string) => Promise<void>;
  closeDetail: () => void;
  /** Fetches an application by id from the bank into the cache (a sync job). */
  fetchById: (id: string) => Promise<boolean>;
}

export const useAccountApplicationsStore = create<AccountApplicationsState>((set, get) => ({
  profileId: null,
  status: '',
  search: '',
  review: '',
  source: null,
  selected: null,
  detailId: null,
  detail: null,
  detailLoading: false,
  detailError: null,
  open(profileId) {
    if (get().profileId !== profileId)
      set({ profileId, status: '', search: '', review: '', detailId: null, detail: null });
    get().setFilters({});
  },
  setFilters(patch) {
    const profileId = get().profileId;
    if (profileId === null) return;
    const status = patch.status ?? get().status;
    const search = patch.search ?? get().search;
    const review = patch.review ?? get().review;
    const filter = {
      profileId,
      ...(status === '' ? {} : { status }),
      ...(search.trim() === '' ? {} : { search: search.trim() }),
      ...(review === '' ? {} : { review }),
    };
    get().source?.close();
    set({
      status,
      search,
      review,
      selected: null,
      source: cacheSource(
        (page) => api().accountApplications.list({ ...filter, ...page }),
        () => api().accountApplications.count(filter),
      ),
    });
  },
  select(selected) {
    set({ selected });
  },
  async showDetail(id) {
    const profileId = get().profileId;
    if (profileId === null) return;
    set({ detailId: id, detailLoading: true, detailError: null });
    try {
      const detail = await api().accountApplications.get({ profileId, id });
      if (get().detailId === id) set({ detail, detailLoading: false });
    } catch (reason) {
      if (get().detailId === id) set({ detail: null, detailLoading: false, detailError: uiErrorOf(reason) });
    }
  },
  closeDetail() {
    set({ detailId: null, detail: null, detailError: null });
  },
  async fetchById(id) {
    const profileId = get().profileId;
    if (profileId === null) return false;
    const job = await useSyncStore.getState().start(profileId, { kind: 'accountApplication', id });
    return job !== null;
  },
}));
