/**
 * A PagedRows over one cache read of the bridge: `list` answers pages by cursor; `count`,
 * when given, tells the exact total behind the same filter (asked once, in parallel).
 */
import { PagedRows, type PageAnswer, type PagedRowsOptions } from './pagedRows.ts';

export interface CacheReadPage<Row> {
  rows: Row[];
  nextCursor: string | null;
  asOf: string | null;
  total?: number | undefined;
}

export function cacheSource<Row>(
  list: (page: { cursor?: string; limit: number }) => Promise<CacheReadPage<Row>>,
  count?: () => Promise<{ count: number }>,
  options: PagedRowsOptions<Row> = {},
): PagedRows<Row> {
  const source = new PagedRows<Row>(async (cursor, limit) => {
    const page = await list(cursor === undefined ? { limit } : { cursor, limit });
    const answer: PageAnswer<Row> = { rows: page.rows, nextCursor: page.nextCursor, asOf: page.asOf };
    if (page.total !== undefined) answer.total = page.total;
    return answer;
  }, options);
  // Ask for the first page at once: the rows are on their way before the view has measured itself.
  source.ensure(0, 0);
  if (count !== undefined) {
    count().then(
      (result) => {
        source.setTotal(result.count);
      },
      () => undefined, // The list itself reports errors; without a count the list grows as it loads.
    );
  }
  return source;
}
