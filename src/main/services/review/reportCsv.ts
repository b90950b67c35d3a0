/**
 * The review report as CSV, from the report's one layout (reportLayout.ts): one row per
 * reported item, what it is first (kind and heading in words, then its ref), the columns of
 * every kind side by side (blank where a kind has none), then disposition, who, when (local,
 * with the zone), note, history and changes; the record as cached in the last column. Money is
 * the bank's plain decimal (`-1234.56`) in its own column, so a spreadsheet sums it; the
 * formula guard (csvCell) applies to text only, never to an amount. The last row says whether
 * the audit chain verified when the report was made.
 */
import { csvCell } from '../cache/csvExport.ts';
import { KIND_WORDS, reportLayout, type LayoutCell, type LayoutColumn } from './reportLayout.ts';
import { reportClock } from './reportTimes.ts';
import type { ReviewReport } from './reviewReport.ts';

/** Review columns the CSV writes after the kinds' own, in this order. */
const REVIEW_HEADERS = ['Disposition', 'By', 'When', 'Note'];

/** A money cell is its plain decimal, written as is: a number, not text to guard. */
function cellOf(cell: LayoutCell | undefined, column: LayoutColumn | undefined): string {
  if (cell === undefined) return '';
  if (column?.kind === 'money' && cell.plain !== undefined && /^-?[0-9]+(\.[0-9]+)?$/.test(cell.plain))
    return cell.plain;
  return csvCell(cell.text);
}

function line(cells: readonly string[]): string {
  return `${cells.join(',')}\r\n`;
}

export function reportCsv(report: ReviewReport): string {
  const layout = reportLayout(report);
  const clock = reportClock(report.timeZone);
  // Every kind's own columns once, in the kinds' order (Status and Created are shared by name).
  const columns: LayoutColumn[] = [];
  for (const kind of layout.kinds) {
    for (const column of kind.table.columns) {
      if (REVIEW_HEADERS.includes(column.header) || columns.some((known) => known.header === column.header)) continue;
      columns.push(column);
    }
  }
  const lines: string[] = [
    line(
      [
        'Kind',
        'Item',
        'Ref',
        ...columns.map((column) => column.header),
        ...REVIEW_HEADERS,
        'History',
        'Changes',
        'Record as cached',
      ].map((header) => csvCell(header)),
    ),
  ];
  for (const kind of layout.kinds) {
    for (const item of kind.items) {
      lines.push(
        line([
          csvCell(KIND_WORDS[item.kind].one),
          csvCell(item.heading),
          csvCell(item.ref),
          ...columns.map((column) => cellOf(item.cells.get(column.header), column)),
          ...REVIEW_HEADERS.map((header) => cellOf(item.cells.get(header), undefined)),
          csvCell(
            item.history.rows
              .map((row) =>
                row
                  .map((cell) => cell.text)
                  .filter((part) => part !== '')
                  .join(' · '),
              )
              .join('\n'),
          ),
          csvCell(
            item.changes === null
              ? ''
              : item.changes.rows.map((row) => row.map((cell) => cell.text).join(' → ')).join('\n'),
          ),
          csvCell(JSON.stringify(item.record)),
        ]),
      );
    }
  }
  // Last, the audit chain as it verified when the report was made: a reader of the CSV alone
  // sees whether what it lists can be trusted (docs/security.md, N2).
  const verification = layout.chain.ok
    ? `verified: ${String(layout.chain.entries)} entries`
    : `NOT verified: ${layout.chain.problem ?? ''}`;
  lines.push(
    line([
      csvCell('Audit chain'),
      csvCell(verification),
      '',
      ...columns.map(() => ''),
      '',
      '',
      csvCell(clock.stamp(report.generatedAt)),
      '',
      '',
      '',
      csvCell(layout.chain.head ?? ''),
    ]),
  );
  return lines.join('');
}
