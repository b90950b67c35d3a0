/**
 * Which columns a table shows at its width (issue 25, item 5). Each column declares a
 * priority: 1 is kept at any width (the row's identifying column, its amount or status, its
 * review), 2, 3… leave in that order, the highest first (the last declared among equals), until
 * the columns' least widths fit. What leaves stays readable in the drawer, which shows the
 * whole record. A table still too wide with its kept columns alone scrolls sideways.
 */

/** What a column needs for this: its grid track and its priority. */
export interface PrioritizedColumn {
  key: string;
  /** A CSS grid track: `120px`, `minmax(160px, 1fr)`. */
  width: string;
  /** 1 (or absent): always shown; higher: leaves first when the table is too narrow. */
  priority?: number;
}

/** The least width of a grid track in px: `120px` → 120, `minmax(160px, 1fr)` → 160; else 0. */
export function leastWidthOf(track: string): number {
  const text = track.trim();
  const minmax = /^minmax\(\s*([\d.]+)px\s*,/.exec(text);
  if (minmax?.[1] !== undefined) return Number(minmax[1]);
  const fixed = /^([\d.]+)px$/.exec(text);
  if (fixed?.[1] !== undefined) return Number(fixed[1]);
  return 0;
}

/**
 * The columns to show in `width` px (null: not measured yet, every column), in their declared
 * order. `spare` is what each row needs besides its tracks (borders, a scrollbar).
 */
export function columnsThatFit<Column extends PrioritizedColumn>(
  columns: readonly Column[],
  width: number | null,
  spare = 16,
): Column[] {
  if (width === null || width <= 0) return [...columns];
  const shown = new Set(columns);
  let needed = columns.reduce((sum, column) => sum + leastWidthOf(column.width), spare);
  // Highest priority number first; among equals, the last declared first.
  const leaving = columns
    .map((column, index) => ({ column, index, priority: column.priority ?? 1 }))
    .filter((entry) => entry.priority > 1)
    .sort((a, b) => b.priority - a.priority || b.index - a.index);
  for (const { column } of leaving) {
    if (needed <= width) break;
    shown.delete(column);
    needed -= leastWidthOf(column.width);
  }
  return columns.filter((column) => shown.has(column));
}
