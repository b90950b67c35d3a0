/**
 * The review queue: every review of the profile (a person's disposition, a rule's flag, a
 * record changed since its review), most recently moved first, by kind and state; and the
 * count of each state per kind, with the items no one has reviewed yet.
 */
import { create } from 'zustand';
import {
  REVIEW_KINDS,
  REVIEW_STATES,
  type ReviewKind,
  type ReviewState,
} from '../../../../shared/review/reviewTerms.ts';
import type { ListedReview } from '../../../../shared/ipc/domains/reviews.ts';
import { api } from '../../lib/api.ts';
import { cacheSource } from '../../lib/cacheSource.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';

export type { ListedReview };

export type StateCounts = Record<ReviewState, number>;

export interface QueueSummary {
  counts: Record<ReviewKind, StateCounts>;
  /** Items no one has reviewed; null where it cannot be said here (pending transactions of no account). */
  unreviewed: Record<ReviewKind, number | null>;
  /** The account whose unreviewed pending transactions are counted. */
  accountId: string | null;
}

export interface QueueFilters {
  kind: ReviewKind | '';
  state: ReviewState | '';
}

interface QueueStoreState {
  profileId: string | null;
  filters: QueueFilters;
  source: PagedRows<ListedReview> | null;
  selected: number | null;
  drawerOpen: boolean;
  summary: QueueSummary | null;
  summaryError: UiError | null;
  /** The report dialog is open (from the screen's button or the palette). */
  reporting: boolean;
  setReporting: (reporting: boolean) => void;
  open: (profileId: string, accountId: string | null) => void;
  setFilters: (patch: Partial<QueueFilters>) => void;
  select: (index: number | null) => void;
  setDrawerOpen: (open: boolean) => void;
  loadSummary: (accountId: string | null) => Promise<void>;
}

export const useQueueStore = create<QueueStoreState>((set, get) => ({
  profileId: null,
  filters: { kind: '', state: 'changed' },
  source: null,
  selected: null,
  drawerOpen: false,
  summary: null,
  summaryError: null,
  reporting: false,
  setReporting(reporting) {
    set({ reporting });
  },
  open(profileId, accountId) {
    if (get().profileId !== profileId) set({ profileId, summary: null, selected: null, drawerOpen: false });
    get().setFilters({});
    void get().loadSummary(accountId);
  },
  setFilters(patch) {
    const profileId = get().profileId;
    if (profileId === null) return;
    const filters = { ...get().filters, ...patch };
    const input = {
      profileId,
      ...(filters.kind === '' ? {} : { kind: filters.kind }),
      ...(filters.state === '' ? {} : { state: filters.state }),
    };
    get().source?.close();
    set({
      filters,
      selected: null,
      drawerOpen: false,
      source: cacheSource(
        (page) => api().reviews.list({ ...input, ...page }),
        async () => {
          const kinds: readonly ReviewKind[] = filters.kind === '' ? REVIEW_KINDS : [filters.kind];
          const states: readonly ReviewState[] = filters.state === '' ? REVIEW_STATES : [filters.state];
          const counts = await Promise.all(kinds.map((kind) => api().reviews.counts({ profileId, kind })));
          let count = 0;
          for (const byState of counts) for (const state of states) count += byState[state];
          return { count };
        },
      ),
    });
  },
  select(selected) {
    set({ selected });
  },
  setDrawerOpen(drawerOpen) {
    set({ drawerOpen });
  },
  async loadSummary(accountId) {
    const profileId = get().profileId;
    if (profileId === null) return;
    try {
      const [counts, applications, sends, pending] = await Promise.all([
        Promise.all(REVIEW_KINDS.map((kind) => api().reviews.counts({ profileId, kind }))),
        api().accountApplications.count({ profileId, review: 'unreviewed' }),
        api().webhookSends.count({ profileId, review: 'unreviewed' }),
        accountId === null
          ? Promise.resolve(null)
          : api().pendingTransactions.count({ profileId, accountId, review: 'unreviewed' }),
      ]);
      if (get().profileId !== profileId) return;
      set({
        summaryError: null,
        summary: {
          counts: Object.fromEntries(REVIEW_KINDS.map((kind, index) => [kind, counts[index]])) as Record<
            ReviewKind,
            StateCounts
          >,
          unreviewed: {
            'pending-transaction': pending?.count ?? null,
            application: applications.count,
            'webhook-send': sends.count,
          },
          accountId,
        },
      });
    } catch (reason) {
      set({ summaryError: uiErrorOf(reason) });
    }
  },
}));
