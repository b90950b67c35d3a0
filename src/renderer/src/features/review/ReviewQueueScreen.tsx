/**
 * The officer's one queue: every item of the profile waiting for a person, across every
 * account and kind — changed since review, flagged by a person, flagged by a rule, escalated,
 * unreviewed — with what was cleared kept browsable. It opens on the first part holding items
 * (changed and flagged first). The counts by part and kind, and by account, each open their
 * part; the filters (part, kind, account, rule, dates, amounts) narrow pages and counts alike.
 * The keys are the lists' (c, f, e, n), the review is in the drawer.
 */
import { useCallback, useEffect, useMemo } from 'react';
import { QUEUE_STATE_LABELS, QUEUE_STATES, type QueueState } from '../../../../shared/review/queueTerms.ts';
import { itemColumnsOf, itemLine } from '../../../../shared/review/itemColumns.ts';
import { isNotificationRef, REVIEW_KINDS, type ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import { Button } from '../../components/Button.tsx';
import { DateRangeFilter } from '../../components/DateRangeFilter.tsx';
import { Drawer, Section } from '../../components/Drawer.tsx';
import { JsonView } from '../../components/JsonEditor.tsx';
import { ListScreen } from '../../components/list/ListScreen.tsx';
import { Money } from '../../components/Money.tsx';
import { Page, PageHeader, Panel, ToolbarSelect, ToolbarText } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import type { Column } from '../../components/VirtualTable.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { useQueueStore, type QueueCounts, type QueueItem } from './queueStore.ts';
import { ReportDialog } from './ReportDialog.tsx';
import { ReviewCell } from './ReviewCell.tsx';
import { ReviewPanel } from './ReviewPanel.tsx';
import { ScreeningHitView } from './ScreeningHitView.tsx';
import { useReviewStore } from './reviewStore.ts';
import { useReviewExtension } from './useReviewExtension.tsx';
import { KIND_LABELS } from './reviewWords.ts';
import { accountLabel } from '../../../../shared/review/itemNames.ts';
import { CopyId } from '../../components/CopyId.tsx';
import './review.css';

const kindOf = (row: QueueItem): ReviewKind => row.kind;
/** The kind in one word; a webhook send's review is of one attempt or of a notification's group. */
const shortKindOf = (row: QueueItem): string =>
  row.kind === 'pending-transaction'
    ? 'transaction'
    : row.kind === 'application'
      ? 'application'
      : isNotificationRef(row.ref)
        ? 'notification'
        : 'send';
const refOf = (row: QueueItem): string => row.ref;
const readOf = (row: QueueItem) => row.review;
const recordOf = (row: QueueItem): unknown => row.record;
/** A queue item's identity across reads: its kind and ref. */
const queueKeyOf = (row: QueueItem): string => `${row.kind}\u0000${row.ref}`;

/** What the item is, names first: a transaction's description, who applied, a send's event. */
function itemHeading(row: QueueItem): string {
  return (
    itemLine(row.kind, itemColumnsOf(row.kind, row.ref, row.record, row.names)) || `a ${KIND_LABELS[row.kind].one}`
  );
}

/** Under it: what kind of item, and where it belongs (the account, the product). */
function itemSubline(row: QueueItem): string {
  const columns = itemColumnsOf(row.kind, row.ref, row.record, row.names);
  const where = row.kind === 'application' ? columns.productName : columns.accountName;
  return [KIND_LABELS[row.kind].one, where].filter((part) => part !== null && part !== '').join(' · ');
}

/** The local time of a bank timestamp ("14:03"), beside the bank's own date. */
function localTime(iso: string | null): string {
  if (iso === null) return '';
  const moment = new Date(iso);
  return Number.isNaN(moment.getTime())
    ? ''
    : moment.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

function columnsFor(profileId: string): Column<QueueItem>[] {
  return [
    {
      key: 'review',
      header: 'Review',
      width: '140px',
      render: (row) => <ReviewCell profileId={profileId} kind={row.kind} reference={row.ref} read={row.review} />,
    },
    {
      key: 'kind',
      header: 'Kind',
      width: '104px',
      priority: 4,
      render: (row) => <span className="muted">{shortKindOf(row)}</span>,
    },
    {
      key: 'account',
      header: 'Account',
      width: '176px',
      priority: 2,
      render: (row) => {
        const accountId = row.accountId ?? itemColumnsOf(row.kind, row.ref, row.record).account;
        return accountId === null ? (
          <span className="muted">—</span>
        ) : (
          <span title={`Account ${accountId}`}>{accountLabel(row.names?.account)}</span>
        );
      },
    },
    {
      key: 'date',
      header: 'Date · local time',
      width: '168px',
      render: (row) => {
        const columns = itemColumnsOf(row.kind, row.ref, row.record);
        const time = localTime(columns.at);
        return (
          <span className="tabular" title={columns.at ?? undefined}>
            {columns.date ?? '—'}
            {time === '' ? '' : ` ${time}`}
          </span>
        );
      },
    },
    {
      key: 'amount',
      header: 'Amount',
      width: '120px',
      align: 'end',
      render: (row) => {
        const amount = itemColumnsOf(row.kind, row.ref, row.record).amount;
        return amount === null ? <span className="muted">—</span> : <Money amount={amount} />;
      },
    },
    {
      key: 'item',
      header: 'Item',
      width: 'minmax(150px, 1fr)',
      rowHeader: true,
      render: (row) => (
        <span className="cell-two" title={`${KIND_LABELS[row.kind].one} ${row.ref}`}>
          <span className="cell-main">{itemHeading(row)}</span>
          <span className="cell-sub">{itemSubline(row)}</span>
        </span>
      ),
    },
    {
      key: 'ref',
      header: 'Ref',
      width: '200px',
      optional: true,
      priority: 7,
      render: (row) => <span className="mono muted">{row.ref}</span>,
    },
    {
      key: 'by',
      header: 'By',
      width: '132px',
      priority: 3,
      render: (row) =>
        row.review === null ? (
          <span className="muted">—</span>
        ) : row.review.byRule === null ? (
          <span>{row.review.reviewer ?? (row.review.state === 'changed' ? 'a sync' : '—')}</span>
        ) : (
          <span className="review-rule-text">rule {row.review.byRule}</span>
        ),
    },
    {
      key: 'note',
      header: 'Note',
      width: 'minmax(120px, 0.6fr)',
      priority: 5,
      render: (row) => <span className="muted review-note-cell">{row.review?.note ?? ''}</span>,
    },
    {
      key: 'moved',
      header: 'Moved',
      width: '196px',
      priority: 6,
      render: (row) => (
        <span className="tabular muted">{row.review === null ? '—' : formatTimestamp(row.review.updatedAt)}</span>
      ),
    },
  ];
}

export function ReviewQueueScreen() {
  const profileId = useActiveProfileId();
  const store = useQueueStore();
  const { open, source, selected, select, filters, setFilters, recount } = store;

  useEffect(() => {
    if (profileId !== null) open(profileId);
  }, [profileId, open]);
  // Dispositions given here change the counts: read them again.
  const version = useReviewStore((state) => state.version);
  useEffect(() => {
    if (profileId !== null && version > 0) void recount();
  }, [profileId, version, recount]);

  const extension = useReviewExtension<QueueItem>({
    profileId,
    kind: kindOf,
    source,
    refOf,
    readOf,
    onActivate: select,
    recordOf,
  });
  // The queue draws its own review column first; the extension gives it the keys.
  const keysOnly = useMemo(() => ({ keys: extension.keys ?? [] }), [extension.keys]);
  const columns = useMemo(() => (profileId === null ? [] : columnsFor(profileId)), [profileId]);
  const row = selected === null || source === null ? undefined : source.rowAt(selected);
  const closeDrawer = useCallback(() => {
    store.setDrawerOpen(false);
  }, [store]);
  const summary = store.summary;
  const part = filters.state;
  const partLabel = part === null ? 'the queue' : QUEUE_STATE_LABELS[part];
  const kindLabel = filters.kind === '' ? 'items' : KIND_LABELS[filters.kind].many;

  return (
    <Page>
      <PageHeader
        title="Review queue"
        description="Every item of this profile waiting for a person, across all accounts and kinds: what changed since it was reviewed, what was flagged or escalated, and what no one has reviewed yet."
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
        summary={summary}
        error={store.summaryError}
        current={{ state: part, kind: filters.kind, accountId: filters.accountId }}
        onRetry={() => void recount()}
        onShow={(patch) => {
          setFilters(patch);
        }}
      />
      <ListScreen
        label="Review queue items"
        source={source}
        columns={columns}
        active={selected}
        onActivate={select}
        rowKey={queueKeyOf}
        extensions={[keysOnly]}
        fromBank={false}
        filters={
          <>
            <ToolbarSelect
              label="Part"
              value={part ?? ''}
              emptyLabel={null}
              className="select-queue-part"
              onChange={(state) => {
                setFilters({ state: state as QueueState });
              }}
              options={QUEUE_STATES.map((state) => ({
                value: state,
                label:
                  summary === null
                    ? QUEUE_STATE_LABELS[state]
                    : `${QUEUE_STATE_LABELS[state]} (${summary.states[state].toLocaleString('en-US')})`,
              }))}
            />
            <ToolbarSelect
              label="Kind"
              value={filters.kind}
              onChange={(kind) => {
                setFilters({ kind: kind as ReviewKind | '' });
              }}
              options={REVIEW_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind].many }))}
            />
            <ToolbarSelect
              label="Account"
              value={filters.accountId}
              onChange={(accountId) => {
                setFilters({ accountId });
              }}
              options={(summary?.accountIds ?? []).map((accountId) => ({
                value: accountId,
                label: accountLabel(summary?.accountNames?.find((named) => named.id === accountId)),
              }))}
              emptyLabel="All accounts"
            />
            <ToolbarText
              label="Rule"
              ariaLabel="Flagged by the watch rule named"
              placeholder="Rule name"
              value={filters.ruleName}
              onChange={(ruleName) => {
                setFilters({ ruleName: ruleName.trim() });
              }}
            />
            <DateRangeFilter
              range={{ fromDate: filters.fromDate, toDate: filters.toDate }}
              onChange={(change) => {
                setFilters(change);
              }}
            />
            <ToolbarText
              label="Amount from"
              ariaLabel="Smallest amount, either sign"
              placeholder="0.00"
              value={filters.minAmount}
              onChange={(minAmount) => {
                setFilters({ minAmount });
              }}
            />
            <ToolbarText
              label="to"
              ariaLabel="Largest amount, either sign"
              placeholder="any"
              value={filters.maxAmount}
              onChange={(maxAmount) => {
                setFilters({ maxAmount });
              }}
            />
          </>
        }
        banner={
          store.amountProblem === null ? undefined : (
            <p className="review-filter-problem" role="alert">
              {store.amountProblem}
            </p>
          )
        }
        drawer={{
          content:
            store.drawerOpen && row !== undefined && profileId !== null ? (
              <Drawer
                title={itemHeading(row)}
                subtitle={
                  <>
                    {itemSubline(row)} <CopyId id={row.ref} what={`${KIND_LABELS[row.kind].one}'s ref`} />
                  </>
                }
                onClose={closeDrawer}
              >
                <ReviewPanel profileId={profileId} kind={row.kind} reference={row.ref} name={itemHeading(row)} />
                {row.kind === 'screening-hit' ? (
                  <Section title="Applicant and list entry">
                    <ScreeningHitView profileId={profileId} reference={row.ref} record={row.record} />
                  </Section>
                ) : null}
                <Section
                  title={
                    row.review === null || row.review.byRule !== null
                      ? 'The record as cached'
                      : 'The record as reviewed'
                  }
                >
                  <JsonView
                    value={row.record}
                    label={
                      row.review === null || row.review.byRule !== null
                        ? 'The record as cached'
                        : 'The record as reviewed'
                    }
                  />
                </Section>
              </Drawer>
            ) : null,
          // Drawn from the active row itself: it shows whatever row is active.
          shows: () => true,
          show: () => {
            store.setDrawerOpen(true);
          },
          close: closeDrawer,
        }}
        emptyTitle={summary?.openOn === null ? 'Nothing waits for a person' : `No ${kindLabel} in ${partLabel}`}
        emptyBody={
          summary?.openOn === null
            ? 'Every item of this profile is cleared, or none is cached yet: sync a list to fetch its items.'
            : summary === null
              ? undefined
              : `Items wait in ${QUEUE_STATE_LABELS[summary.openOn]}: choose it in Part, or clear a filter.`
        }
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

const SUMMARY_PARTS: readonly QueueState[] = QUEUE_STATES;

function QueueSummaryPanel({
  summary,
  error,
  current,
  onRetry,
  onShow,
}: {
  summary: QueueCounts | null;
  error: ReturnType<typeof useQueueStore.getState>['summaryError'];
  current: { state: QueueState | null; kind: ReviewKind | ''; accountId: string };
  onRetry: () => void;
  onShow: (patch: { state: QueueState; kind?: ReviewKind | ''; accountId?: string }) => void;
}) {
  if (error !== null) return <ErrorState what="Review counts" error={error} onRetry={onRetry} />;
  if (summary === null) return <LoadingState label="Counting the queue…" />;
  const waiting = summary.accounts.filter((account) =>
    SUMMARY_PARTS.some((state) => state !== 'cleared' && account.states[state] > 0),
  );
  const pressed = (state: QueueState, kind: ReviewKind | '', accountId: string) =>
    current.state === state && current.kind === kind && current.accountId === accountId;
  return (
    <Panel className="panel-flush review-summary">
      <div className="review-summary-scroll">
        <table className="table review-summary-table">
          <caption className="visually-hidden">Items by kind and part of the queue</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              {SUMMARY_PARTS.map((state) => (
                <th scope="col" key={state}>
                  {QUEUE_STATE_LABELS[state]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {REVIEW_KINDS.map((kind) => (
              <tr key={kind}>
                <th scope="row">{KIND_LABELS[kind].many}</th>
                {SUMMARY_PARTS.map((state) => (
                  <td key={state}>
                    <button
                      type="button"
                      className="review-count tabular"
                      aria-pressed={pressed(state, kind, current.accountId)}
                      onClick={() => {
                        onShow({ state, kind });
                      }}
                    >
                      {summary.kinds[kind][state].toLocaleString('en-US')}
                      <span className="visually-hidden">
                        {' '}
                        {KIND_LABELS[kind].many}: {QUEUE_STATE_LABELS[state].toLowerCase()}
                      </span>
                    </button>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {waiting.length === 0 ? null : (
          <table className="table review-summary-table review-accounts-table">
            <caption className="review-accounts-caption">Pending transactions waiting, by account</caption>
            <thead>
              <tr>
                <th scope="col">Account</th>
                {SUMMARY_PARTS.filter((state) => state !== 'cleared').map((state) => (
                  <th scope="col" key={state}>
                    {QUEUE_STATE_LABELS[state]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {waiting.map((account) => (
                <tr key={account.accountId}>
                  <th scope="row" title={`Account ${account.accountId}`}>
                    {accountLabel(summary.accountNames?.find((named) => named.id === account.accountId))}
                  </th>
                  {SUMMARY_PARTS.filter((state) => state !== 'cleared').map((state) => (
                    <td key={state}>
                      <button
                        type="button"
                        className="review-count tabular"
                        aria-pressed={pressed(state, 'pending-transaction', account.accountId)}
                        onClick={() => {
                          onShow({ state, kind: 'pending-transaction', accountId: account.accountId });
                        }}
                      >
                        {account.states[state].toLocaleString('en-US')}
                        <span className="visually-hidden">
                          {' '}
                          pending transactions of{' '}
                          {accountLabel(summary.accountNames?.find((named) => named.id === account.accountId))}:{' '}
                          {QUEUE_STATE_LABELS[state].toLowerCase()}
                        </span>
                      </button>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Panel>
  );
}
