/**
 * What was made from this app (documents created, card art uploaded), beside the form that
 * makes it: loading until the first answer, the error with "Try again" in its place, an
 * empty message, then the rows. The stores ask for at most 100, so a plain table is enough;
 * the virtualized one is for the long cached lists.
 */
import type { ReactNode } from 'react';
import type { UiError } from '../lib/errors.ts';
import { Panel } from './Page.tsx';
import { EmptyState, ErrorState, LoadingState } from './States.tsx';

/** What a feature's store keeps of its history: the rows, and how loading them went. */
export interface HistoryState<Row> {
  history: readonly Row[];
  historyLoading: boolean;
  historyError: UiError | null;
}

/** How one history is shown: its words, its columns and the cells of one row. */
export interface HistoryView<Row> {
  title: string;
  /** Names the list in its error: "Could not load document history". */
  what: string;
  /** The table's accessible name. */
  label: string;
  emptyTitle: string;
  emptyBody: string;
  columns: readonly string[];
  /** The cells of one row, in the order of `columns`. */
  cells: (row: Row) => ReactNode;
}

export interface HistoryPanelProps<Row extends { id: string }> {
  view: HistoryView<Row>;
  history: HistoryState<Row>;
  onRetry: () => void;
}

export function HistoryPanel<Row extends { id: string }>({ view, history, onRetry }: HistoryPanelProps<Row>) {
  const rows = history.history;
  return (
    <Panel title={view.title} className="panel-flush">
      {history.historyError !== null ? (
        <ErrorState what={view.what} error={history.historyError} onRetry={onRetry} />
      ) : history.historyLoading && rows.length === 0 ? (
        <LoadingState />
      ) : rows.length === 0 ? (
        <EmptyState title={view.emptyTitle}>{view.emptyBody}</EmptyState>
      ) : (
        <table className="table" aria-label={view.label}>
          <thead>
            <tr>
              {view.columns.map((column) => (
                <th key={column}>{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>{view.cells(row)}</tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}
