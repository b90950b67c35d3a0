/** Account applications: the cached list with a status filter, and one application with its history. */
import { create } from 'zustand';
import type { AccountApplicationStatus, OwnershipType } from '../../../../shared/bank/index.ts';
import type { AccountApplicationDetail, ApiOutput } from '../../../../shared/ipc/index.ts';
import type { ReviewFilter } from '../../../../shared/review/reviewTerms.ts';
import { api } from '../../lib/api.ts';
import { cacheSource } from '../../lib/cacheSource.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';
import { useSyncStore } from '../../stores/sync.ts';

/** A cached application as listed, with its ref and review. */
export type CachedAccountApplication = ApiOutput<'accountApplications', 'list'>['rows'][number];

interface ApplicationFilterPatch {
  status?: AccountApplicationStatus | '';
  ownershipType?: OwnershipType | '';
  accountProductId?: string;
  fromDate?: string;
  toDate?: string;
  search?: string;
  review?: ReviewFilter | '';
}

interface AccountApplicationsState {
  profileId: string | null;
  status: AccountApplicationStatus | '';
  ownershipType: OwnershipType | '';
  /** The account product id; '' for any. */
  accountProductId: string;
  /** Created from (inclusive) and to (exclusive), YYYY-MM-DD; '' for no bound. */
  fromDate: string;
  toDate: string;
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
  setFilters: (patch: ApplicationFilterPatch) => void;
  select: (index: number | null) => void;
  showDetail: (id: string) => Promise<void>;
  closeDetail: () => void;
  /** Fetches an application by id from the bank into the cache (a sync job). */
  fetchById: (id: string) => Promise<boolean>;
  /** Syncs the whole application book with its applicants (a sync job). */
  syncBook: () => Promise<boolean>;
}

export const useAccountApplicationsStore = create<AccountApplicationsState>((set, get) => ({
  profileId: null,
  status: '',
  ownershipType: '',
  accountProductId: '',
  fromDate: '',
  toDate: '',
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
      set({
        profileId,
        status: '',
        ownershipType: '',
        accountProductId: '',
        fromDate: '',
        toDate: '',
        search: '',
        review: '',
        detailId: null,
        detail: null,
      });
    get().setFilters({});
  },
  setFilters(patch) {
    const profileId = get().profileId;
    if (profileId === null) return;
    const status = patch.status ?? get().status;
    const search = patch.search ?? get().search;
    const review = patch.review ?? get().review;
    const ownershipType = patch.ownershipType ?? get().ownershipType;
    const accountProductId = (patch.accountProductId ?? get().accountProductId).trim();
    const fromDate = patch.fromDate ?? get().fromDate;
    const toDate = patch.toDate ?? get().toDate;
    const filter = {
      profileId,
      ...(status === '' ? {} : { status }),
      ...(ownershipType === '' ? {} : { ownershipType }),
      ...(accountProductId === '' ? {} : { accountProductId }),
      ...(fromDate === '' ? {} : { fromDate }),
      ...(toDate === '' ? {} : { toDate }),
      ...(search.trim() === '' ? {} : { search: search.trim() }),
      ...(review === '' ? {} : { review }),
    };
    get().source?.close();
    set({
      status,
      ownershipType,
      accountProductId,
      fromDate,
      toDate,
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
  async syncBook() {
    const profileId = get().profileId;
    if (profileId === null) return false;
    const job = await useSyncStore.getState().start(profileId, { kind: 'applications' });
    return job !== null;
  },
}));
