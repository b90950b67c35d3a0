/**
 * The webhook send log: every attempt the bank made, or grouped by notification (event and
 * object), with filters; for one object, a timeline of its attempts and their spacing.
 */
import { useEffect } from 'react';
import { WEBHOOK_SEND_STATUSES } from '../../../../shared/bank/index.ts';
import type { WebhookSendGroup } from '../../../../shared/ipc/index.ts';
import { BankValue } from '../../components/BankValue.tsx';
import { AttemptTimeline } from '../../components/AttemptTimeline.tsx';
import { Badge, StatusBadge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { DateRangeFilter } from '../../components/DateRangeFilter.tsx';
import { Drawer, Properties, Section } from '../../components/Drawer.tsx';
import { fieldColumn, timeColumn } from '../../components/list/columns.tsx';
import { ListScreen } from '../../components/list/ListScreen.tsx';
import { TabPanel, Tabs } from '../../components/Tabs.tsx';
import { Page, PageHeader, ToolbarSelect, ToolbarText } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { SyncStrip } from '../../components/SyncStrip.tsx';
import { type Column } from '../../components/VirtualTable.tsx';
import { uiErrorOf } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/time.ts';
import { useOnTransition, useReloadWhileSyncing } from '../../lib/useDebounced.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { useSyncJob } from '../../stores/sync.ts';
import { useWebhooksStore } from '../webhooks/store.ts';
import { useWebhookSendsReview } from '../review/listReviews.ts';
import { ReviewPanel } from '../review/ReviewPanel.tsx';
import { notificationRef } from '../../../../shared/review/reviewTerms.ts';
import { useWebhookSendsStore, type CachedWebhookSend } from './store.ts';

function RetryCell({ willRetry }: { willRetry: boolean | null | undefined }) {
  if (willRetry === undefined) return <BankValue value={willRetry} />;
  return willRetry === true ? <Badge tone="warning">will retry</Badge> : <span className="faint">—</span>;
}

const ATTEMPT_COLUMNS: readonly Column<CachedWebhookSend>[] = [
  { key: 'status', header: 'Status', width: '92px', render: (row) => <StatusBadge status={row.status} /> },
  // Whether the bank will try again says more at a narrow width than which attempt this was.
  fieldColumn('attempt', 'Attempt', '84px', (row) => row.attempt_number, {
    className: 'tabular',
    align: 'end',
    priority: 6,
  }),
  fieldColumn('event', 'Event', '150px', (row) => row.event ?? row.operation, { className: 'mono', rowHeader: true }),
  fieldColumn('object', 'Object', 'minmax(140px, 1fr)', (row) => row.object_id, { className: 'mono', priority: 2 }),
  {
    key: 'retry',
    header: 'Retry',
    width: '108px',
    priority: 5,
    render: (row) => <RetryCell willRetry={row.will_retry} />,
  },
  fieldColumn('error', 'Error', 'minmax(160px, 1.4fr)', (row) => row.error, { className: 'muted', priority: 3 }),
  { ...timeColumn('at', 'Time', (row) => row.created_at), priority: 4 },
];

/** A notification's attempts as one row: figures the cache computed, not fields the bank sent. */
const GROUP_COLUMNS: readonly Column<WebhookSendGroup>[] = [
  { key: 'status', header: 'Last status', width: '100px', render: (row) => <StatusBadge status={row.lastStatus} /> },
  fieldColumn('event', 'Event', '150px', (row) => row.event, { className: 'mono', rowHeader: true }),
  fieldColumn('object', 'Object', 'minmax(140px, 1fr)', (row) => row.objectId, { className: 'mono', priority: 2 }),
  fieldColumn('attempts', 'Attempts', '80px', (row) => row.attempts, {
    className: 'tabular',
    align: 'end',
    priority: 5,
  }),
  {
    key: 'retry',
    header: 'Retry',
    width: '108px',
    priority: 6,
    render: (row) => <RetryCell willRetry={row.willRetry} />,
  },
  fieldColumn('error', 'Last error', 'minmax(160px, 1.4fr)', (row) => row.lastError, {
    className: 'muted',
    priority: 3,
  }),
  { ...timeColumn('last', 'Last attempt', (row) => row.lastAttemptAt), priority: 4 },
];

const VIEWS = [
  { id: 'attempts', label: 'Every attempt' },
  { id: 'groups', label: 'By notification' },
] as const;

export function WebhookSendsScreen() {
  const profileId = useActiveProfileId();
  const store = useWebhookSendsStore();
  const webhooks = useWebhooksStore((state) => state.rows);
  const loadWebhooks = useWebhooksStore((state) => state.load);
  const { open, filters, setFilters, view } = store;
  const job = useSyncJob('webhookSends', null, profileId);
  const review = useWebhookSendsReview();

  useEffect(() => {
    if (profileId === null) return;
    open(profileId);
    void loadWebhooks(profileId);
  }, [profileId, open, loadWebhooks]);
  useOnTransition(job?.state, 'done', () => {
    store.reload();
  });
  useReloadWhileSyncing(job?.state === 'running', job?.written, store.reload);

  // The two views share everything but their rows: filters, search, drawer, empty state.
  const drawerOf = <Row,>(refOf: (row: Row) => string, open: (row: Row) => void) => ({
    content: store.timeline === null ? null : <TimelineDrawer />,
    shows: (row: Row) => store.timeline?.item === refOf(row),
    show: open,
    close: store.closeTimeline,
  });
  const shared = {
    activeRow: store,
    what: 'Webhook sends',
    emptyTitle: 'No webhook sends',
    emptyBody: 'Nothing cached matches. Sync the send log from the bank.',
    banner: job === null ? null : <SyncStrip job={job} what="webhook sends" />,
    searchBox: { label: 'Search object ids, events and errors', placeholder: 'Search ids, events, errors' },
    search: filters.search,
    onSearch: (search: string) => {
      setFilters({ search });
    },
    filters: (
      <>
        <ToolbarSelect
          label="Webhook"
          className="select-webhook"
          value={filters.webhookId}
          onChange={(webhookId) => {
            setFilters({ webhookId });
          }}
          options={webhooks.map((webhook) => ({ value: webhook.id, label: `${webhook.event} · ${webhook.id}` }))}
        />
        <ToolbarSelect
          label="Status"
          value={filters.status}
          onChange={(status) => {
            setFilters({ status: status as typeof filters.status });
          }}
          options={WEBHOOK_SEND_STATUSES}
        />
        <ToolbarText
          label="Object"
          ariaLabel="Object id"
          placeholder="ach_…"
          value={filters.objectId}
          onChange={(objectId) => {
            setFilters({ objectId });
          }}
        />
        <DateRangeFilter range={filters} onChange={setFilters} />
      </>
    ),
  };
  return (
    <Page>
      <PageHeader
        title="Webhook send log"
        description="Every attempt the bank made to deliver a notification. An error with a retry scheduled is still on its way."
        actions={
          <>
            <Button icon="download" onClick={() => void store.exportCsv()}>
              Export CSV
            </Button>
            <Button
              variant="primary"
              icon="refresh"
              onClick={() => void store.sync()}
              disabled={job?.state === 'running'}
            >
              Sync
            </Button>
          </>
        }
      />
      <Tabs
        label="View"
        idPrefix="send-log"
        tabs={VIEWS}
        selected={view}
        onSelect={(next) => {
          store.setView(next);
        }}
      />
      <TabPanel idPrefix="send-log" tab={view}>
        {view === 'groups' ? (
          <ListScreen
            key="groups"
            label="Notifications"
            source={store.groups}
            columns={GROUP_COLUMNS}
            rowKey={groupRefOf}
            drawer={drawerOf(groupRefOf, (row) => {
              void store.openTimeline(groupRefOf(row), row.webhookId, row.objectId, row.event);
            })}
            extensions={[review.notifications]}
            {...shared}
          />
        ) : (
          <ListScreen
            key="attempts"
            label="Attempts"
            source={store.sends}
            columns={ATTEMPT_COLUMNS}
            rowKey={attemptRefOf}
            drawer={drawerOf(attemptRefOf, (row) => {
              void store.openTimeline(attemptRefOf(row), row.webhook_id ?? '', row.object_id ?? '', row.event ?? null);
            })}
            extensions={[review.attempts]}
            {...shared}
          />
        )}
      </TabPanel>
    </Page>
  );
}

/** A notification's review ref, built from its parts when the row does not carry one. */
const groupRefOf = (row: WebhookSendGroup): string =>
  row.ref ?? notificationRef(row.webhookId, row.objectId, row.event);
/** An attempt is reviewed by its own id. */
const attemptRefOf = (row: CachedWebhookSend): string => row.ref ?? row.id;

function TimelineDrawer() {
  const timeline = useWebhookSendsStore((state) => state.timeline);
  const close = useWebhookSendsStore((state) => state.closeTimeline);
  const profileId = useWebhookSendsStore((state) => state.profileId);
  if (timeline === null) return null;
  // The review of what the drawer shows: the attempt, or the notification's group.
  const reviewRef = timeline.item;
  const last = timeline.attempts[timeline.attempts.length - 1];
  return (
    <Drawer
      title={timeline.objectId}
      subtitle={
        <span className="mono">
          {timeline.event ?? 'notification'} · {timeline.webhookId}
        </span>
      }
      onClose={close}
    >
      {profileId === null ? null : <ReviewPanel profileId={profileId} kind="webhook-send" reference={reviewRef} />}
      {timeline.loading ? <LoadingState label="Loading attempts…" /> : null}
      {timeline.error === null ? null : <ErrorState what="Attempts" error={uiErrorOf(timeline.error)} />}
      {timeline.attempts.length === 0 ? null : (
        <>
          <Section title="Attempts over time">
            <AttemptTimeline
              attempts={timeline.attempts.map((send) => ({
                id: send.id,
                attemptNumber: send.attempt_number ?? 0,
                status: send.status ?? 'unknown',
                at: send.created_at ?? null,
                willRetry: send.will_retry === true,
                error: send.error ?? null,
              }))}
            />
          </Section>
          <Section title="Summary">
            <Properties
              items={[
                ['Attempts', String(timeline.attempts.length)],
                ['Last status', last === undefined ? null : <StatusBadge status={last.status} />],
                ['Will retry', last?.will_retry === true ? 'yes' : 'no'],
                ['Last error', last?.error ?? null],
              ]}
            />
          </Section>
          <Section title="Every attempt">
            <table className="table">
              <thead>
                <tr>
                  <th>#</th>
                  <th>Status</th>
                  <th>Time</th>
                  <th>Error</th>
                </tr>
              </thead>
              <tbody>
                {timeline.attempts.map((send) => (
                  <tr key={send.id}>
                    <td className="tabular">
                      <BankValue value={send.attempt_number} />
                    </td>
                    <td>
                      <StatusBadge status={send.status} />
                    </td>
                    <td className="tabular muted">
                      <BankValue value={send.created_at}>{formatTimestamp}</BankValue>
                    </td>
                    <td className="muted">
                      <BankValue value={send.error} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
        </>
      )}
    </Drawer>
  );
}
