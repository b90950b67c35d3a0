/**
 * The local webhook listener: start and stop, where it listens, the live stream of requests
 * with verdicts, each request in detail (replay, edit-and-replay, forward), response rules,
 * reconciliation with the bank's send log, and registering it with the bank in one click.
 */
import { useEffect, useState } from 'react';
import {
  LISTENER_VERDICTS,
  type ListenerRegistration,
  RECONCILIATION_CATEGORIES,
  type ListenerRequestSummary,
  type ReconciliationCategory,
} from '../../../../shared/ipc/index.ts';
import { Badge, HttpStatusBadge, StatusBadge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Select } from '../../components/Field.tsx';
import { ListScreen, type ListDefinition } from '../../components/list/ListScreen.tsx';
import { TabPanel, Tabs } from '../../components/Tabs.tsx';
import { Page, PageHeader, Panel, ToolbarSelect, ToolbarText } from '../../components/Page.tsx';
import { ErrorState, LoadingState, StateMessage } from '../../components/States.tsx';
import { type Column } from '../../components/VirtualTable.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { useOnTransition } from '../../lib/useDebounced.ts';
import { useSyncJob } from '../../stores/sync.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { ArrivalLabelCell, clockWithMilliseconds } from './ArrivalLabelCell.tsx';
import { EventsCatalog } from './EventsCatalog.tsx';
import { ImportRequestsButton } from './ImportRequests.tsx';
import { ListenerRegistrations } from './ListenerRegistrations.tsx';
import { ListenerSetup } from './ListenerSetup.tsx';
import { RegisterEventsPicker } from './RegisterEventsPicker.tsx';
import { api } from '../../lib/api.ts';
import { RequestDrawer } from './RequestDrawer.tsx';
import { RulesEditor } from './RulesEditor.tsx';
import { TriggerPanel } from './TriggerPanel.tsx';
import { EVERY_LISTENER_WEBHOOK, installListenerEvents, useListenerStore, type ListenerTab } from './store.ts';
import { useRegistrationsStore } from './registrationsStore.ts';
import { useWebhooksStore } from '../webhooks/store.ts';

const COLUMNS: readonly Column<ListenerRequestSummary>[] = [
  {
    key: 'time',
    header: 'Received',
    width: '112px',
    // To the millisecond: the gaps between a notification's attempts show the bank's backoff.
    render: (row) => (
      <span className="tabular muted" title={formatTimestamp(row.receivedAt)}>
        {clockWithMilliseconds(row.receivedAt)}
      </span>
    ),
  },
  { key: 'verdict', header: 'Verdict', width: '128px', render: (row) => <StatusBadge status={row.verdict} /> },
  {
    key: 'event',
    header: 'Event',
    width: '160px',
    rowHeader: true,
    render: (row) => <span className="mono">{row.event ?? '—'}</span>,
  },
  {
    key: 'object',
    header: 'Object',
    width: 'minmax(150px, 1fr)',
    priority: 2,
    render: (row) => (
      <span className="row" style={{ flexWrap: 'nowrap' }}>
        <span className="mono truncate">{row.objectId ?? '—'}</span>
        {row.outOfOrder ? <Badge tone="info">out of order</Badge> : null}
      </span>
    ),
  },
  {
    key: 'path',
    header: 'Path',
    width: 'minmax(100px, 0.7fr)',
    priority: 4,
    render: (row) => (
      <span className="mono muted">
        {row.method} {row.path}
      </span>
    ),
  },
  {
    key: 'label',
    header: 'Delivery',
    width: '112px',
    priority: 3,
    render: (row) => <ArrivalLabelCell label={row.label} />,
  },
  { key: 'status', header: 'Answered', width: '96px', render: (row) => <HttpStatusBadge status={row.status} /> },
  {
    key: 'duration',
    header: 'Time',
    width: '80px',
    priority: 5,
    align: 'end',
    render: (row) => <span className="tabular muted">{row.durationMs.toFixed(1)} ms</span>,
  },
];

const REQUESTS = {
  label: 'Requests',
  columns: COLUMNS,
  searchBox: { label: 'Search requests', placeholder: 'Search paths, events, ids, bodies' },
  fromBank: false,
  rowKey: (row) => row.id,
} satisfies ListDefinition<ListenerRequestSummary>;

const TABS: { id: ListenerTab; label: string }[] = [
  { id: 'requests', label: 'Requests' },
  { id: 'rules', label: 'Response rules' },
  { id: 'reconcile', label: 'Reconciliation' },
  { id: 'setup', label: 'Setup' },
  { id: 'trigger', label: 'Trigger' },
  { id: 'events', label: 'Events' },
];

export function ListenerScreen() {
  const profileId = useActiveProfileId();
  const store = useListenerStore();
  const { load } = store;
  const [registerEvents, setRegisterEvents] = useState<string[]>(['ach.update']);
  useEffect(() => {
    void load();
    return installListenerEvents();
  }, [load]);
  // The empty list says what was already done (registered for which events): read them at once.
  useEffect(() => {
    void useRegistrationsStore.getState().load(profileId);
  }, [profileId]);

  const status = store.status;
  const running = status?.running === true;
  if (store.statusError !== null && status === null) {
    return (
      <Page>
        <PageHeader title="Listener" description="Receives the bank's webhook notifications on this machine." />
        <ErrorState what="The listener" error={store.statusError} onRetry={() => void load()} />
      </Page>
    );
  }
  return (
    <Page>
      <PageHeader
        title="Listener"
        description={
          running ? (
            <span className="row">
              <Badge tone="positive">listening</Badge>
              <span className="code-block">{status.url}</span>
              <span className="muted">since {formatTimestamp(status.startedAt)}</span>
              {status.warning == null ? null : <Badge tone="warning">{status.warning}</Badge>}
            </span>
          ) : (
            <span className="row">
              <Badge tone="neutral">stopped</Badge>
              <span className="muted">
                Receives the bank's webhook notifications on this machine, verifies and keeps them.
              </span>
            </span>
          )
        }
        actions={
          <>
            <RegisterEventsPicker chosen={registerEvents} onChange={setRegisterEvents} />
            <Button
              icon="link"
              disabled={!running || profileId === null || registerEvents.length === 0}
              onClick={() => profileId !== null && void store.register(profileId, registerEvents)}
              title={running ? undefined : 'Start the listener first'}
            >
              Register with bank
            </Button>
            {running ? (
              <Button icon="stop" busy={store.busy} onClick={() => void store.stop()}>
                Stop
              </Button>
            ) : (
              <Button variant="primary" icon="play" busy={store.busy} onClick={() => void store.start()}>
                Start
              </Button>
            )}
          </>
        }
      />
      <Tabs
        label="Listener"
        idPrefix="listener"
        tabs={TABS.map((tab) => ({
          id: tab.id,
          label:
            tab.id === 'requests' && status !== null ? (
              <>
                {tab.label}
                <span className="faint"> · {status.requestsKept.toLocaleString('en-US')}</span>
              </>
            ) : (
              tab.label
            ),
        }))}
        selected={store.tab}
        onSelect={store.setTab}
      />
      <TabPanel idPrefix="listener" tab={store.tab}>
        {store.tab === 'requests' ? <RequestsTab /> : null}
        {store.tab === 'rules' ? (
          <div className="page-scroll">
            {store.rulesError === null ? (
              <RulesEditor
                key={store.rules.map((rule) => rule.id).join()}
                rules={store.rules}
                onSave={store.saveRules}
              />
            ) : (
              <ErrorState what="Response rules" error={store.rulesError} />
            )}
          </div>
        ) : null}
        {store.tab === 'reconcile' ? <ReconcileTab /> : null}
        {store.tab === 'trigger' ? (
          <div className="page-scroll">
            <TriggerPanel />
          </div>
        ) : null}
        {store.tab === 'events' ? (
          <div className="page-scroll">
            <EventsCatalog
              onTrigger={() => {
                store.setTab('trigger');
              }}
            />
          </div>
        ) : null}
        {store.tab === 'setup' ? (
          <div className="page-scroll">
            {store.config === null ? (
              <LoadingState />
            ) : (
              <div className="stack">
                <ListenerRegistrations />
                <ListenerSetup
                  config={store.config}
                  onSave={store.configure}
                  suggestPublicUrl={() => api().listener.suggestPublicUrl()}
                />
              </div>
            )}
          </div>
        ) : null}
      </TabPanel>
    </Page>
  );
}

/** What the empty list says while the listener runs: what was already done, and what is next. */
function waitingSentence(url: string, registrations: readonly ListenerRegistration[] | null): string {
  if (registrations === null || registrations.length === 0)
    return `Waiting for notifications at ${url}. Register the listener with the bank to receive them.`;
  const events = [...new Set(registrations.map((registration) => registration.event))];
  return `Registered with the bank for ${events.join(', ')} (${String(registrations.length)} webhook${registrations.length === 1 ? '' : 's'}): waiting for the bank's first notification. Make one on the Trigger tab.`;
}

function RequestsTab() {
  const store = useListenerStore();
  const { setFilters } = store;
  const registrations = useRegistrationsStore((state) => state.registrations);
  if (store.requests === null) return null;
  const filtered =
    store.filters.verdict !== '' ||
    store.filters.search.trim() !== '' ||
    store.filters.pathPrefix.trim() !== '' ||
    store.filters.duplicatesOnly;
  return (
    <ListScreen
      {...REQUESTS}
      source={store.requests}
      activeRow={store}
      drawer={{
        content: store.detailId === null ? null : <RequestDrawer />,
        shows: (row) => store.detailId === row.id,
        show: (row) => void store.openRequest(row.id),
        close: store.closeRequest,
      }}
      filters={
        <>
          <ToolbarSelect
            label="Verdict"
            value={store.filters.verdict}
            onChange={(verdict) => {
              setFilters({ verdict: verdict as typeof store.filters.verdict });
            }}
            options={LISTENER_VERDICTS}
          />
          <ToolbarText
            label="Path"
            ariaLabel="Path starts with"
            placeholder="/webhooks/"
            value={store.filters.pathPrefix}
            onChange={(pathPrefix) => {
              setFilters({ pathPrefix });
            }}
          />
          <label className="toolbar-item toolbar-toggle">
            <input
              type="checkbox"
              checked={store.filters.duplicatesOnly}
              onChange={(event) => {
                setFilters({ duplicatesOnly: event.target.checked });
              }}
            />
            Repeated events only
          </label>
          <ImportRequestsButton />
          <Button size="sm" variant="ghost" icon="trash" onClick={() => void store.clearRequests()}>
            Clear
          </Button>
        </>
      }
      search={store.filters.search}
      onSearch={(search) => {
        setFilters({ search });
      }}
      emptyTitle={filtered ? 'No matching requests' : 'No requests yet'}
      emptyBody={
        filtered
          ? 'No kept request matches these filters.'
          : store.status?.running === true
            ? waitingSentence(store.status.url ?? '', registrations)
            : registrations !== null && registrations.length > 0
              ? 'Start the listener: it is registered with the bank, so notifications arrive once it listens.'
              : 'Start the listener, then register it with the bank.'
      }
      footer={
        store.newSinceLoad > 0 ? (
          <span className="muted">live · {store.newSinceLoad} new</span>
        ) : (
          <span className="muted">live</span>
        )
      }
    />
  );
}

const CATEGORY_LABELS: Record<ReconciliationCategory, string> = {
  sentAndReceived: 'Sent and received',
  sentNotReceived: 'Sent, never received',
  receivedButFailed: 'Received, bank says failed',
  stillRetrying: 'Still retrying',
  // Not counted as received: anyone on the machine could have posted them.
  receivedUnverified: 'Received, not verified',
};

const CATEGORY_TONES: Record<ReconciliationCategory, 'positive' | 'warning' | 'negative'> = {
  sentAndReceived: 'positive',
  sentNotReceived: 'negative',
  receivedButFailed: 'negative',
  stillRetrying: 'warning',
  receivedUnverified: 'warning',
};

function ReconcileTab() {
  const profileId = useActiveProfileId();
  const store = useListenerStore();
  const { reconcile, setReconcileWebhook, reconcileWebhookId, registered } = store;
  const cachedWebhooks = useWebhooksStore((state) => state.rows);
  const loadWebhooks = useWebhooksStore((state) => state.load);
  const refreshWebhooks = useWebhooksStore((state) => state.refresh);
  const webhooks = [
    ...registered,
    ...cachedWebhooks.filter((webhook) => !registered.some((own) => own.id === webhook.id)),
  ];
  const listenerUrl = store.status?.url ?? null;
  const pointingHere = webhooks.filter(
    (webhook) => listenerUrl !== null && (webhook.url ?? '').startsWith(listenerUrl),
  );
  const webhooksJob = useSyncJob('webhooks', null, profileId);
  useEffect(() => {
    if (profileId !== null) void loadWebhooks(profileId);
  }, [profileId, loadWebhooks]);
  useOnTransition(webhooksJob?.state, 'done', () => {
    if (profileId !== null) void loadWebhooks(profileId);
  });
  useEffect(() => {
    if (reconcileWebhookId !== '' || webhooks.length === 0) return;
    // Default to a webhook pointing at this listener.
    const ours = pointingHere[0] ?? webhooks[0];
    if (ours !== undefined) setReconcileWebhook(ours.id);
  }, [reconcileWebhookId, webhooks, pointingHere, setReconcileWebhook]);
  useEffect(() => {
    if (profileId !== null && reconcileWebhookId !== '') void reconcile(profileId);
  }, [profileId, reconcile, reconcileWebhookId]);
  if (profileId === null) return <StateMessage title="No profile">Choose a profile to reconcile against.</StateMessage>;
  const counts = store.reconciliation?.counts;
  return (
    <div className="page-scroll stack">
      <div className="row">
        <p className="muted grow">The bank's webhook send records joined with what this listener received.</p>
        <div className="toolbar-item">
          <span className="toolbar-label">Webhook</span>
          <Select
            aria-label="Webhook to reconcile"
            className="select-webhook"
            value={reconcileWebhookId}
            onChange={setReconcileWebhook}
            options={[
              ...(pointingHere.length > 1
                ? [{ value: EVERY_LISTENER_WEBHOOK, label: 'Every webhook of this listener' }]
                : []),
              ...webhooks.map((webhook) => ({ value: webhook.id, label: `${webhook.event} · ${webhook.id}` })),
            ]}
            placeholder={webhooks.length === 0 ? 'No webhook' : undefined}
          />
        </div>
        <Button
          icon="refresh"
          busy={store.reconciling}
          disabled={reconcileWebhookId === ''}
          onClick={() => void reconcile(profileId)}
        >
          Reconcile
        </Button>
      </div>
      {webhooks.length === 0 ? (
        <StateMessage
          title="No webhook to reconcile"
          action={
            <Button icon="refresh" onClick={() => void refreshWebhooks()}>
              Refresh webhooks from the bank
            </Button>
          }
        >
          Register the listener with the bank, or refresh the webhooks, then choose the one to reconcile.
        </StateMessage>
      ) : null}
      {store.reconcileError === null ? null : (
        <ErrorState what="Reconciliation" error={store.reconcileError} onRetry={() => void reconcile(profileId)} />
      )}
      <div className="stat-grid" hidden={webhooks.length === 0}>
        {RECONCILIATION_CATEGORIES.map((category) => (
          <button
            key={category}
            type="button"
            className={`stat${store.reconcileCategory === category ? ' is-active' : ''}`}
            aria-pressed={store.reconcileCategory === category}
            onClick={() => void reconcile(profileId, store.reconcileCategory === category ? '' : category)}
          >
            <div className="stat-label">{CATEGORY_LABELS[category]}</div>
            <div className="stat-value">{counts === undefined ? '—' : counts[category].toLocaleString('en-US')}</div>
          </button>
        ))}
      </div>
      <Panel className="panel-flush">
        {store.reconciliation === null ? (
          store.reconciling ? (
            <LoadingState />
          ) : null
        ) : store.reconciliation.rows.length === 0 ? (
          <StateMessage title="Nothing to reconcile">No send records or requests match.</StateMessage>
        ) : (
          <table className="table" aria-label="Reconciliation">
            <thead>
              <tr>
                <th>Category</th>
                <th>Event</th>
                <th>Object</th>
                <th className="align-end">Attempt</th>
                <th>Bank status</th>
                <th>Verdict</th>
                <th>Received</th>
              </tr>
            </thead>
            <tbody>
              {store.reconciliation.rows.map((row, index) => (
                <tr key={`${row.webhookSendId ?? ''}-${row.listenerRequestId ?? ''}-${index}`}>
                  <td>
                    <Badge tone={CATEGORY_TONES[row.category]}>{CATEGORY_LABELS[row.category]}</Badge>
                  </td>
                  <td className="mono">{row.event ?? '—'}</td>
                  <td className="mono">{row.objectId}</td>
                  <td className="align-end tabular">{row.attemptNumber ?? '—'}</td>
                  <td>
                    {row.sendStatus === null ? (
                      <span className="faint">—</span>
                    ) : (
                      <StatusBadge status={row.sendStatus} />
                    )}
                  </td>
                  <td>
                    {row.verdict === null ? <span className="faint">—</span> : <StatusBadge status={row.verdict} />}
                  </td>
                  <td className="tabular muted">{formatTimestamp(row.receivedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
    </div>
  );
}
