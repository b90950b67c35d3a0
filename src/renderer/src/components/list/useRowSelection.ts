/**
 * The rows a list screen acts on: the active row (the keyboard's place, what the drawer
 * shows; kept by the screen's store) and, with Shift, a run of rows from where the
 * selection started. Indices, not rows: the list is paged, and rows are looked up when an
 * action runs.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PagedRows } from '../../lib/pagedRows.ts';

/** A selection larger than this is cut at it: rows are looked up one page window at a time. */
export const MAX_SELECTION = 1000;

export interface ListSelection<Row> {
  /** How many rows are selected: 0, 1 (the active row) or the run's length. */
  count: number;
  /** The selected indices, in list order. */
  indices: readonly number[];
  /** The selected rows that are loaded (all of them, for a selection made on screen). */
  rows: () => Row[];
  /** True when the last Shift move was cut at MAX_SELECTION. */
  capped: boolean;
  clear: () => void;
}

export interface RowSelection<Row> extends ListSelection<Row> {
  select: (index: number) => void;
  extend: (index: number) => void;
  isSelected: (index: number) => boolean;
}

interface Run {
  anchor: number;
  to: number;
  capped: boolean;
}

export function useRowSelection<Row>(
  source: PagedRows<Row> | null,
  active: number | null,
  onActivate: (index: number) => void,
): RowSelection<Row> {
  const [run, setRun] = useState<Run | null>(null);
  // Another list (a new filter, another account) starts without a selection.
  useEffect(() => {
    setRun(null);
  }, [source]);
  useEffect(() => {
    if (active === null) setRun(null);
  }, [active]);

  const select = useCallback(
    (index: number) => {
      setRun(null);
      onActivate(index);
    },
    [onActivate],
  );
  const extend = useCallback(
    (index: number) => {
      const anchor = run?.anchor ?? active ?? index;
      const limit = MAX_SELECTION - 1;
      const to = Math.max(anchor - limit, Math.min(anchor + limit, index));
      setRun({ anchor, to, capped: to !== index });
      onActivate(to);
    },
    [run, active, onActivate],
  );
  const clear = useCallback(() => {
    setRun(null);
  }, []);

  return useMemo(() => {
    const low = run === null ? active : Math.min(run.anchor, run.to);
    const high = run === null ? active : Math.max(run.anchor, run.to);
    const indices: number[] = [];
    if (low !== null && high !== null) for (let index = low; index <= high; index += 1) indices.push(index);
    return {
      count: indices.length,
      indices,
      capped: run?.capped === true,
      rows: () => {
        const rows: Row[] = [];
        for (const index of indices) {
          const row = source?.rowAt(index);
          if (row !== undefined) rows.push(row);
        }
        return rows;
      },
      clear,
      select,
      extend,
      isSelected: (index: number) => low !== null && high !== null && index >= low && index <= high,
    };
  }, [run, active, source, clear, select, extend]);
}
