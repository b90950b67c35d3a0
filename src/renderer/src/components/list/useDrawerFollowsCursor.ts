/**
 * The one rule of every list screen's drawer: it shows the item the keys act on. The keys act
 * on the active row (ListScreen), so while the drawer is open it follows that row wherever it
 * moves: by j/k, by the next-to-review move after c/f/e, by a click. When the list is read
 * again (a filter, a sync), the active row is kept by its key if the new list still holds it,
 * and the drawer with it; if not, nothing is active and the drawer closes, so it never stands
 * beside the list showing an item no key acts on. An officer reading application A cannot
 * press j then e and escalate application B unseen.
 */
import { useCallback, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { PagedRows } from '../../lib/pagedRows.ts';

/** A list screen's detail drawer: what it shows now, and how it is moved or closed. */
export interface ListDrawer<Row> {
  /** The open drawer, or null while it is closed. */
  content: ReactNode | null;
  /** True when the open drawer shows this row (so moving onto it fetches nothing). */
  shows: (row: Row) => boolean;
  /** Opens the drawer on a row, or moves it there (fetching what it needs). */
  show: (row: Row, index: number) => void;
  /** Closes it. */
  close: () => void;
}

/** How far around its old place an active row is looked for in a list read again. */
const LOOK_AROUND = 400;

interface Kept {
  source: PagedRows<unknown>;
  key: string;
  index: number;
}

interface Wanted extends Kept {
  /** The active index the new list came with: kept over a read again, null after a filter. */
  carried: number | null;
}

function useVersion(source: PagedRows<unknown> | null): number {
  return useSyncExternalStore(
    useCallback((onChange: () => void) => (source === null ? () => undefined : source.subscribe(onChange)), [source]),
    () => source?.version ?? 0,
  );
}

export function useDrawerFollowsCursor<Row>(options: {
  source: PagedRows<Row> | null;
  active: number | null;
  setActive: (index: number | null) => void;
  drawer: ListDrawer<Row> | undefined;
  /** A row's identity across reads of the list (its id, its ref). */
  rowKey: ((row: Row) => string) | undefined;
}): void {
  const { source, active, setActive, drawer, rowKey } = options;
  const version = useVersion(source);
  const open = drawer?.content != null;
  const kept = useRef<Kept | null>(null);
  /** The row to find again in a list read anew (cleared once found, or once it is not there). */
  const wanted = useRef<Wanted | null>(null);
  const latest = useRef({ drawer, setActive, active });
  latest.current = { drawer, setActive, active };

  // Remember which item is active, by its key, in the list it is active in (not in rows that
  // only stand in for a list being read again).
  const activeRow = source === null || active === null ? undefined : source.rowAt(active);
  if (source !== null && !source.standingIn && active !== null && activeRow !== undefined && rowKey !== undefined) {
    kept.current = { source: source, key: rowKey(activeRow), index: active };
  } else if (source !== null && active === null && kept.current?.source === source) {
    // No row made active in the same list (a drawer opened by id): nothing to keep.
    kept.current = null;
  }

  // A list read anew: look for the item that was active in the one before.
  useEffect(() => {
    const before = kept.current;
    if (source === null || before === null || before.source === source) return;
    wanted.current = { ...before, carried: latest.current.active };
    kept.current = null;
    source.ensure(Math.max(0, before.index - LOOK_AROUND), before.index + LOOK_AROUND);
  }, [source]);

  useEffect(() => {
    const looking = wanted.current;
    if (looking === null || source === null || rowKey === undefined) return;
    if (active !== looking.carried) {
      // A person made another row active meanwhile (a key, a click): that is the item now.
      wanted.current = null;
      return;
    }
    // Still the old rows standing in, or the new ones not read yet: wait for them.
    if (source.standingIn || !source.ready) return;
    const last = Math.min(source.count - 1, looking.index + LOOK_AROUND);
    let missing = false;
    for (let index = Math.max(0, looking.index - LOOK_AROUND); index <= last; index += 1) {
      const row = source.rowAt(index);
      if (row === undefined) {
        missing = true;
        continue;
      }
      if (rowKey(row) === looking.key) {
        wanted.current = null;
        if (index !== active) latest.current.setActive(index);
        return;
      }
    }
    if (missing && source.loading) return;
    // Not in the new list: no row is active, so the drawer closes with it.
    wanted.current = null;
    if (active !== null) latest.current.setActive(null);
    latest.current.drawer?.close();
  }, [source, version, active, rowKey]);

  // While open, the drawer shows the active row.
  useEffect(() => {
    if (!open || source === null || active === null) return;
    const row = source.rowAt(active);
    const current = latest.current.drawer;
    if (row === undefined || current === undefined || current.shows(row)) return;
    current.show(row, active);
  }, [open, source, active, version]);
}
