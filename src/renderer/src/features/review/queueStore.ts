/**
 * The officer's one queue: every item of the profile waiting for a person, across every
 * account and kind, in parts (changed, flagged by a person, flagged by a rule, escalated,
 * unreviewed, cleared), with the counts of each part by kind and by account. The queue opens
 * on the first part holding items (changed and flagged first), never on an empty part while
 * items wait; a part asked for by name (the palette, a count) is kept even when empty.
 */
import { create } from 'zustand';
import { centsOfTyped } from '../../../../shared/review/amountInput.ts';
import type { QueueState } from '../../../../shared/review/queueTerms.ts';
import type { ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import type { InputOf, QueueCounts, QueueItem } from '../../../../shared/ipc/index.ts';
import { api } from '../../lib/api.ts';
import { cacheSource } from '../../lib/cacheSource.ts';
import { uiErrorOf, type UiError } from '../../lib/errors.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';

export type { QueueCounts, QueueItem };

export interface QueueFilters {
  /** The part shown; null until the counts say where items wait. */
  state: QueueState | null;
  kind: ReviewKind | '';
  accountId: string;
  ruleName: string;
  fromDate: string;
  toDate: string;
  /** As typed (e.g. "1,000"); compared with the absolute amount. */
  minAmount: string;
  maxAmount: string;
}

export const EMPTY_FILTERS: QueueFilters = {
  state: null,
  kind: '',
  accountId: '',
  ruleName: '',
  fromDate: '',
  toDate: '',
  minAmount: '',
  maxAmount: '',
};

interface QueueStoreState {
  profileId: string | null;
  filters: QueueFilters;
  source: PagedRows<QueueItem> | null;
  selected: number | null;
  drawerOpen: boolean;
  summary: QueueCounts | null;
  summaryError: UiError | null;
  /** What an amount filter could not read ("ten"): shown beside the field, the filter left out. */
  amountProblem: string | null;
  /** The part shown was asked for by name (the palette): kept when the screen opens, even empty. */
  askedByName: boolean;
  /** The report dialog is open (from the screen's button or the palette). */
  reporting: boolean;
  /** Shows a part by name, opening the screen on it (the palette). */
  ask: (state: QueueState) => void;
  setReporting: (reporting: boolean) => void;
  open: (profileId: string) => void;
  /** Changes filters; a `state` given is kept even when its part is empty (asked for by name). */
  setFilters: (patch: Partial<QueueFilters>) => void;
  /** Counts again (after dispositions); the part shown stays. */
  recount: () => Promise<void>;
  select: (index: number | null) => void;
  setDrawerOpen: (open: boolean) => void;
}

type CountsInput = InputOf<'reviewQueue', 'counts'>;

/** The filters as the queue's input, and what an amount field could not read. */
function queueInput(profileId: string, filters: QueueFilters): { input: CountsInput; problem: string | null } {
  const problems: string[] = [];
  const cents = (text: string, name: string): number | undefined => {
    if (text.trim() === '') return undefined;
    const value = centsOfTyped(text);
    if (value === null) problems.push(`${name} "${text}" is not an amount: type one like 1,000.00.`);
    return value ?? undefined;
  };
  const minAmountCents = cents(filters.minAmount, 'Smallest amount');
  const maxAmountCents = cents(filters.maxAmount, 'Largest amount');
  if (minAmountCents !== undefined && maxAmountCents !== undefined && minAmountCents > maxAmountCents) {
    problems.push('The smallest amount is larger than the largest: swap them.');
  }
  const swapped = problems.length > 0 && minAmountCents !== undefined && maxAmountCents !== undefined;
  return {
    input: {
      profileId,
      ...(filters.kind === '' ? {} : { kind: filters.kind }),
      ...(filters.accountId === '' ? {} : { accountId: filters.accountId }),
      ...(filters.ruleName === '' ? {} : { ruleName: filters.ruleName }),
      ...(filters.fromDate === '' ? {} : { fromDate: filters.fromDate }),
      ...(filters.toDate === '' ? {} : { toDate: filters.toDate }),
      ...(minAmountCents === undefined || swapped ? {} : { minAmountCents }),
      ...(maxAmountCents === undefined || swapped ? {} : { maxAmountCents }),
    },
    problem: problems.length === 0 ? null : problems.join(' '),
  };
}

export const useQueueStore = create<QueueStoreState>((set, get) => {
  /** Reads the counts, chooses the part when none is chosen (or the chosen one emptied), then the page. */
  async function load(keepState: boolean): Promise<void> {
    const profileId = get().profileId;
    if (profileId === null) return;
    const asked = get().filters;
    const { input, problem } = queueInput(profileId, asked);
    set({ amountProblem: problem });
    let summary: QueueCounts | null = null;
    try {
      summary = await api().reviewQueue.counts(input);
      set({ summary, summaryError: null });
    } catch (reason) {
      set({ summaryError: uiErrorOf(reason) });
    }
    if (get().profileId !== profileId || get().filters !== asked) return;
    let state = asked.state;
    if (
      summary !== null &&
      (state === null || (!keepState && summary.states[state] === 0 && summary.openOn !== null))
    ) {
      state = summary.openOn ?? 'unreviewed';
    }
    const filters = { ...asked, state: state ?? 'unreviewed' };
    const part = filters.state;
    get().source?.close();
    set({
      filters,
      selected: null,
      drawerOpen: false,
      source: cacheSource(
        (page) => api().reviewQueue.list({ ...input, state: part, ...page }),
        () => Promise.resolve({ count: summary?.states[part] ?? 0 }),
      ),
    });
  }

  return {
    profileId: null,
    filters: EMPTY_FILTERS,
    source: null,
    selected: null,
    drawerOpen: false,
    summary: null,
    summaryError: null,
    amountProblem: null,
    askedByName: false,
    reporting: false,
    ask(state) {
      set({ filters: { ...EMPTY_FILTERS, state }, askedByName: true });
      if (get().profileId !== null && get().source !== null) void load(true);
    },
    setReporting(reporting) {
      set({ reporting });
    },
    open(profileId) {
      if (get().profileId !== profileId) {
        set({
          profileId,
          summary: null,
          selected: null,
          drawerOpen: false,
          filters: { ...get().filters, state: null },
        });
      }
      // A part asked for by name before the screen opened (the palette) is kept.
      const keep = get().askedByName;
      set({ askedByName: false });
      void load(keep);
    },
    setFilters(patch) {
      set({ filters: { ...get().filters, ...patch } });
      void load(patch.state !== undefined);
    },
    async recount() {
      const profileId = get().profileId;
      if (profileId === null) return;
      try {
        const summary = await api().reviewQueue.counts(queueInput(profileId, get().filters).input);
        if (get().profileId === profileId) set({ summary, summaryError: null });
      } catch (reason) {
        set({ summaryError: uiErrorOf(reason) });
      }
    },
    select(selected) {
      set({ selected });
    },
    setDrawerOpen(drawerOpen) {
      set({ drawerOpen });
    },
  };
});
