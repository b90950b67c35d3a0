/**
 * The review extension of each list screen, wired to that screen's store: its rows' refs,
 * its review filter (kept with its other filters, so the list is read in SQL with it), and
 * the count behind each review state with the other filters as they are.
 */
import { useCallback, useMemo } from 'react';
import { notificationRef, type ReviewFilter } from '../../../../shared/review/reviewTerms.ts';
import type { WebhookSendGroup } from '../../../../shared/ipc/index.ts';
import type { ListExtension } from '../../components/list/ListScreen.tsx';
import { api } from '../../lib/api.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { useAccountApplicationsStore, type CachedAccountApplication } from '../accountApplications/store.ts';
import {
  filterInput,
  usePendingTransactionsStore,
  type CachedPendingTransaction,
} from '../pendingTransactions/store.ts';
import { sendFilterInput, useWebhookSendsStore, type CachedWebhookSend } from '../webhookSends/store.ts';
import { useReviewExtension } from './useReviewExtension.tsx';
import type { ReviewSummary } from './reviewWords.ts';

type Reviewed = { ref?: string | undefined; review?: ReviewSummary | null | undefined };

const refOf = (row: Reviewed): string | undefined => row.ref;
const readOf = (row: Reviewed): ReviewSummary | null | undefined => row.review;
/** A notification's ref is built from its parts when the row does not carry one. */
const groupRefOf = (row: WebhookSendGroup): string =>
  row.ref ?? notificationRef(row.webhookId, row.objectId, row.event);

export function usePendingTransactionsReview(): ListExtension<CachedPendingTransaction> {
  const profileId = useActiveProfileId();
  const { filters, setFilters, source, select } = usePendingTransactionsStore();
  const onChange = useCallback(
    (review: ReviewFilter | '') => {
      setFilters({ review });
    },
    [setFilters],
  );
  const filter = useMemo(
    () => ({
      value: filters.review,
      onChange,
      count: async (review: ReviewFilter) => {
        if (profileId === null || filters.accountId === '') return 0;
        const input = { ...filterInput(profileId, { ...filters, review: '' }), review };
        return (await api().pendingTransactions.count(input)).count;
      },
    }),
    [filters, onChange, profileId],
  );
  return useReviewExtension({
    profileId,
    kind: 'pending-transaction',
    source,
    refOf,
    readOf,
    onActivate: select,
    filter,
  });
}

export function useAccountApplicationsReview(): ListExtension<CachedAccountApplication> {
  const profileId = useActiveProfileId();
  const { review, status, search, setFilters, source, select } = useAccountApplicationsStore();
  const onChange = useCallback(
    (next: ReviewFilter | '') => {
      setFilters({ review: next });
    },
    [setFilters],
  );
  const filter = useMemo(
    () => ({
      value: review,
      onChange,
      count: async (state: ReviewFilter) => {
        if (profileId === null) return 0;
        const input = {
          profileId,
          review: state,
          ...(status === '' ? {} : { status }),
          ...(search.trim() === '' ? {} : { search: search.trim() }),
        };
        return (await api().accountApplications.count(input)).count;
      },
    }),
    [review, onChange, profileId, status, search],
  );
  return useReviewExtension({
    profileId,
    kind: 'application',
    source,
    refOf,
    readOf,
    onActivate: select,
    filter,
  });
}

/** The send log's two views: each attempt, or each notification's group of attempts. */
export function useWebhookSendsReview(): {
  attempts: ListExtension<CachedWebhookSend>;
  notifications: ListExtension<WebhookSendGroup>;
} {
  const profileId = useActiveProfileId();
  const { filters, setFilters, sends, groups, select, view } = useWebhookSendsStore();
  const onChange = useCallback(
    (review: ReviewFilter | '') => {
      setFilters({ review });
    },
    [setFilters],
  );
  const attemptsFilter = useMemo(
    () => ({
      value: filters.review,
      onChange,
      count: async (review: ReviewFilter) => {
        if (profileId === null) return 0;
        const input = { ...sendFilterInput(profileId, { ...filters, review: '' }), review };
        return (await api().webhookSends.count(input)).count;
      },
    }),
    [filters, onChange, profileId],
  );
  // Groups have no count behind a filter: the walk that finds them pages without one.
  const groupsFilter = useMemo(() => ({ value: filters.review, onChange }), [filters.review, onChange]);
  const attempts = useReviewExtension<CachedWebhookSend>({
    profileId,
    kind: 'webhook-send',
    source: view === 'attempts' ? sends : null,
    refOf,
    readOf,
    onActivate: select,
    filter: attemptsFilter,
  });
  const notifications = useReviewExtension<WebhookSendGroup>({
    profileId,
    kind: 'webhook-send',
    source: view === 'groups' ? groups : null,
    refOf: groupRefOf,
    readOf,
    onActivate: select,
    filter: groupsFilter,
  });
  return { attempts, notifications };
}
