/**
 * The states around a cached list: loading until the first page answers, an error (or
 * "not available") in its place, an empty message, and a footer saying how many rows there
 * are and how old they are. Offline, a notice says the rows come from the cache.
 */
import { useCallback, useSyncExternalStore, type ReactNode } from 'react';
import { uiErrorOf } from '../lib/errors.ts';
import type { PagedRows } from '../lib/pagedRows.ts';
import { ageOf, formatCount, formatTimestamp } from '../lib/time.ts';
import { useNow } from '../frame/TopBar.tsx';
import { isOffline, useOnlineStatus } from '../stores/profiles.ts';
import { EmptyState, ErrorState, LoadingState, NOT_SYNCED_YET, OfflineNotice } from './States.tsx';

function useSource<Row>(source: PagedRows<Row>): number {
  return useSyncExternalStore(
    useCallback((onChange: () => void) => source.subscribe(onChange), [source]),
    () => source.version,
  );
}

export interface ListViewProps<Row> {
  what: string;
  source: PagedRows<Row>;
  emptyTitle: string;
  emptyBody?: ReactNode;
  emptyAction?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** False for local data that is never synced from the bank (audit log, listener requests). */
  fromBank?: boolean;
}

export function ListView<Row>({
  what,
  source,
  emptyTitle,
  emptyBody,
  emptyAction,
  children,
  footer,
  fromBank = true,
}: ListViewProps<Row>) {
  useSource(source);
  const online = useOnlineStatus();
  const now = useNow();
  const offline = isOffline(online);
  const asOf = source.asOf;
  let body: ReactNode;
  if (source.error !== null && !source.ready) {
    body = (
      <ErrorState
        what={what}
        error={uiErrorOf(source.error)}
        onRetry={() => {
          source.retry();
        }}
      />
    );
  } else if (!source.ready) {
    body = <LoadingState label={`Loading ${what.toLowerCase()}…`} />;
  } else if (source.total === 0) {
    body = (
      <EmptyState title={emptyTitle} action={emptyAction}>
        {emptyBody}
        {offline ? <p className="muted">You are offline: only cached data can be shown.</p> : null}
      </EmptyState>
    );
  } else {
    body = children;
  }
  const total = source.total;
  return (
    <div className="list-view">
      {offline && fromBank ? (
        <OfflineNotice asOf={asOf === null ? null : `${formatTimestamp(asOf)} (${ageOf(asOf, now)})`} />
      ) : null}
      {source.error !== null && source.ready ? (
        <ErrorState
          what={what}
          error={uiErrorOf(source.error)}
          onRetry={() => {
            source.retry();
          }}
        />
      ) : null}
      <div className="list-body">{body}</div>
      {/* Only the row count is live: the age of the cache changes by itself and would chatter. */}
      <div className="list-footer">
        <span className="tabular" role="status">
          {source.ready
            ? total === null
              ? `${formatCount(source.count - source.pageSize)}+ rows`
              : `${formatCount(total)} ${total === 1 ? 'row' : 'rows'}`
            : '—'}
        </span>
        {fromBank ? (
          <>
            <span className="list-footer-sep" aria-hidden="true">
              ·
            </span>
            <span title={asOf === null ? undefined : formatTimestamp(asOf)}>
              {asOf === null ? `${NOT_SYNCED_YET}: Sync to fetch` : `cached, as of ${ageOf(asOf, now)}`}
            </span>
          </>
        ) : null}
        {source.loading && source.ready ? <span className="spinner" aria-label="Loading more" /> : null}
        <span className="list-footer-spacer" />
        {footer}
      </div>
    </div>
  );
}
