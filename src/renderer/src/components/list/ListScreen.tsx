/**
 * The one shape of every list screen (pending transactions, account applications, the
 * webhook send log, the listener's requests, the audit log): a toolbar of filters and a
 * search box, the virtualized grid with a single active row and a Shift-extended selection,
 * the keys of the list, and the detail drawer beside the list (never over the toolbar).
 *
 * Focus never gets lost: closing the drawer, or Escape in the search box, gives focus back
 * to the grid, whose active descendant is the row the drawer showed (or, for a drawer opened
 * by a button, to that button). The drawer sits beside the list, so it never covers a control.
 *
 * Screens add to it through `extensions`: more columns, more toolbar filters, and keys that
 * act on the selection (also offered as buttons while rows are selected).
 */
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { isChordPending } from '../../lib/keyboard.ts';
import type { PagedRows } from '../../lib/pagedRows.ts';
import { formatCount } from '../../lib/time.ts';
import { Button } from '../Button.tsx';
import { focusFirstLive, focusIsLost } from '../focus/focusTargets.ts';
import { ListView } from '../ListView.tsx';
import { SearchInput, Toolbar } from '../Page.tsx';
import { VirtualTable, type Column } from '../VirtualTable.tsx';
import { MAX_SELECTION, useRowSelection, type ListSelection } from './useRowSelection.ts';

export type { ListSelection } from './useRowSelection.ts';

/** A key acting on the selected rows: one letter, no modifier, as j/k are. */
export interface RowKeyBinding<Row> {
  key: string;
  /** What it does, in the bank's words ("Mark as cleared"): the button's name on the selection bar. */
  label: string;
  run: (selection: ListSelection<Row>) => void;
  /** False while it cannot run on this selection: the button stays focusable, aria-disabled. */
  enabled?: (selection: ListSelection<Row>) => boolean;
}

/** What a feature adds to a list screen it does not own (the review column, filter and keys). */
export interface ListExtension<Row> {
  columns?: readonly Column<Row>[];
  filters?: ReactNode;
  keys?: readonly RowKeyBinding<Row>[];
}

/** The words of a list's search box: its accessible name and its placeholder. */
interface ListSearchBox {
  label: string;
  placeholder: string;
}

/**
 * Where a screen keeps its list's active row: its feature store (so the drawer, rendered from
 * the store, follows the keyboard). Every list screen's store has these two.
 */
interface ActiveRowStore {
  selected: number | null;
  select: (index: number) => void;
}

export interface ListScreenProps<Row> {
  /** The grid's accessible name ("Pending transactions"). */
  label: string;
  /** How the loading and error states name the list; `label` unless told. */
  what?: string;
  /** Null while there is no list to show (no account yet): `placeholder` stands in its place. */
  source: PagedRows<Row> | null;
  columns: readonly Column<Row>[];
  /** The store that keeps the active row (its `selected` and `select`). */
  activeRow?: ActiveRowStore;
  /**
   * Or the active row and its setter, given one by one. A list given neither (no drawer to
   * follow the row) keeps its active row itself.
   */
  active?: number | null;
  onActivate?: (index: number) => void;
  onOpen?: (index: number, row: Row) => void;
  /** The open detail drawer, or nothing. */
  drawer?: ReactNode;
  filters?: ReactNode;
  /** A search box for the list: shown with `onSearch`. */
  searchBox?: ListSearchBox;
  /** The search in force. */
  search?: string;
  /** Gets the search once typing pauses (not at every letter). */
  onSearch?: (search: string) => void;
  /** Between the toolbar and the list: a sync's progress. */
  banner?: ReactNode;
  placeholder?: ReactNode;
  emptyTitle: string;
  emptyBody?: ReactNode;
  emptyAction?: ReactNode;
  footer?: ReactNode;
  fromBank?: boolean;
  rowClassName?: (row: Row) => string | undefined;
  extensions?: readonly (ListExtension<Row> | null | undefined)[];
}

/**
 * What a list is, fixed for its screen: its name, columns, how its rows are marked and what
 * its empty state says. Declared once beside the columns and spread into ListScreen, so a
 * screen's JSX holds only what changes (rows, active row, drawer, filters).
 */
export type ListDefinition<Row> = Pick<ListScreenProps<Row>, 'label' | 'columns'> &
  Partial<Pick<ListScreenProps<Row>, 'what' | 'rowClassName' | 'searchBox' | 'emptyTitle' | 'emptyBody' | 'fromBank'>>;

export function ListScreen<Row>(props: ListScreenProps<Row>) {
  const { label, source, columns, onOpen, drawer, searchBox, onSearch, extensions = [] } = props;
  const [ownActive, setOwnActive] = useState<number | null>(null);
  const active = props.activeRow?.selected ?? (props.active === undefined ? ownActive : props.active);
  const onActivate = props.activeRow?.select ?? props.onActivate ?? setOwnActive;
  const grid = useRef<HTMLDivElement>(null);
  const selection = useRowSelection(source, active, onActivate);
  const added = extensions.filter((extension) => extension != null);
  const bindings = added.flatMap((extension) => extension.keys ?? []);
  const allColumns =
    added.length === 0 ? columns : [...columns, ...added.flatMap((extension) => extension.columns ?? [])];

  const onKey = useCallback(
    (key: string): boolean => {
      if (key === 'Escape' && selection.count > 1) {
        selection.clear();
        return true;
      }
      // The letter of a "G then a letter" chord is the chord's (G C: Card art), not the list's.
      if (isChordPending()) return false;
      const binding = bindings.find((candidate) => candidate.key === key);
      if (binding === undefined || selection.count === 0) return false;
      if (binding.enabled?.(selection) !== false) binding.run(selection);
      return true;
    },
    [bindings, selection],
  );

  useFocusBackOnClose(drawer != null, grid);
  const root = useRef<HTMLDivElement>(null);
  const opened = useDrawerAnnouncement(drawer != null, root);

  return (
    <div className="list-screen" ref={root}>
      <div className="list-screen-main">
        <Toolbar>
          {props.filters}
          {added.map((extension, index) =>
            extension.filters == null ? null : <span key={index}>{extension.filters}</span>,
          )}
          {searchBox === undefined || onSearch === undefined ? null : (
            <SearchInput
              {...searchBox}
              value={props.search ?? ''}
              onChange={onSearch}
              onEscape={() => {
                focusFirstLive([grid.current]);
              }}
            />
          )}
        </Toolbar>
        {props.banner}
        {source === null ? (
          props.placeholder
        ) : (
          <ListView
            what={props.what ?? label}
            source={source}
            emptyTitle={props.emptyTitle}
            emptyBody={props.emptyBody}
            emptyAction={props.emptyAction}
            fromBank={props.fromBank}
            footer={
              <>
                <SelectionBar selection={selection} bindings={bindings} />
                {props.footer}
              </>
            }
          >
            <VirtualTable
              label={label}
              columns={allColumns}
              source={source}
              selectedIndex={active}
              onSelect={selection.select}
              onExtend={selection.extend}
              isSelected={selection.isSelected}
              onOpen={onOpen}
              onKey={onKey}
              rowClassName={props.rowClassName}
              gridRef={grid}
              globalKeys
            />
          </ListView>
        )}
      </div>
      {drawer}
      {/* Focus stays on the list when the drawer opens: this says that it did, and what it shows. */}
      <span className="visually-hidden" role="status">
        {opened}
      </span>
    </div>
  );
}

/**
 * Focus never gets lost when the drawer closes: if it was in the drawer (now gone) or nowhere,
 * it goes back to what opened the drawer when that is still live (the grid, whose active
 * descendant is the row the drawer showed; or a button such as "Open"), else to the grid.
 */
function useFocusBackOnClose(open: boolean, grid: RefObject<HTMLDivElement | null>): void {
  const opener = useRef<Element | null>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (!wasOpen.current && open) {
      // Opened now: remember from where (the drawer does not take focus when it opens).
      opener.current = focusIsLost() ? null : document.activeElement;
    } else if (wasOpen.current && !open) {
      if (focusIsLost()) focusFirstLive([opener.current, grid.current]);
      opener.current = null;
    }
    wasOpen.current = open;
  }, [open, grid]);
}

/**
 * "Details: CHECK 2939" once, when the drawer opens (not as j/k move it from row to row, which
 * the grid's active row already announces).
 */
function useDrawerAnnouncement(open: boolean, root: RefObject<HTMLDivElement | null>): string {
  const [text, setText] = useState('');
  useEffect(() => {
    if (!open) {
      setText('');
      return;
    }
    const title = root.current?.querySelector('.drawer-title')?.textContent.trim() ?? '';
    setText(title === '' ? 'Details shown' : `Details: ${title}`);
  }, [open, root]);
  return text;
}

/** How many rows are selected (announced as it changes) and what can be done with them. */
function SelectionBar<Row>({
  selection,
  bindings,
}: {
  selection: ListSelection<Row>;
  bindings: readonly RowKeyBinding<Row>[];
}) {
  const many = selection.count > 1;
  return (
    <>
      <span className="selection-count" role="status">
        {many
          ? `${formatCount(selection.count)} rows selected${selection.capped ? ` (at most ${formatCount(MAX_SELECTION)})` : ''}`
          : ''}
      </span>
      {many ? (
        <span className="faint selection-hint" aria-hidden="true">
          Esc clears
        </span>
      ) : null}
      {selection.count === 0
        ? null
        : bindings.map((binding) => (
            <Button
              key={binding.key}
              size="sm"
              variant="ghost"
              disabled={binding.enabled?.(selection) === false}
              aria-keyshortcuts={binding.key.toUpperCase()}
              onClick={() => {
                binding.run(selection);
              }}
            >
              {binding.label} <kbd aria-hidden="true">{binding.key.toUpperCase()}</kbd>
            </Button>
          ))}
    </>
  );
}
