/**
 * A table that draws only the rows on screen (plus a few above and below), at a fixed row
 * height, inside one absolutely positioned window moved by a single transform. It works
 * the same for 10 rows or 1,000,000: the DOM holds a few dozen rows, the data source
 * (PagedRows) holds a few pages, and pages are asked for as the window reaches them.
 *
 * Keyboard: ↑/↓ or j/k move the selection, Enter opens it, Home/End jump. With
 * `globalKeys`, j/k/Enter work from anywhere on the screen that is not a text field.
 */
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import type { PagedRows } from '../lib/pagedRows.ts';
import { isTypingTarget } from '../lib/keyboard.ts';

export interface Column<Row> {
  key: string;
  header: string;
  /** A CSS grid track: `120px`, `minmax(160px, 1fr)`. */
  width: string;
  align?: 'start' | 'end';
  render: (row: Row, index: number) => ReactNode;
}

export interface VirtualTableProps<Row> {
  label: string;
  columns: readonly Column<Row>[];
  source: PagedRows<Row>;
  rowKey?: (row: Row, index: number) => string;
  selectedIndex: number | null;
  onSelect: (index: number) => void;
  onOpen?: (index: number, row: Row) => void;
  rowClassName?: (row: Row) => string | undefined;
  rowHeight?: number;
  overscan?: number;
  globalKeys?: boolean;
  /** Shown when the list is known to be empty. */
  empty?: ReactNode;
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
    columns,
    source,
    selectedIndex,
    onSelect,
    onOpen,
    rowClassName,
    rowHeight = 32,
    overscan = 8,
    globalKeys = false,
    empty,
  } = props;
  useSourceVersion(source);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(600);
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

  const move = useCallback(
    (to: number) => {
      if (count === 0) return;
      const index = Math.max(0, Math.min(count - 1, to));
      onSelect(index);
      reveal(index);
    },
    [count, onSelect, reveal],
  );

  const handleKey = useCallback(
    (event: KeyboardEvent | ReactKeyboardEvent): boolean => {
      const current = selectedIndex ?? -1;
      switch (event.key) {
        case 'ArrowDown':
        case 'j':
          move(current + 1);
          return true;
        case 'ArrowUp':
        case 'k':
          move(current <= 0 ? 0 : current - 1);
          return true;
        case 'PageDown':
          move(current + visible);
          return true;
        case 'PageUp':
          move(current - visible);
          return true;
        case 'Home':
          move(0);
          return true;
        case 'End':
          move(count - 1);
          return true;
        case 'Enter': {
          if (selectedIndex === null || onOpen === undefined) return false;
          const row = source.rowAt(selectedIndex);
          if (row === undefined) return false;
          onOpen(selectedIndex, row);
          return true;
        }
        default:
          return false;
      }
    },
    [selectedIndex, move, visible, count, onOpen, source],
  );

  useEffect(() => {
    if (!globalKeys) return undefined;
    const listener = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      if (event.target instanceof Node && scroller.current?.contains(event.target) === true) return; // handled by the grid itself
      if (!['j', 'k', 'Enter'].includes(event.key)) return;
      if (document.querySelector('[role="dialog"][aria-modal="true"]') !== null) return;
      if (handleKey(event)) event.preventDefault();
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
        selected={index === selectedIndex}
        height={rowHeight}
        className={row === undefined ? undefined : rowClassName?.(row)}
        onSelect={onSelect}
        onOpen={onOpen}
      />,
    );
  }

  const knownEmpty = source.ready && source.total === 0;

  return (
    <div
      className="vtable"
      role="grid"
      aria-label={label}
      aria-rowcount={count + 1}
      aria-colcount={columns.length}
      style={{ ['--vtable-columns' as string]: template }}
    >
      <div
        ref={scroller}
        className="vtable-scroller"
        tabIndex={0}
        onScroll={onScroll}
        onKeyDown={(event) => {
          if (handleKey(event)) event.preventDefault();
        }}
        aria-activedescendant={selectedIndex === null ? undefined : `vtable-row-${selectedIndex}`}
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
        <div className="vtable-body" style={{ height: scrollHeight }}>
          <div className="vtable-window" style={{ transform: `translateY(${windowOffset}px)` }}>
            {rows}
          </div>
        </div>
        {knownEmpty && empty !== undefined ? <div className="vtable-empty">{empty}</div> : null}
      </div>
    </div>
  );
}

interface TableRowProps<Row> {
  index: number;
  row: Row | undefined;
  columns: readonly Column<Row>[];
  selected: boolean;
  height: number;
  className: string | undefined;
  onSelect: (index: number) => void;
  onOpen: ((index: number, row: Row) => void) | undefined;
}

function TableRowInner<Row>({
  index,
  row,
  columns,
  selected,
  height,
  className,
  onSelect,
  onOpen,
}: TableRowProps<Row>) {
  if (row === undefined) {
    return (
      <div className="vtable-row is-placeholder" role="row" aria-rowindex={index + 2} style={{ height }}>
        {columns.map((column) => (
          <div key={column.key} role="gridcell" className="vtable-cell">
            <span className="skeleton" />
          </div>
        ))}
      </div>
    );
  }
  return (
    <div
      id={`vtable-row-${index}`}
      className={`vtable-row${selected ? ' is-selected' : ''}${className === undefined ? '' : ' ' + className}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      style={{ height }}
      onClick={() => {
        onSelect(index);
        onOpen?.(index, row);
      }}
    >
      {columns.map((column) => (
        <div
          key={column.key}
          role="gridcell"
          className={column.align === 'end' ? 'vtable-cell align-end' : 'vtable-cell'}
        >
          {column.render(row, index)}
        </div>
      ))}
    </div>
  );
}

const TableRow = memo(TableRowInner) as typeof TableRowInner;
