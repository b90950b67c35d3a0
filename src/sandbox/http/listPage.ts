/**
 * The list envelope `{"data": [...], "page_next": <absolute URL> | null, "total_estimated": n}`
 * built from rows already serialized, so a page is joined, never re-encoded. The real service
 * adds `total_estimated` (conventions.md); we keep page_next beside it.
 */
export function pageNextOf(
  origin: string,
  path: string,
  query: Readonly<Record<string, string | number | undefined>>,
  cursor: string | null,
): string | null {
  if (cursor === null) return null;
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && name !== 'page_cursor') parameters.set(name, String(value));
  }
  parameters.set('page_cursor', cursor);
  return `${origin}${path}?${parameters.toString()}`;
}

export function listBody(rows: readonly string[], pageNext: string | null, totalEstimated: number): string {
  return `{"data":[${rows.join(',')}],"page_next":${JSON.stringify(pageNext)},"total_estimated":${String(totalEstimated)}}`;
}
