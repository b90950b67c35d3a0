/**
 * Webhooks: status at a glance (with the error reason), how each one's deliveries went over the
 * last 24 hours (success rate, retries, the next retry, a link to its send log), create,
 * enable, disable, delete.
 */
import { useEffect, useState } from 'react';
import { WEBHOOK_STATUSES } from '../../../../shared/bank/index.ts';
import { BankValue } from '../../components/BankValue.tsx';
import { StatusBadge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { Page, PageHeader, Toolbar } from '../../components/Page.tsx';
import { EmptyState, ErrorState, LoadingState, NOT_SYNCED_YET, OfflineNotice } from '../../components/States.tsx';
import { TabPanel, Tabs } from '../../components/Tabs.tsx';
import { SyncStrip } from '../../components/SyncStrip.tsx';
import { useNow } from '../../frame/TopBar.tsx';
import { useOnTransition } from '../../lib/useDebounced.ts';
import { ageOf, formatTimestamp } from '../../lib/time.ts';
import {
  isOffline,
  useActiveProfile,
  useActiveProfileId,
  useActiveProfileLoad,
  useOnlineStatus,
} from '../../stores/profiles.ts';
import { useSyncJob } from '../../stores/sync.ts';
import { DeliveryFigures } from './DeliveryFigures.tsx';
import { useDeliveryStatsStore } from './deliveryStatsStore.ts';
import { WebhookForm } from './WebhookForm.tsx';
import { useWebhooksStore } from './store.ts';

const STATUS_TABS = (['', ...WEBHOOK_STATUSES] as const).map((status) => ({
  id: status,
  label: status === '' ? 'All' : status.charAt(0).toUpperCase() + status.slice(1),
}));

export function WebhooksScreen() {
  const profileId = useActiveProfileId();
  const embeddedSandbox = useActiveProfile()?.kind === 'embedded';
  const store = useWebhooksStore();
  const [creating, setCreating] = useState(false);
  const online = useOnlineStatus();
  const now = useNow();
  const job = useSyncJob('webhooks', null, profileId);
  const sendsJob = useSyncJob('webhookSends', null, profileId);
  const reload = useActiveProfileLoad(store.load);
  useOnTransition(job?.state, 'done', reload);
  const stats = useDeliveryStatsStore();
  const loadStats = stats.load;
  const shownIds = store.rows.map((webhook) => webhook.id).join(' ');
  const [statsTurn, setStatsTurn] = useState(0);
  useOnTransition(sendsJob?.state, 'done', () => {
    setStatsTurn((turn) => turn + 1);
  });
  useEffect(() => {
    if (profileId !== null && shownIds !== '') void loadStats(profileId, shownIds.split(' '));
  }, [profileId, shownIds, loadStats, statsTurn]);

  let body;
  if (store.error !== null && store.rows.length === 0) {
    body = <ErrorState what="Webhooks" error={store.error} onRetry={reload} />;
  } else if (store.loading && store.rows.length === 0) {
    body = <LoadingState label="Loading webhooks…" />;
  } else if (store.rows.length === 0) {
    body = (
      <EmptyState
        title={store.status === '' ? 'No webhooks' : `No ${store.status} webhooks`}
        action={
          <Button
            variant="primary"
            icon="plus"
            onClick={() => {
              setCreating(true);
            }}
          >
            New webhook
          </Button>
        }
      >
        Register a URL for an event and the bank will notify it on every change.
      </EmptyState>
    );
  } else {
    body = (
      <table className="table" aria-label="Webhooks">
        <thead>
          <tr>
            <th>Status</th>
            <th>Event</th>
            <th>URL</th>
            <th>Deliveries (24 h)</th>
            <th>Created</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {store.rows.map((webhook) => (
            <tr key={webhook.id}>
              <td>
                <div className="stack" style={{ gap: 2 }}>
                  <span>
                    <StatusBadge status={webhook.status} title={webhook.error ?? undefined} />
                  </span>
                  {webhook.status === 'error' && typeof webhook.error === 'string' ? (
                    <span className="field-error">{webhook.error}</span>
                  ) : null}
                </div>
              </td>
              <td className="mono">
                <BankValue value={webhook.event} />
              </td>
              <td className="truncate" style={{ maxWidth: 300 }} title={webhook.url ?? undefined}>
                <BankValue value={webhook.url} />
                <div className="faint mono" style={{ fontSize: 11 }}>
                  {webhook.id}
                </div>
                {/* The Basic user under its address, not a column of its own: room for the deliveries. */}
                <div className="faint" style={{ fontSize: 11 }}>
                  Basic user <BankValue value={webhook.basic_user} />
                </div>
              </td>
              <td className="webhook-deliveries">
                <DeliveryFigures
                  profileId={profileId}
                  webhookId={webhook.id}
                  stats={stats.profileId === profileId ? stats.byWebhook.get(webhook.id) : undefined}
                />
              </td>

              <td className="tabular muted" title={formatTimestamp(webhook.created_at ?? null)}>
                <BankValue value={webhook.created_at}>{(createdAt) => ageOf(createdAt, now)}</BankValue>
              </td>
              <td>
                <div className="table-actions">
                  {webhook.status === 'enabled' ? (
                    <Button
                      size="sm"
                      onClick={() => void store.setEnabled(webhook, false)}
                      disabled={store.busyId === webhook.id}
                    >
                      Disable
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      onClick={() => void store.setEnabled(webhook, true)}
                      disabled={store.busyId === webhook.id}
                    >
                      {webhook.status === 'error' ? 'Re-enable' : 'Enable'}
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="trash"
                    aria-label={`Delete webhook ${webhook.id}`}
                    onClick={() => void store.remove(webhook)}
                    disabled={store.busyId === webhook.id}
                  />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }

  return (
    <Page>
      <PageHeader
        title="Webhooks"
        description="URLs the bank notifies when an object changes. A webhook in error stopped receiving notifications until it is re-enabled."
        actions={
          <>
            <Button
              icon="refresh"
              onClick={() => void store.refresh()}
              disabled={job?.state === 'running' || sendsJob?.state === 'running'}
            >
              Refresh from bank
            </Button>
            <Button
              variant="primary"
              icon="plus"
              onClick={() => {
                setCreating(true);
              }}
            >
              New webhook
            </Button>
          </>
        }
      />
      <Toolbar>
        <Tabs
          label="Status"
          idPrefix="webhook-status"
          tabs={STATUS_TABS}
          selected={store.status}
          onSelect={store.setStatus}
        />
        <span className="grow" />
        <span className="muted" style={{ fontSize: 12 }}>
          {store.asOf !== null
            ? `as of ${ageOf(store.asOf, now)}`
            : store.rows.length > 0
              ? // What is listed was kept as it was made here (a registration, a new webhook): said so,
                // not "not synced" above the rows it shows.
                'Made from this app; Refresh from bank for the rest'
              : `${NOT_SYNCED_YET}: Refresh from bank to fetch`}
        </span>
      </Toolbar>
      {job === null ? null : <SyncStrip job={job} what="webhooks" />}
      {sendsJob === null ? null : <SyncStrip job={sendsJob} what="the send log" />}
      {isOffline(online) ? <OfflineNotice asOf={store.asOf === null ? null : formatTimestamp(store.asOf)} /> : null}
      <TabPanel idPrefix="webhook-status" tab={store.status}>
        <div className="list-view page-list">{body}</div>
      </TabPanel>
      {creating ? (
        <Dialog
          title="New webhook"
          onClose={() => {
            setCreating(false);
          }}
        >
          <WebhookForm
            onSubmit={store.create}
            embeddedSandbox={embeddedSandbox}
            onDone={() => {
              setCreating(false);
            }}
            onCancel={() => {
              setCreating(false);
            }}
          />
        </Dialog>
      ) : null}
    </Page>
  );
}
