/**
 * The review report as CSV: one row per reported item with the columns of the report (the
 * human columns of every kind side by side, blank where a kind has none), then disposition,
 * who, when, note, history and changes; the record as cached in the last column. Cells are
 * escaped against formula injection (csvCell), like every export of the app. The last row says
 * whether the audit chain verified when the report was made.
 */
import { REVIEW_KINDS } from '../../../shared/review/reviewTerms.ts';
import { csvLine } from '../cache/csvExport.ts';
import { changeLines, columnsOf, dispositionOf, historyLines, ITEM_COLUMNS, whoOf } from './reportColumns.ts';
import type { ReviewReport } from './reviewReport.ts';

export function reportCsv(report: ReviewReport): string {
  // Every kind's columns once, in the kinds' order (Created and Status are shared by name).
  const headers: string[] = [];
  for (const kind of REVIEW_KINDS) {
    for (const column of ITEM_COLUMNS[kind]) if (!headers.includes(column.header)) headers.push(column.header);
  }
  const lines: string[] = [
    csvLine(['kind', 'ref', ...headers, 'disposition', 'by', 'at', 'note', 'history', 'changes', 'record as cached']),
  ];
  for (const item of report.items) {
    const columns = columnsOf(item);
    const own = ITEM_COLUMNS[item.review.kind];
    lines.push(
      csvLine([
        item.review.kind,
        item.review.ref,
        ...headers.map((header) => own.find((column) => column.header === header)?.value(columns, item) ?? ''),
        dispositionOf(item),
        whoOf(item),
        item.review.reviewedAt ?? item.review.updatedAt,
        item.review.note ?? '',
        historyLines(item).join('\n'),
        changeLines(item).join('\n'),
        JSON.stringify(item.record),
      ]),
    );
  }
  // Last, the audit chain as it verified when the report was made: a reader of the CSV alone
  // sees whether what it lists can be trusted (docs/security.md, N2).
  const verification = report.chain.ok
    ? `verified: ${String(report.chain.entries)} entries`
    : `NOT verified: ${report.chain.problem ?? ''}`;
  lines.push(
    csvLine([
      'audit chain',
      '',
      ...headers.map(() => ''),
      verification,
      '',
      report.generatedAt,
      '',
      '',
      '',
      report.chain.head ?? '',
    ]),
  );
  return lines.join('');
}
