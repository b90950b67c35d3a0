/**
 * Account applications: open one by id (fetched from the bank into the cache), the cached
 * ones with a status filter, and for each its status history across syncs.
 */
import { useEffect, useState, type SyntheticEvent } from 'react';
import { ACCOUNT_APPLICATION_STATUSES, OWNERSHIP_TYPES } from '../../../../shared/bank/index.ts';
import { BankValue } from '../../components/BankValue.tsx';
import { StatusBadge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { DateRangeFilter } from '../../components/DateRangeFilter.tsx';
import { Drawer, Properties, Section } from '../../components/Drawer.tsx';
import { JsonView } from '../../components/JsonEditor.tsx';
import { fieldColumn, timeColumn } from '../../components/list/columns.tsx';
import { ListScreen, type ListDefinition } from '../../components/list/ListScreen.tsx';
import { Page, PageHeader, ToolbarSelect, ToolbarText } from '../../components/Page.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { SyncStrip } from '../../components/SyncStrip.tsx';
import { type Column } from '../../components/VirtualTable.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import {
  accountLabel,
  applicantsHeading,
  applicantWithRoles,
  codeWords,
  productLabel,
} from '../../../../shared/review/itemNames.ts';
import { CopyId } from '../../components/CopyId.tsx';
import { itemColumnsOf, itemLine } from '../../../../shared/review/itemColumns.ts';
import { useOnTransition, useReloadWhileSyncing } from '../../lib/useDebounced.ts';
import { isOffline, useActiveProfileId, useOnlineStatus } from '../../stores/profiles.ts';
import { useSyncJob } from '../../stores/sync.ts';
import { ApplicantsSection } from '../applicants/ApplicantsSection.tsx';
import { useAccountApplicationsReview } from '../review/listReviews.ts';
import { ReviewPanel } from '../review/ReviewPanel.tsx';
import { ApplicationStatus, MalformedApplicationNote } from './MalformedApplication.tsx';
import { useAccountApplicationsStore, type CachedAccountApplication } from './store.ts';

const STATUS_LABEL = (status: string): string => status.replace('_', ' ');

/** Who applied (the business, else the primary person) and, under it, what a search matched or the product. */
function ApplicantCell({ row }: { row: CachedAccountApplication }) {
  const heading = applicantsHeading(row.names?.applicants);
  const matched = row.matched ?? [];
  return (
    <span className="cell-two" title={`Application ${row.id}`}>
      <span className="cell-main">{heading}</span>
      <span className="cell-sub">
        {matched.length > 0
          ? `matched: ${matched.join('; ')}`
          : [productLabel(row.product), codeWords(row.ownership_type)].filter((part) => part !== '').join(' · ')}
      </span>
    </span>
  );
}

const COLUMNS: readonly Column<CachedAccountApplication>[] = [
  { key: 'status', header: 'Status', width: '144px', render: (row) => <ApplicationStatus application={row} /> },
  {
    key: 'applicant',
    header: 'Applicant',
    width: 'minmax(180px, 1fr)',
    rowHeader: true,
    render: (row) => <ApplicantCell row={row} />,
  },
  {
    ...fieldColumn('id', 'Application id', '184px', (row) => row.id, { className: 'mono' }),
    optional: true,
    priority: 6,
  },
  fieldColumn('ownership', 'Ownership', '170px', (row) => row.ownership_type, { className: 'muted', priority: 3 }),
  fieldColumn('persons', 'Persons', '80px', (row) => row.person_applications, {
    className: 'tabular',
    align: 'end',
    format: (people) => String(people.length),
    priority: 4,
  }),
  fieldColumn('account', 'Account number', '184px', (row) => row.account_number, { className: 'mono', priority: 2 }),
  { ...timeColumn('updated', 'Updated', (row) => row.updated_at), priority: 5 },
];

const APPLICATIONS = {
  label: 'Account applications',
  columns: COLUMNS,
  searchBox: { label: 'Search applications', placeholder: 'Search a name, email, business or id' },
  emptyTitle: 'No account applications cached',
  emptyBody: 'Sync the application book, or open an application by its id to fetch it from the bank.',
  rowKey: (row) => row.id,
} satisfies ListDefinition<CachedAccountApplication>;

export function AccountApplicationsScreen() {
  const profileId = useActiveProfileId();
  const store = useAccountApplicationsStore();
  const { open, setFilters } = store;
  const [lookup, setLookup] = useState('');
  const [pendingId, setPendingId] = useState<string | null>(null);
  // Offline, Open shows what the cache holds and says so, instead of a sync that cannot start.
  const online = useOnlineStatus();
  const [offlineOpen, setOfflineOpen] = useState<string | null>(null);
  const job = useSyncJob('accountApplication', pendingId, profileId);
  const review = useAccountApplicationsReview();
  const bookJob = useSyncJob('applications', null, profileId);

  useEffect(() => {
    if (profileId !== null) open(profileId);
  }, [profileId, open]);
  useOnTransition(bookJob?.state, 'done', () => {
    store.reload();
  });
  useReloadWhileSyncing(bookJob?.state === 'running', bookJob?.written, store.reload);
  useOnTransition(job?.state, 'done', () => {
    store.reload();
    if (pendingId !== null) void store.showDetail(pendingId);
  });

  const submit = async (event: SyntheticEvent): Promise<void> => {
    event.preventDefault();
    const id = lookup.trim();
    if (id === '') return;
    // The drawer shows what the keys act on: the application opened, if the list shows it,
    // else no row (the drawer's own buttons review it).
    store.selectById(id);
    await store.showDetail(id);
    setOfflineOpen(null);
    if (isOffline(online)) {
      const cached = useAccountApplicationsStore.getState().detail !== null;
      setOfflineOpen(
        cached
          ? `You are offline: showing application ${id} as last cached; it was not fetched again.`
          : `You are offline: application ${id} is not in the cache. Open it again once you are back online.`,
      );
      return;
    }
    setPendingId(id);
    await store.fetchById(id);
  };

  return (
    <Page>
      <PageHeader
        title="Account applications"
        description="Applications fetched from the bank and kept in the cache, with every status seen on each sync."
        actions={
          <Button
            variant="primary"
            icon="refresh"
            onClick={() => void store.syncBook()}
            disabled={profileId === null || bookJob?.state === 'running'}
          >
            Sync the book
          </Button>
        }
      />
      {bookJob === null ? null : <SyncStrip job={bookJob} what="the application book" />}
      <form className="row" onSubmit={(event) => void submit(event)} aria-label="Open an application by id">
        {/* A visible label, not a placeholder alone: it stays once the field is filled. */}
        <label className="toolbar-item application-lookup">
          <span className="toolbar-label">Application id</span>
          <input
            className="input mono"
            placeholder="aact_…"
            value={lookup}
            onChange={(event) => {
              setLookup(event.target.value);
            }}
          />
        </label>
        <Button type="submit" variant="primary" disabled={lookup.trim() === ''}>
          Open
        </Button>
        {job === null ? null : <SyncStrip job={job} what={`application ${pendingId ?? ''}`} />}
        <span className="muted" role="status">
          {offlineOpen}
        </span>
      </form>
      <ListScreen
        {...APPLICATIONS}
        source={store.source}
        activeRow={store}
        drawer={{
          content: store.detailId === null ? null : <ApplicationDrawer />,
          shows: (row) => store.detailId === row.id,
          show: (row) => void store.showDetail(row.id),
          close: store.closeDetail,
        }}
        extensions={[review]}
        filters={
          <>
            <ToolbarSelect
              label="Status"
              value={store.status}
              onChange={(status) => {
                setFilters({ status: status as typeof store.status });
              }}
              options={ACCOUNT_APPLICATION_STATUSES.map((status) => ({ value: status, label: STATUS_LABEL(status) }))}
            />
            <ToolbarSelect
              label="Ownership"
              value={store.ownershipType}
              onChange={(ownershipType) => {
                setFilters({ ownershipType: ownershipType as typeof store.ownershipType });
              }}
              options={OWNERSHIP_TYPES}
            />
            <ToolbarText
              label="Product"
              ariaLabel="Account product id"
              placeholder="prod_…"
              value={store.accountProductId}
              onChange={(accountProductId) => {
                setFilters({ accountProductId });
              }}
            />
            <DateRangeFilter range={store} onChange={setFilters} />
          </>
        }
        search={store.search}
        onSearch={(search) => {
          setFilters({ search });
        }}
      />
    </Page>
  );
}

function ApplicationDrawer() {
  const { profileId, detailId, detail, detailLoading, detailError, closeDetail, showDetail } =
    useAccountApplicationsStore();
  const application = detail?.application ?? null;
  const names = detail?.names;
  return (
    <Drawer
      title={application === null ? 'Account application' : applicantsHeading(names?.applicants)}
      subtitle={
        <>
          {application === null ? null : <ApplicationStatus application={application} />}{' '}
          {detailId === null ? null : <CopyId id={detailId} what="application id" />}
        </>
      }
      onClose={closeDetail}
    >
      {detailLoading && detail === null ? <LoadingState label="Loading the application…" /> : null}
      {detailError === null ? null : <ErrorState what="Application" error={detailError} />}
      {detail !== null && application === null ? (
        <EmptyState title="Not in the cache yet">
          It is being fetched from the bank; it appears here when the sync is done.
        </EmptyState>
      ) : null}
      {application === null || profileId === null || detailId === null ? null : (
        <>
          <ReviewPanel
            profileId={profileId}
            kind="application"
            reference={detailId}
            name={itemLine('application', itemColumnsOf('application', detailId, application, names))}
          />
          <MalformedApplicationNote application={application} />
          <Section title="Application">
            <Properties
              items={[
                ['Status', <ApplicationStatus key="s" application={application} />],
                ['Ownership', <BankValue key="o" value={application.ownership_type} />],
                [
                  'Account number',
                  application.account_number === null ? (
                    application.status === 'approved' ? (
                      'not assigned'
                    ) : (
                      'once approved'
                    )
                  ) : (
                    <span key="n" className="mono">
                      <BankValue value={application.account_number} />
                    </span>
                  ),
                ],
                [
                  'Account',
                  application.account_id === null || application.account_id === undefined ? (
                    <BankValue key="a" value={application.account_id} />
                  ) : (
                    <span key="a" className="stack-tight">
                      <span>{accountLabel(names?.account)}</span>
                      <CopyId id={application.account_id} what="account id" />
                    </span>
                  ),
                ],
                [
                  'Account product',
                  <span key="p" className="stack-tight">
                    <span>{productLabel(application.product)}</span>
                    {typeof application.account_product_id === 'string' ? (
                      <CopyId id={application.account_product_id} what="product id" />
                    ) : (
                      <BankValue value={application.account_product_id} />
                    )}
                  </span>,
                ],
                [
                  'Deposit',
                  <span key="d" className="mono">
                    <BankValue value={application.deposit_id} />
                  </span>,
                ],
                [
                  'Applicants',
                  <span key="pp">
                    {(names?.applicants ?? []).length === 0
                      ? applicantsHeading(names?.applicants)
                      : (names?.applicants ?? []).map(applicantWithRoles).join('; ')}
                  </span>,
                ],
                [
                  'Created',
                  <BankValue key="c" value={application.created_at}>
                    {formatTimestamp}
                  </BankValue>,
                ],
                [
                  'Updated',
                  <BankValue key="u" value={application.updated_at}>
                    {formatTimestamp}
                  </BankValue>,
                ],
              ]}
            />
          </Section>
          {/* Keyed by the application: moving to another one forgets what was revealed. */}
          <ApplicantsSection
            key={detailId}
            profileId={profileId}
            applicationId={detailId}
            onOpenApplication={(id) => void showDetail(id)}
          />
          <Section title="Status history">
            <ol className="history">
              {detail?.history.map((version, index) => (
                <li key={`${version.observedAt}-${index}`} data-status={version.status}>
                  <StatusBadge status={version.status} />
                  <span className="history-times">
                    <span className="tabular">seen {formatTimestamp(version.observedAt)}</span>
                    <span className="faint tabular">bank updated {formatTimestamp(version.updatedAt)}</span>
                  </span>
                </li>
              ))}
            </ol>
          </Section>
          <Section title="Every field">
            <JsonView value={application} label="Every field" />
          </Section>
        </>
      )}
    </Drawer>
  );
}
