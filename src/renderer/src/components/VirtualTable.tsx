/**
 * A table that draws only the rows on screen (plus a few above and below), at a fixed row
 * height, inside one absolutely positioned window moved by a single transform. It works
 * the same for 10 rows or 1,000,000: the DOM holds a few dozen rows, the data source
 * (PagedRows) holds a few pages, and pages are asked for as the window reaches them.
 *
 * ARIA grid pattern: the focusable scroller is the grid and names its active row with
 * aria-activedescendant, so a screen reader announces each row as the keyboard moves.
 * Keyboard: ↑/↓ or j/k move the selection (with Shift they extend it), Enter opens it,
 * Home/End and PageUp/PageDown jump. With `globalKeys`, j/k/Enter also work while nothing is
 * focused (or the screen's heading or text is), and never on a control, a link, or outside the
 * screen: see isScreenKeyTarget.
 */
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import type { PagedRows } from '../lib/pagedRows.ts';
import { isModalOpen, isScreenKeyTarget } from '../lib/keyboard.ts';
import { columnsThatFit } from './columnPriority.ts';

export interface Column<Row> {
  key: string;
  header: string;
  /** A CSS grid track: `120px`, `minmax(160px, 1fr)`. */
  width: string;
  align?: 'start' | 'end';
  render: (row: Row, index: number) => ReactNode;
  /**
   * 1 (or absent): kept at any width: the identifying column, the amount or status, the
   * review. 2, 3…: leave in that order, highest first, when the table is narrower than its
   * columns (columnPriority.ts); the drawer still shows them.
   */
  priority?: number;
  /** The row's identifying cell: a row header, so a screen reader names each row by it. */
  rowHeader?: boolean;
  /** Shown only when a person adds it (ListScreen's Columns): an id beside the names. */
  optional?: boolean;
}

export interface VirtualTableProps<Row> {
  label: string;
  columns: readonly Column<Row>[];
  source: PagedRows<Row>;
  rowKey?: (row: Row, index: number) => string;
  /** The active row: the one the keyboard is on, shown in the drawer. */
  selectedIndex: number | null;
  onSelect: (index: number) => void;
  /**
   * Shift+click, Shift+j/k/arrows/Home/End: extend the selection to `index` from where it
   * started. Without it the table selects one row at a time.
   */
  onExtend?: (index: number) => void;
  /** Rows selected besides the active one (a multi-row selection). */
  isSelected?: (index: number) => boolean;
  onOpen?: (index: number, row: Row) => void;
  /** More keys for the rows (a screen's own actions on the selection); true when handled. */
  onKey?: (key: string) => boolean;
  rowClassName?: (row: Row) => string | undefined;
  rowHeight?: number;
  overscan?: number;
  /**
   * j/k/Enter (and `onKey`) also work when nothing is focused: never on a control, a field or
   * a link, which keep Enter and Space for themselves.
   */
  globalKeys?: boolean;
  /** Shown when the list is known to be empty. */
  empty?: ReactNode;
  /** The focusable grid, so the list screen can give focus back to it. */
  gridRef?: RefObject<HTMLDivElement | null>;
}

/** Browsers cap an element's height near 33.5 million px; taller lists are scaled. */
const MAX_SCROLL_HEIGHT = 33_000_000;

function useSourceVersion<Row>(source: PagedRows<Row>): number {
  return useSyncExternalStore(
    useCallback((onChange: () => void) => source.subscribe(onChange), [source]),
    () => source.version,
  );
}

export function VirtualTable<Row>(props: VirtualTableProps<Row>) {
  const {
    label,
    columns: declared,
    source,
    selectedIndex,
    onSelect,
    onExtend,
    isSelected,
    onOpen,
    onKey,
    rowClassName,
    rowHeight = 32,
    overscan = 8,
    globalKeys = false,
    empty,
    gridRef,
  } = props;
  useSourceVersion(source);
  const ownScroller = useRef<HTMLDivElement>(null);
  const scroller = gridRef ?? ownScroller;
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(600);
  const [viewportWidth, setViewportWidth] = useState<number | null>(null);
  const columns = useMemo(() => columnsThatFit(declared, viewportWidth), [declared, viewportWidth]);
  const hidden = declared.filter((column) => !columns.includes(column));
  const frame = useRef<number | null>(null);

  const count = source.count;
  const fullHeight = count * rowHeight;
  const scrollHeight = Math.min(fullHeight, MAX_SCROLL_HEIGHT);
  // Over the cap, one pixel of scroll moves more than one pixel of rows.
  const scale =
    fullHeight > MAX_SCROLL_HEIGHT ? (fullHeight - viewportHeight) / Math.max(1, scrollHeight - viewportHeight) : 1;
  const virtualTop = scrollTop * scale;
  const scaledRef = useRef(false);
  scaledRef.current = scale !== 1;
  const first = Math.max(0, Math.floor(virtualTop / rowHeight) - overscan);
  const visible = Math.ceil(viewportHeight / rowHeight);
  const last = Math.min(count - 1, Math.floor(virtualTop / rowHeight) + visible + overscan);
  // One window holds the rows and moves as a whole: a single transform per change. (Measured
  // here against rows positioned one by one: the single window paints and lays out less.)
  const windowOffset = scrollTop + (first * rowHeight - virtualTop);

  useEffect(() => {
    source.ensure(first, Math.max(first, last));
  }, [source, first, last, count]);

  const showsRows = source.rowAt(first) !== undefined;
  useEffect(() => {
    // One mark per page load, for the benchmark's "time to first rows" (performance.now() origin).
    if (showsRows && performance.getEntriesByName('first-rows').length === 0) performance.mark('first-rows');
  }, [showsRows]);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element === null) return undefined;
    const measure = (): void => {
      // Unmeasured (hidden, or no layout at all): keep the default window rather than none.
      if (element.clientHeight > rowHeight) setViewportHeight(element.clientHeight - rowHeight);
      if (element.clientWidth > 0) setViewportWidth(element.clientWidth);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [rowHeight]);

  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const onScroll = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const element = scroller.current;
      if (element === null) return;
      // Unscaled, the window only moves when the top row changes: scroll positions inside a
      // row share one state, so most scroll frames render nothing at all.
      const top = element.scrollTop;
      setScrollTop(scaledRef.current ? top : Math.floor(top / rowHeight) * rowHeight);
    });
  }, [rowHeight]);

  /** Scrolls just enough to show row `index`. */
  const reveal = useCallback(
    (index: number) => {
      const element = scroller.current;
      if (element === null) return;
      const top = (index * rowHeight) / scale;
      const bottom = ((index + 1) * rowHeight) / scale;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (bottom > element.scrollTop + viewportHeight) element.scrollTop = bottom - viewportHeight;
    },
    [rowHeight, scale, viewportHeight],
  );

  // The active row set from outside (a list moving to the next row to review) is scrolled
  // into view like a keyboard move; a row already in view stays where it is.
  const revealRef = useRef(reveal);
  revealRef.current = reveal;
  useEffect(() => {
    if (selectedIndex !== null) revealRef.current(selectedIndex);
  }, [selectedIndex]);

  const move = useCallback(
    (to: number, extend: boolean) => {
      if (count === 0) return;
      const index = Math.max(0, Math.min(count - 1, to));
      if (extend && onExtend !== undefined) onExtend(index);
      else onSelect(index);
      reveal(index);
    },
    [count, onSelect, onExtend, reveal],
  );

  const handleKey = useCallback(
    (event: KeyboardEvent | ReactKeyboardEvent, global: boolean): boolean => {
      const current = selectedIndex ?? -1;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const extend = event.shiftKey;
      // From outside the grid only the letter keys and Enter: arrows and paging scroll the page.
      if (global && !['j', 'k', 'Enter'].includes(key)) return onKey?.(key) ?? false;
      switch (key) {
        case 'ArrowDown':
        case 'j':
          move(current + 1, extend);
          return true;
        case 'ArrowUp':
        case 'k':
          move(current <= 0 ? 0 : current - 1, extend);
          return true;
        case 'PageDown':
          move(current + visible, extend);
          return true;
        case 'PageUp':
          move(current - visible, extend);
          return true;
        case 'Home':
          move(0, extend);
          return true;
        case 'End':
          move(count - 1, extend);
          return true;
        case 'Enter': {
          if (selectedIndex === null || onOpen === undefined) return false;
          const row = source.rowAt(selectedIndex);
          if (row === undefined) return false;
          onOpen(selectedIndex, row);
          return true;
        }
        default:
          return onKey?.(key) ?? false;
      }
    },
    [selectedIndex, move, visible, count, onOpen, onKey, source],
  );

  useEffect(() => {
    if (!globalKeys) return undefined;
    const listener = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      // Focus on a control (or in the grid, which handles its own keys), or outside the screen:
      // the keys are not the list's.
      if (!isScreenKeyTarget(event.target) || isModalOpen()) return;
      if (handleKey(event, true)) event.preventDefault();
    };
    window.addEventListener('keydown', listener);
    return () => {
      window.removeEventListener('keydown', listener);
    };
  }, [globalKeys, handleKey]);

  const template = columns.map((column) => column.width).join(' ');
  const rows: ReactNode[] = [];
  for (let index = first; index <= last; index += 1) {
    const row = source.rowAt(index);
    rows.push(
      <TableRow
        key={index}
        index={index}
        row={row}
        columns={columns}
        active={index === selectedIndex}
        selected={index === selectedIndex || isSelected?.(index) === true}
        height={rowHeight}
        className={row === undefined ? undefined : rowClassName?.(row)}
        onSelect={onSelect}
        onExtend={onExtend}
        onOpen={onOpen}
      />,
    );
  }

  const knownEmpty = source.ready && source.total === 0;
  // Only a row in the DOM can be the active descendant; scrolled away, the grid itself is.
  const activeInDom = selectedIndex !== null && selectedIndex >= first && selectedIndex <= last;

  return (
    <div className="vtable" style={{ ['--vtable-columns' as string]: template }}>
      <div
        ref={scroller}
        className="vtable-scroller"
        role="grid"
        aria-label={label}
        aria-rowcount={count + 1}
        aria-colcount={columns.length}
        aria-multiselectable={onExtend === undefined ? undefined : true}
        aria-activedescendant={activeInDom ? `vtable-row-${selectedIndex}` : undefined}
        tabIndex={0}
        onScroll={onScroll}
        onKeyDown={(event) => {
          if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
          if (handleKey(event, false)) event.preventDefault();
        }}
      >
        <div className="vtable-header" role="row" aria-rowindex={1}>
          {columns.map((column) => (
            <div
              key={column.key}
              role="columnheader"
              className={column.align === 'end' ? 'vtable-cell align-end' : 'vtable-cell'}
            >
              {column.header}
            </div>
          ))}
        </div>
        <div className="vtable-body" role="rowgroup" style={{ height: scrollHeight }}>
          <div className="vtable-window" style={{ transform: `translateY(${windowOffset}px)` }}>
            {rows}
          </div>
        </div>
      </div>
      {knownEmpty && empty !== undefined ? <div className="vtable-empty">{empty}</div> : null}
      {hidden.length === 0 ? null : (
        <p className="vtable-hidden-columns">
          {hidden.map((column) => column.header).join(', ')}: in the drawer at this width
        </p>
      )}
    </div>
  );
}

interface TableRowProps<Row> {
  index: number;
  row: Row | undefined;
  columns: readonly Column<Row>[];
  active: boolean;
  selected: boolean;
  height: number;
  className: string | undefined;
  onSelect: (index: number) => void;
  onExtend: ((index: number) => void) | undefined;
  onOpen: ((index: number, row: Row) => void) | undefined;
}

function TableRowInner<Row>({
  index,
  row,
  columns,
  active,
  selected,
  height,
  className,
  onSelect,
  onExtend,
  onOpen,
}: TableRowProps<Row>) {
  if (row === undefined) {
    return (
      <div className="vtable-row is-placeholder" role="row" aria-rowindex={index + 2} style={{ height }}>
        {columns.map((column) => (
          <div key={column.key} role={column.rowHeader === true ? 'rowheader' : 'gridcell'} className="vtable-cell">
            <span className="skeleton" />
          </div>
        ))}
      </div>
    );
  }
  return (
    <div
      id={`vtable-row-${index}`}
      className={`vtable-row${selected ? ' is-selected' : ''}${active ? ' is-active' : ''}${className === undefined ? '' : ' ' + className}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      style={{ height }}
      onClick={(event) => {
        // Shift+click extends the selection and leaves the drawer as it is.
        if (event.shiftKey && onExtend !== undefined) {
          onExtend(index);
          return;
        }
        onSelect(index);
        onOpen?.(index, row);
      }}
    >
      {columns.map((column) => (
        <div
          key={column.key}
          role={column.rowHeader === true ? 'rowheader' : 'gridcell'}
          className={column.align === 'end' ? 'vtable-cell align-end' : 'vtable-cell'}
        >
          {column.render(row, index)}
        </div>
      ))}
    </div>
  );
}

const TableRow = memo(TableRowInner) as typeof TableRowInner;
