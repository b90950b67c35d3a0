/**
 * Pending transactions: the account and filters chosen, the cached rows behind them (a
 * window of pages, never the whole list), the selected row, sync and export.
 */
import { create } from 'zustand';
import type {
  AccountResponse,
  PendingTransactionType,
  PendingTransactionTypeSource,
} from '../../../../shared/bank/index.ts';
import type { ApiOutput } from '../../../../shared/ipc/index.ts';
import type { ReviewFilter } from '../../../../shared/review/reviewTerms.ts';
import { api } from '../../lib/api.ts';
import { cacheSource } from '../../lib/cacheSource.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';
import { useSyncStore } from '../../stores/sync.ts';
import { toast } from '../../stores/toasts.ts';

export type CachedPendingTransaction = ApiOutput<'pendingTransactions', 'list'>['rows'][number];

export interface PendingTransactionFilters {
  accountId: string;
  type: PendingTransactionType | '';
  typeSource: PendingTransactionTypeSource | '';
  fromDate: string;
  toDate: string;
  search: string;
  /** The officer's review: unreviewed, cleared, flagged, escalated, changed; '' for any. */
  review: ReviewFilter | '';
}

const NO_FILTERS: PendingTransactionFilters = {
  accountId: '',
  type: '',
  typeSource: '',
  fromDate: '',
  toDate: '',
  search: '',
  review: '',
};

interface PendingTransactionsState {
  profileId: string | null;
  accounts: AccountResponse[];
  accountsAsOf: string | null;
  accountsError: UiError | null;
  accountsLoading: boolean;
  filters: PendingTransactionFilters;
  source: PagedRows<CachedPendingTransaction> | null;
  selected: number | null;
  drawerOpen: boolean;
  exporting: boolean;
  open: (profileId: string) => Promise<void>;
  setFilters: (patch: Partial<PendingTransactionFilters>) => void;
  /** Reads the same list again (after a sync): its rows stay on screen until the new ones arrive. */
  reload: () => void;
  select: (index: number | null) => void;
  setDrawerOpen: (open: boolean) => void;
  sync: () => Promise<void>;
  exportCsv: () => Promise<void>;
}

/** The filter as the bridge takes it: blanks left out. */
export function filterInput(profileId: string, filters: PendingTransactionFilters) {
  return {
    profileId,
    accountId: filters.accountId,
    ...(filters.type === '' ? {} : { type: filters.type }),
    ...(filters.typeSource === '' ? {} : { typeSource: filters.typeSource }),
    ...(filters.fromDate === '' ? {} : { fromDate: filters.fromDate }),
    ...(filters.toDate === '' ? {} : { toDate: filters.toDate }),
    ...(filters.search.trim() === '' ? {} : { search: filters.search.trim() }),
    ...(filters.review === '' ? {} : { review: filters.review }),
  };
}

/**
 * The account last opened on each profile, remembered as a UI preference (an id, no data): the
 * list opens on it at once from the cache, without waiting for the bank's account list, and
 * offline at start it still opens.
 */
function accountKeyOf(profileId: string): string {
  return `ledgerdesk.lastAccount.${profileId}`;
}

function rememberedAccount(profileId: string): string {
  try {
    return localStorage.getItem(accountKeyOf(profileId)) ?? '';
  } catch {
    return '';
  }
}

function rememberAccount(profileId: string, accountId: string): void {
  try {
    localStorage.setItem(accountKeyOf(profileId), accountId);
  } catch {
    // A preference: without storage the list simply waits for the account list.
  }
}

function sourceOf(
  profileId: string,
  filters: PendingTransactionFilters,
  standIn: PagedRows<CachedPendingTransaction> | null = null,
): PagedRows<CachedPendingTransaction> {
  const filter = filterInput(profileId, filters);
  return cacheSource(
    (page) => api().pendingTransactions.list({ ...filter, ...page }),
    () => api().pendingTransactions.count(filter),
    { pageSize: 200, maxPages: 20, standIn },
  );
}

/**
 * Nothing remembered (a new browser, or web mode on a new port: another origin, another
 * storage): the first account with cached rows opens at once, from the cache, instead of
 * waiting for the bank's account list (issue 36: the first rows before any bank answer). The
 * bank's list, when it comes, keeps it if the bank still has it. A cache that cannot answer
 * leaves the wait for the bank's list, which says what is wrong.
 */
async function openCachedAccount(profileId: string): Promise<void> {
  let accountIds: readonly string[];
  try {
    ({ accountIds } = await api().accounts.cached({ profileId }));
  } catch {
    return;
  }
  const state = usePendingTransactionsStore.getState();
  const first = accountIds[0];
  if (first === undefined || state.profileId !== profileId || state.filters.accountId !== '') return;
  state.setFilters({ accountId: first });
}

export const usePendingTransactionsStore = create<PendingTransactionsState>((set, get) => ({
  profileId: null,
  accounts: [],
  accountsAsOf: null,
  accountsError: null,
  accountsLoading: false,
  filters: NO_FILTERS,
  source: null,
  selected: null,
  drawerOpen: false,
  exporting: false,
  async open(profileId) {
    if (get().profileId !== profileId) {
      get().source?.close();
      set({ profileId, accounts: [], filters: NO_FILTERS, source: null, selected: null, drawerOpen: false });
      const remembered = rememberedAccount(profileId);
      if (remembered !== '') get().setFilters({ accountId: remembered });
      else void openCachedAccount(profileId);
    }
    set({ accountsLoading: true, accountsError: null });
    try {
      const answer = await api().accounts.list({ profileId });
      if (get().profileId !== profileId) return;
      set({ accounts: answer.rows, accountsAsOf: answer.asOf, accountsLoading: false });
      const chosen = get().filters.accountId;
      const accountId = answer.rows.some((account) => account.id === chosen) ? chosen : (answer.rows[0]?.id ?? '');
      if (accountId !== '' && (accountId !== chosen || get().source === null)) get().setFilters({ accountId });
    } catch (reason) {
      set({ accountsError: uiErrorOf(reason), accountsLoading: false });
    }
  },
  setFilters(patch) {
    const filters = { ...get().filters, ...patch };
    const profileId = get().profileId;
    get().source?.close();
    if (profileId !== null && filters.accountId !== '') rememberAccount(profileId, filters.accountId);
    // The drawer stays open: the list screen keeps the active row if the new list holds it,
    // and closes the drawer if not (useDrawerFollowsCursor.ts).
    set({
      filters,
      selected: null,
      source: profileId === null || filters.accountId === '' ? null : sourceOf(profileId, filters),
    });
  },
  reload() {
    const { profileId, filters, source } = get();
    if (profileId === null || filters.accountId === '') return;
    source?.close();
    // The active row is carried over; the list screen moves it to where its item now is.
    set({ source: sourceOf(profileId, filters, source) });
  },
  select(selected) {
    set({ selected });
  },
  setDrawerOpen(drawerOpen) {
    set({ drawerOpen });
  },
  async sync() {
    const { profileId, filters } = get();
    if (profileId === null || filters.accountId === '') return;
    await useSyncStore.getState().start(profileId, {
      kind: 'pendingTransactions',
      accountId: filters.accountId,
      ...(filters.fromDate === '' ? {} : { fromDate: filters.fromDate }),
      ...(filters.toDate === '' ? {} : { toDate: filters.toDate }),
    });
  },
  async exportCsv() {
    const { profileId, filters } = get();
    if (profileId === null || filters.accountId === '') return;
    set({ exporting: true });
    try {
      const saved = await api().exports.pendingTransactions({ ...filterInput(profileId, filters), format: 'csv' });
      if (saved.saved) toast('success', `Exported ${saved.rows.toLocaleString('en-US')} rows`, saved.path ?? undefined);
    } catch (reason) {
      toast('error', 'Export failed', sentenceOf(uiErrorOf(reason)));
    } finally {
      set({ exporting: false });
    }
  },
}));
