/**
 * The shape of every cache read, as the IPC layer exposes it: the rows, an opaque cursor for
 * the next page, when the data was last synced, and where it came from.
 */
export interface CacheRead<Row> {
  rows: Row[];
  /** Pass back to get the next page; null on the last page. */
  nextCursor: string | null;
  /** ISO time of the last successful sync of this data; null if it was never synced. */
  asOf: string | null;
  source: 'cache';
  /** How many rows match the filters in all, when asked for (`withTotal`). */
  total?: number;
}

const PAGE_LIMIT_DEFAULT = 100;
const PAGE_LIMIT_MAX = 1000;

export function pageLimitOf(limit: number | undefined): number {
  if (limit === undefined) return PAGE_LIMIT_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) {
    throw new RangeError(`limit: must be a whole number from 1 to ${String(PAGE_LIMIT_MAX)}`);
  }
  return limit;
}
