/**
 * The review report as CSV: one summary line per kind and state, then one line per step of
 * each reported item's history (so a spreadsheet can filter by reviewer or date), with the
 * record as JSON in the item's first line. Cells are escaped against formula injection
 * (csvCell), like every export of the app.
 */
import { REVIEW_KINDS, REVIEW_STATES } from '../../../shared/review/reviewTerms.ts';
import { csvLine } from '../cache/csvExport.ts';
import type { ReviewReport } from './reviewReport.ts';

export function reportCsv(report: ReviewReport): string {
  const lines: string[] = [
    csvLine(['section', 'kind', 'ref', 'state', 'by rule', 'at', 'reviewer', 'note', 'changes', 'record']),
  ];
  for (const kind of REVIEW_KINDS) {
    for (const state of REVIEW_STATES) {
      lines.push(csvLine(['summary', kind, '', state, '', '', '', '', report.counts[kind][state], '']));
    }
  }
  for (const item of report.items) {
    item.history.forEach((step, index) => {
      lines.push(
        csvLine([
          'item',
          item.review.kind,
          item.review.ref,
          step.state,
          step.byRule ?? '',
          step.at,
          step.reviewer ?? '',
          step.note ?? '',
          step.changes
            .map((change) => `${change.field}: ${change.before ?? '(absent)'} → ${change.after ?? '(absent)'}`)
            .join('\n'),
          index === 0 ? JSON.stringify(item.record) : '',
        ]),
      );
    });
  }
  lines.push(
    csvLine([
      'audit chain',
      '',
      '',
      '',
      '',
      report.generatedAt,
      '',
      report.chain.ok
        ? `verified: ${String(report.chain.entries)} entries`
        : `NOT verified: ${report.chain.problem ?? ''}`,
      '',
      report.chain.head ?? '',
    ]),
  );
  return lines.join('');
}
