/**
 * Pending transactions of one account, from the cache: filters, a virtualized table that
 * stays smooth at a million rows, the detail drawer, sync with progress, CSV export.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  changesBalance,
  PENDING_TRANSACTION_ORIGIN_FIELDS,
  PENDING_TRANSACTION_TYPE_SOURCES,
  PENDING_TRANSACTION_TYPES,
} from '../../../../shared/bank/index.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { DateRangeFilter } from '../../components/DateRangeFilter.tsx';
import { Drawer, Properties, Section } from '../../components/Drawer.tsx';
import { JsonView } from '../../components/JsonEditor.tsx';
import { fieldColumn } from '../../components/list/columns.tsx';
import { ListScreen, type ListDefinition } from '../../components/list/ListScreen.tsx';
import { BankValue } from '../../components/BankValue.tsx';
import { BankDateTime } from '../../components/BankDateTime.tsx';
import { Money } from '../../components/Money.tsx';
import { formatMoney } from '../../lib/money.ts';
import { Page, PageHeader, ToolbarSelect } from '../../components/Page.tsx';
import { ErrorState, StateMessage } from '../../components/States.tsx';
import { type Column } from '../../components/VirtualTable.tsx';
import { SyncStrip } from '../../components/SyncStrip.tsx';
import { useOnTransition } from '../../lib/useDebounced.ts';
import { useActiveProfileId } from '../../stores/profiles.ts';
import { useSyncJob } from '../../stores/sync.ts';
import { usePendingTransactionsReview } from '../review/listReviews.ts';
import { ReviewPanel } from '../review/ReviewPanel.tsx';
import { usePendingTransactionsStore, type CachedPendingTransaction } from './store.ts';

const TYPE_LABELS: Record<string, string> = { hold_release: 'hold release' };

/** The last characters of a trace id, and a hue from it, so linked rows line up by eye. */
function TraceChip({ traceId }: { traceId: string | null | undefined }) {
  if (traceId === null || traceId === undefined) return <BankValue value={traceId} />;
  let hash = 0;
  for (let index = 0; index < traceId.length; index += 1) hash = (hash * 31 + traceId.charCodeAt(index)) % 360;
  return (
    <span className="trace-chip mono" title={`trace_id ${traceId}`} style={{ ['--trace-hue' as string]: String(hash) }}>
      {traceId.slice(-6)}
    </span>
  );
}

function TypeCell({ row }: { row: CachedPendingTransaction }) {
  if (row.type === null || row.type === undefined) return <BankValue value={row.type} />;
  return <span className={`type-label type-${row.type}`}>{TYPE_LABELS[row.type] ?? row.type}</span>;
}

const COLUMNS: readonly Column<CachedPendingTransaction>[] = [
  {
    key: 'date',
    header: 'Date · local time',
    width: '168px',
    // The bank's date, then the local time of extended_timestamp: the list is ordered by that
    // timestamp, so "newest first" reads right even across midnight UTC.
    render: (row) => <BankDateTime date={row.date} at={row.extended_timestamp} />,
  },
  {
    key: 'desc',
    header: 'Description',
    width: 'minmax(160px, 1fr)',
    rowHeader: true,
    render: (row) => (
      <span className="cell-two">
        <span className="cell-main">
          <BankValue value={row.desc} />
        </span>
        <span className="cell-sub">
          <BankValue value={row.summary} />
        </span>
      </span>
    ),
  },
  { key: 'type', header: 'Type', width: '112px', priority: 3, render: (row) => <TypeCell row={row} /> },
  fieldColumn('source', 'Source', '72px', (row) => row.type_source, { className: 'muted', priority: 4 }),
  {
    key: 'amount',
    header: 'Amount',
    width: '120px',
    align: 'end',
    render: (row) => (
      <BankValue value={row.amount}>
        {(amount) =>
          changesBalance(row) ? (
            <Money amount={amount} />
          ) : (
            <span className="hold-amount" title="A hold does not change the balance">
              <Money amount={amount} muted />
            </span>
          )
        }
      </BankValue>
    ),
  },
  fieldColumn('balance', 'Balance', '132px', (row) => row.balance, {
    className: 'tabular muted',
    align: 'end',
    format: formatMoney,
    priority: 5,
  }),
  {
    key: 'trace',
    header: 'Trace',
    width: '84px',
    priority: 6,
    render: (row) => <TraceChip traceId={row.trace_id} />,
  },
];

const PENDING_TRANSACTIONS = {
  label: 'Pending transactions',
  columns: COLUMNS,
  // Holds are marked: they carry an amount but never change the balance.
  rowClassName: (row) => (changesBalance(row) ? undefined : 'is-hold'),
  searchBox: { label: 'Search descriptions and summaries', placeholder: 'Search text' },
  emptyTitle: 'No pending transactions',
} satisfies ListDefinition<CachedPendingTransaction>;

export function PendingTransactionsScreen() {
  const profileId = useActiveProfileId();
  const store = usePendingTransactionsStore();
  const { open, filters, setFilters, source, selected, drawerOpen, setDrawerOpen } = store;
  const job = useSyncJob('pendingTransactions', filters.accountId === '' ? null : filters.accountId, profileId);

  useEffect(() => {
    if (profileId !== null) void open(profileId);
  }, [profileId, open]);
  useOnTransition(job?.state, 'done', () => {
    store.reload();
    if (profileId !== null) void open(profileId);
  });

  const accountOptions = useMemo(() => {
    const options = store.accounts.map((account) => ({ value: account.id, label: `${account.name} · ${account.id}` }));
    // An account opened by id (while the bank's list is out of reach) is still shown as chosen.
    if (filters.accountId !== '' && !store.accounts.some((account) => account.id === filters.accountId)) {
      options.push({ value: filters.accountId, label: filters.accountId });
    }
    return options;
  }, [store.accounts, filters.accountId]);
  const row = selected === null || source === null ? undefined : source.rowAt(selected);
  const review = usePendingTransactionsReview();

  let placeholder;
  if (store.accountsError !== null && store.accounts.length === 0 && source === null) {
    placeholder = (
      <div className="stack">
        <ErrorState
          what="Accounts"
          error={store.accountsError}
          onRetry={() => profileId !== null && void open(profileId)}
        />
        <AccountById
          onOpen={(accountId) => {
            setFilters({ accountId });
          }}
        />
      </div>
    );
  } else if (!store.accountsLoading) {
    placeholder = (
      <StateMessage icon="transactions" title="No account yet">
        The profile has no accounts in the cache. Sync one to see its pending transactions.
      </StateMessage>
    );
  }
  const filtered =
    filters.search !== '' ||
    filters.type !== '' ||
    filters.typeSource !== '' ||
    filters.fromDate !== '' ||
    filters.toDate !== '' ||
    filters.review !== '';

  return (
    <Page>
      <PageHeader
        title="Pending transactions"
        description="Cached from the bank, newest first. Holds carry an amount but never change the balance."
        actions={
          <>
            <Button
              icon="download"
              onClick={() => void store.exportCsv()}
              busy={store.exporting}
              disabled={source === null}
            >
              Export CSV
            </Button>
            <Button
              variant="primary"
              icon="refresh"
              onClick={() => void store.sync()}
              disabled={filters.accountId === '' || job?.state === 'running'}
            >
              Sync
            </Button>
          </>
        }
      />
      <ListScreen
        {...PENDING_TRANSACTIONS}
        source={source}
        activeRow={store}
        onOpen={() => {
          setDrawerOpen(true);
        }}
        extensions={[review]}
        drawer={
          drawerOpen && row !== undefined ? (
            <TransactionDrawer
              profileId={profileId}
              row={row}
              related={relatedOf(row, source)}
              onClose={() => {
                setDrawerOpen(false);
              }}
            />
          ) : undefined
        }
        filters={
          <>
            <ToolbarSelect
              label="Account"
              value={filters.accountId}
              onChange={(accountId) => {
                setFilters({ accountId });
              }}
              options={accountOptions}
              emptyLabel={accountOptions.length === 0 ? 'No account' : null}
              className="select-account"
            />
            <ToolbarSelect
              label="Type"
              value={filters.type}
              onChange={(type) => {
                setFilters({ type: type as typeof filters.type });
              }}
              options={PENDING_TRANSACTION_TYPES.map((type) => ({ value: type, label: TYPE_LABELS[type] ?? type }))}
            />
            <ToolbarSelect
              label="Source"
              ariaLabel="Type source"
              value={filters.typeSource}
              onChange={(typeSource) => {
                setFilters({ typeSource: typeSource as typeof filters.typeSource });
              }}
              options={PENDING_TRANSACTION_TYPE_SOURCES}
            />
            <DateRangeFilter range={filters} onChange={setFilters} />
          </>
        }
        search={filters.search}
        onSearch={(search) => {
          setFilters({ search });
        }}
        banner={job === null ? null : <SyncStrip job={job} what="pending transactions" />}
        placeholder={placeholder}
        emptyBody={
          filters.review === 'changed'
            ? 'A pending transaction changed at the bank is no longer listed as it was (posted or released): changed ones are in the Review queue.'
            : filtered
              ? 'Nothing in the cache matches these filters.'
              : job?.state === 'running'
                ? // The first open of the local sandbox starts this sync by itself (main's firstOpenSync.ts).
                  'Fetching this account’s pending transactions from the bank for the first time: they appear here as soon as the sync is done.'
                : 'Nothing cached for this account yet. Sync it from the bank.'
        }
        emptyAction={
          job?.state === 'running' ? null : (
            <Button onClick={() => void store.sync()} icon="refresh">
              Sync from the bank
            </Button>
          )
        }
      />
    </Page>
  );
}

/** Without the bank's account list (offline at start), the cache can still be read by account id. */
function AccountById({ onOpen }: { onOpen: (accountId: string) => void }) {
  const [accountId, setAccountId] = useState('');
  return (
    <form
      className="row"
      style={{ justifyContent: 'center' }}
      aria-label="Open an account from the cache by id"
      onSubmit={(event) => {
        event.preventDefault();
        if (accountId.trim() !== '') onOpen(accountId.trim());
      }}
    >
      <input
        className="input mono"
        aria-label="Account id"
        placeholder="acct_…"
        value={accountId}
        onChange={(event) => {
          setAccountId(event.target.value);
        }}
      />
      <Button type="submit" disabled={accountId.trim() === ''}>
        Open from the cache
      </Button>
    </form>
  );
}

/** Rows held in memory that share the selected row's trace_id (hold, release, debit). */
function relatedOf(
  row: CachedPendingTransaction,
  source: ReturnType<typeof usePendingTransactionsStore.getState>['source'],
): CachedPendingTransaction[] {
  if (row.trace_id === null || source === null) return [];
  const related: CachedPendingTransaction[] = [];
  const around = 2000;
  const start = Math.max(0, (usePendingTransactionsStore.getState().selected ?? 0) - around);
  for (let index = start; index < start + 2 * around; index += 1) {
    const candidate = source.rowAt(index);
    if (candidate !== undefined && candidate !== row && candidate.trace_id === row.trace_id) related.push(candidate);
  }
  return related;
}

function TransactionDrawer({
  profileId,
  row,
  related,
  onClose,
}: {
  profileId: string | null;
  row: CachedPendingTransaction;
  related: CachedPendingTransaction[];
  onClose: () => void;
}) {
  const origins = PENDING_TRANSACTION_ORIGIN_FIELDS.filter((field) => row[field] !== null);
  const amount = (
    <BankValue value={row.amount}>{(sent) => <Money amount={sent} muted={!changesBalance(row)} />}</BankValue>
  );
  const field = (value: string | null | undefined, key: string, className?: string) => (
    <span key={key} className={className}>
      <BankValue value={value} />
    </span>
  );
  return (
    <Drawer
      title={row.desc ?? 'Pending transaction'}
      subtitle={
        <>
          {amount} · <BankValue value={row.date} />
          {changesBalance(row) ? null : (
            <>
              {' '}
              <Badge tone="warning">no balance effect</Badge>
            </>
          )}
        </>
      }
      onClose={onClose}
    >
      {profileId === null || row.ref === undefined ? null : (
        <ReviewPanel profileId={profileId} kind="pending-transaction" reference={row.ref} />
      )}
      <Section title="Transaction">
        <Properties
          items={[
            ['Amount', <span key="a">{amount}</span>],
            [
              'Balance after',
              <span key="b" className="tabular">
                <BankValue value={row.balance}>{formatMoney}</BankValue>
              </span>,
            ],
            ['Type', field(row.type, 'ty')],
            ['Type source', field(row.type_source, 'ts')],
            ['Category', field(row.category, 'ca')],
            ['Summary', field(row.summary, 'su')],
            ['Date', field(row.date, 'da')],
            ['Timestamp', field(row.extended_timestamp_precise, 't', 'mono')],
            ['Account', field(row.account_id, 'ac', 'mono')],
            ['Check number', field(row.check_number, 'cn')],
            ['Trace id', field(row.trace_id, 'tr', 'mono')],
          ]}
        />
      </Section>
      <Section title="Originating objects">
        {origins.length === 0 ? (
          <p className="muted">No originating object is named.</p>
        ) : (
          <Properties
            items={origins.map(
              (field) =>
                [
                  field,
                  <span key={field} className="mono">
                    <BankValue value={row[field]} />
                  </span>,
                ] as const,
            )}
          />
        )}
        {row.related_transfer_ids !== null &&
        row.related_transfer_ids !== undefined &&
        row.related_transfer_ids.length > 0 ? (
          <Properties
            items={[
              [
                'related_transfer_ids',
                <span key="r" className="mono">
                  {row.related_transfer_ids.join(', ')}
                </span>,
              ],
            ]}
          />
        ) : null}
      </Section>
      {row.trace_id === null || row.trace_id === undefined ? null : (
        <Section title="Linked by trace id">
          {related.length === 0 ? (
            <p className="muted">No other loaded row shares this trace id.</p>
          ) : (
            <ul className="linked-list">
              {related.map((other, index) => (
                <li key={`${other.extended_timestamp_precise}-${index}`}>
                  <span className="type-label">
                    <BankValue value={other.type} />
                  </span>
                  <span className="tabular muted">
                    <BankValue value={other.date} />
                  </span>
                  <BankValue value={other.amount}>
                    {(sent) => <Money amount={sent} muted={!changesBalance(other)} />}
                  </BankValue>
                </li>
              ))}
            </ul>
          )}
        </Section>
      )}
      <Section title="Every field">
        <JsonView value={row} label="Every field" />
      </Section>
    </Drawer>
  );
}
