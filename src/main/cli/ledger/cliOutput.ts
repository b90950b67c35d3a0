/** Plain-text output of the command line: small tables and "how old is this". */
export function ago(asOf: string | null, now: Date = new Date()): string {
  if (asOf === null) return 'never synced';
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(asOf)) / 1000));
  const spoken =
    seconds < 60
      ? `${String(seconds)} s`
      : seconds < 3600
        ? `${String(Math.round(seconds / 60))} min`
        : seconds < 86400
          ? `${String(Math.round(seconds / 3600))} h`
          : `${String(Math.round(seconds / 86400))} days`;
  return `synced ${spoken} ago (${asOf})`;
}

/** Left-aligned columns, each as wide as its widest cell (cells are cut at 48 characters). */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const cut = (text: string): string => (text.length > 48 ? text.slice(0, 47) + '…' : text);
  const cells = [headers, ...rows].map((row) => row.map((cell) => cut(cell.replace(/\s+/g, ' '))));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
