/**
 * The columns of the review report, shared by its HTML and its CSV so both read alike: per
 * kind, what a person reads of the item (itemColumns.ts), then its disposition, who gave it,
 * when, the note, the history in one line and, for a changed item, what changed.
 */
import { formatMoney, itemColumnsOf, type ItemColumns } from '../../../shared/review/itemColumns.ts';
import type { ReviewKind } from '../../../shared/review/reviewTerms.ts';
import { applicantLine } from '../applicants/applicantExport.ts';
import type { ReportedItem } from './reviewReport.ts';

export interface ReportColumn {
  header: string;
  value: (columns: ItemColumns, item: ReportedItem) => string;
  /** Right-aligned (amounts, numbers). */
  number?: boolean;
}

const text = (value: string | null): string => value ?? '';

/** The bank's time of the item, as stamped (UTC), without its seconds' fraction. */
function whenOf(columns: ItemColumns): string {
  if (columns.at === null) return text(columns.date);
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(columns.at);
  return match === null ? columns.at : `${match[1] ?? ''} ${match[2] ?? ''} UTC`;
}

export const ITEM_COLUMNS: Record<ReviewKind, ReportColumn[]> = {
  'pending-transaction': [
    { header: 'Date', value: (columns) => text(columns.date) },
    { header: 'Time', value: (columns) => whenOf(columns).slice(11) },
    { header: 'Account', value: (columns) => text(columns.account) },
    { header: 'Description', value: (columns) => text(columns.description) },
    { header: 'Amount', value: (columns) => formatMoney(columns.amount), number: true },
    { header: 'Type', value: (columns) => text(columns.type) },
    { header: 'Source', value: (columns) => text(columns.source) },
  ],
  application: [
    { header: 'Status', value: (columns) => text(columns.status) },
    { header: 'Product', value: (columns) => text(columns.product) },
    { header: 'Ownership', value: (columns) => text(columns.ownership) },
    {
      header: 'Applicants',
      // Names and masked personal data when the cache knows the applicants; their ids otherwise.
      value: (columns, item) =>
        item.applicants === undefined || item.applicants.length === 0
          ? text(columns.applicants)
          : item.applicants.map(applicantLine).join(' | '),
    },
    { header: 'Created', value: whenOf },
    { header: 'Updated', value: (columns) => text(columns.updated) },
  ],
  'webhook-send': [
    { header: 'Event', value: (columns) => text(columns.event) },
    { header: 'Object', value: (columns) => text(columns.object) },
    { header: 'Status', value: (columns) => text(columns.status) },
    { header: 'Attempt', value: (columns) => text(columns.attempt) },
    { header: 'Error', value: (columns) => text(columns.error) },
    { header: 'Created', value: whenOf },
  ],
};

export function dispositionOf(item: ReportedItem): string {
  const { review } = item;
  if (review.byRule !== null) return `flagged by rule ${review.byRule}`;
  if (review.state === 'changed') return `changed since ${review.disposition ?? 'reviewed'}`;
  return review.state;
}

export function whoOf(item: ReportedItem): string {
  const { review } = item;
  return review.byRule === null ? (review.reviewer ?? '') : `rule ${review.byRule}`;
}

/** Every step in one line each: "#2 2026-01-31T… cleared by A. Officer: note". */
export function historyLines(item: ReportedItem): string[] {
  return item.history.map((step) => {
    const who = step.byRule === null ? (step.reviewer ?? 'a sync') : `rule ${step.byRule}`;
    return `#${String(step.version)} ${step.at} ${step.state} by ${who}${step.note === null ? '' : `: ${step.note}`}`;
  });
}

/** A changed item's fields, before and after. */
export function changeLines(item: ReportedItem): string[] {
  return item.review.changes.map(
    (change) => `${change.field}: ${change.before ?? '(absent)'} → ${change.after ?? '(absent)'}`,
  );
}

export function columnsOf(item: ReportedItem): ItemColumns {
  return itemColumnsOf(item.review.kind, item.review.ref, item.record);
}
