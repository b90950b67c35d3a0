/**
 * The review queue: how many items of each kind are unreviewed, changed since their review,
 * flagged, escalated or cleared (each count opens them), and every review, most recently
 * moved first, with the same keys as the lists (c, f, e, n) and the review in the drawer.
 * Changed pending transactions live here: the bank no longer lists them as they were.
 */
import { useCallback, useEffect, useMemo } from 'react';
import {
  isNotificationRef,
  REVIEW_KINDS,
  REVIEW_STATES,
  type ReviewKind,
  type ReviewState,
} from '../../../../shared/review/reviewTerms.ts';
import { Button } from '../../components/Button.tsx';
import { Drawer, Section } from '../../components/Drawer.tsx';
import { JsonView } from '../../components/JsonEditor.tsx';
import { ListScreen } from '../../components/list/ListScreen.tsx';
import { Page, PageHeader, Panel, ToolbarSelect } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import type { Column } from '../../components/VirtualTable.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { usePendingTransactionsStore } from '../pendingTransactions/store.ts';
import { itemSummary } from './itemSummary.ts';
import { openListWith } from './openQueue.ts';
import { useQueueStore, type ListedReview, type QueueSummary } from './queueStore.ts';
import { ReportDialog } from './ReportDialog.tsx';
import { ReviewCell } from './ReviewCell.tsx';
import { ReviewPanel } from './ReviewPanel.tsx';
import { useReviewStore } from './reviewStore.ts';
import { useReviewExtension } from './useReviewExtension.tsx';
import { FILTER_LABELS, KIND_LABELS, SHORT_LABELS } from './reviewWords.ts';
import './review.css';

const kindOf = (row: ListedReview): ReviewKind => row.kind;
/** The kind in one word; a webhook send's review is of one attempt or of a notification's group. */
const shortKindOf = (row: ListedReview): string =>
  row.kind === 'pending-transaction'
    ? 'transaction'
    : row.kind === 'application'
      ? 'application'
      : isNotificationRef(row.ref)
        ? 'notification'
        : 'send';
const refOf = (row: ListedReview): string => row.ref;
const readOf = (row: ListedReview): ListedReview => row;

function columnsFor(profileId: string): Column<ListedReview>[] {
  return [
    {
      key: 'review',
      header: 'Review',
      width: '150px',
      render: (row) => <ReviewCell profileId={profileId} kind={row.kind} reference={row.ref} read={row} />,
    },
    {
      key: 'kind',
      header: 'Kind',
      width: '104px',
      render: (row) => <span className="muted">{shortKindOf(row)}</span>,
    },
    {
      key: 'item',
      header: 'Item',
      width: 'minmax(220px, 1fr)',
      render: (row) => (
        <span className="cell-two">
          <span className="cell-main">{itemSummary(row.kind, row.ref, row.record)}</span>
          <span className="cell-sub mono">{row.ref}</span>
        </span>
      ),
    },
    {
      key: 'by',
      header: 'By',
      width: '132px',
      render: (row) =>
        row.byRule === null ? (
          <span>{row.reviewer ?? (row.state === 'changed' ? 'a sync' : '—')}</span>
        ) : (
          <span className="review-rule-text">rule {row.byRule}</span>
        ),
    },
    {
      key: 'note',
      header: 'Note',
      width: 'minmax(120px, 0.8fr)',
      render: (row) => <span className="muted review-note-cell">{row.note ?? ''}</span>,
    },
    {
      key: 'moved',
      header: 'Moved',
      width: '196px',
      render: (row) => <span className="tabular muted">{formatTimestamp(row.updatedAt)}</span>,
    },
  ];
}

/** The account whose unreviewed pending transactions the summary counts: the one last opened. */
function pendingAccountOf(profileId: string): string | null {
  const pending = usePendingTransactionsStore.getState();
  if (pending.profileId === profileId && pending.filters.accountId !== '') return pending.filters.accountId;
  try {
    return localStorage.getItem(`ledgerdesk.lastAccount.${profileId}`) ?? null;
  } catch {
    return null;
  }
}

export function ReviewQueueScreen() {
  const profileId = useActiveProfileId();
  const store = useQueueStore();
  const { open, source, selected, select, filters, setFilters } = store;

  useEffect(() => {
    if (profileId !== null) open(profileId, pendingAccountOf(profileId));
  }, [profileId, open]);
  // Dispositions given here change the counts: read them again.
  const version = useReviewStore((state) => state.version);
  const loadSummary = store.loadSummary;
  useEffect(() => {
    if (profileId !== null && version > 0) void loadSummary(pendingAccountOf(profileId));
  }, [profileId, version, loadSummary]);

  const extension = useReviewExtension<ListedReview>({
    profileId,
    kind: kindOf,
    source,
    refOf,
    readOf,
    onActivate: select,
  });
  // The queue draws its own review column first; the extension gives it the keys.
  const keysOnly = useMemo(() => ({ keys: extension.keys ?? [] }), [extension.keys]);
  const columns = useMemo(() => (profileId === null ? [] : columnsFor(profileId)), [profileId]);
  const row = selected === null || source === null ? undefined : source.rowAt(selected);
  const closeDrawer = useCallback(() => {
    store.setDrawerOpen(false);
  }, [store]);

  return (
    <Page>
      <PageHeader
        title="Review queue"
        description="What officers decided, what watch rules flagged, and what the bank changed since it was reviewed. Unreviewed items are reviewed in their own lists."
        actions={
          <Button
            variant="primary"
            icon="download"
            onClick={() => {
              store.setReporting(true);
            }}
          >
            Write the report…
          </Button>
        }
      />
      <QueueSummaryPanel
        summary={store.summary}
        error={store.summaryError}
        onRetry={() => void store.loadSummary(profileId === null ? null : pendingAccountOf(profileId))}
        onShow={(kind, state) => {
          setFilters({ kind, state });
        }}
      />
      <ListScreen
        label="Reviews"
        source={source}
        columns={columns}
        active={selected}
        onActivate={select}
        onOpen={() => {
          store.setDrawerOpen(true);
        }}
        extensions={[keysOnly]}
        fromBank={false}
        filters={
          <>
            <ToolbarSelect
              label="Kind"
              value={filters.kind}
              onChange={(kind) => {
                setFilters({ kind: kind as ReviewKind | '' });
              }}
              options={REVIEW_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind].many }))}
            />
            <ToolbarSelect
              label="State"
              value={filters.state}
              onChange={(state) => {
                setFilters({ state: state as ReviewState | '' });
              }}
              options={REVIEW_STATES.map((state) => ({ value: state, label: SHORT_LABELS[state] }))}
            />
          </>
        }
        drawer={
          store.drawerOpen && row !== undefined && profileId !== null ? (
            <Drawer
              title={row.kind === 'application' ? row.ref : itemSummary(row.kind, row.ref, row.record)}
              subtitle={
                <span className="mono">
                  {KIND_LABELS[row.kind].one} · {row.ref}
                </span>
              }
              onClose={closeDrawer}
            >
              <ReviewPanel profileId={profileId} kind={row.kind} reference={row.ref} />
              <Section title={row.byRule === null ? 'The record as reviewed' : 'The record as cached'}>
                <JsonView
                  value={row.record}
                  label={row.byRule === null ? 'The record as reviewed' : 'The record as cached'}
                />
              </Section>
            </Drawer>
          ) : undefined
        }
        emptyTitle="Nothing in this part of the queue"
        emptyBody="No review matches. Reviews appear here once an officer gives a disposition, a watch rule flags an item, or a sync finds a reviewed record changed."
      />
      {store.reporting && profileId !== null ? (
        <ReportDialog
          profileId={profileId}
          onClose={() => {
            store.setReporting(false);
          }}
        />
      ) : null}
    </Page>
  );
}

function QueueSummaryPanel({
  summary,
  error,
  onRetry,
  onShow,
}: {
  summary: QueueSummary | null;
  error: ReturnType<typeof useQueueStore.getState>['summaryError'];
  onRetry: () => void;
  onShow: (kind: ReviewKind, state: ReviewState) => void;
}) {
  if (error !== null) return <ErrorState what="Review counts" error={error} onRetry={onRetry} />;
  if (summary === null) return <LoadingState label="Counting reviews…" />;
  return (
    <Panel className="panel-flush review-summary">
      <table className="table review-summary-table">
        <caption className="visually-hidden">Items by kind and review state</caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">{FILTER_LABELS.unreviewed}</th>
            {(['changed', 'flagged', 'escalated', 'cleared'] as const).map((state) => (
              <th scope="col" key={state}>
                {FILTER_LABELS[state]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {REVIEW_KINDS.map((kind) => {
            const unreviewed = summary.unreviewed[kind];
            return (
              <tr key={kind}>
                <th scope="row">{KIND_LABELS[kind].many}</th>
                <td>
                  <button
                    type="button"
                    className="review-count tabular"
                    title={
                      kind === 'pending-transaction'
                        ? `Unreviewed pending transactions of ${summary.accountId ?? 'an account'}`
                        : undefined
                    }
                    onClick={() => {
                      openListWith(kind, 'unreviewed');
                    }}
                  >
                    {unreviewed === null ? 'open' : unreviewed.toLocaleString('en-US')}
                    <span className="visually-hidden"> unreviewed {KIND_LABELS[kind].many}</span>
                  </button>
                </td>
                {(['changed', 'flagged', 'escalated', 'cleared'] as const).map((state) => (
                  <td key={state}>
                    <button
                      type="button"
                      className="review-count tabular"
                      onClick={() => {
                        onShow(kind, state);
                      }}
                    >
                      {summary.counts[kind][state].toLocaleString('en-US')}
                      <span className="visually-hidden">
                        {' '}
                        {FILTER_LABELS[state].toLowerCase()} {KIND_LABELS[kind].many}
                      </span>
                    </button>
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </Panel>
  );
}
