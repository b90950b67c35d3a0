/**
 * The one layout of the review report (issue 38): what the auditor reads, decided once and
 * drawn three ways, the HTML page (reportHtml.ts), the PDF printed from it, and the CSV
 * (reportCsv.ts). Everything a person reads is in words: times local with their zone
 * (reportTimes.ts), kinds and states spelled out, accounts and applicants by name, items headed
 * by what they are; refs stay beside them, small. Each table says which of its columns are wide
 * (the note, the description) and whether it needs a landscape page; money stays the bank's
 * decimal in its own cell, formatted for the page and plain for the spreadsheet.
 */
import { disclosureText } from '../../../shared/personalData/exportDisclosure.ts';
import { centsOfTyped } from '../../../shared/review/amountInput.ts';
import { formatMoney, itemColumnsOf, itemLine, type ItemColumns } from '../../../shared/review/itemColumns.ts';
import { codeWords } from '../../../shared/review/itemNames.ts';
import { REVIEW_KINDS, REVIEW_STATES, type ReviewKind, type ReviewState } from '../../../shared/review/reviewTerms.ts';
import { applicantLine } from '../applicants/applicantExport.ts';
import { reportClock, type ReportClock } from './reportTimes.ts';
import type { ReportedItem, ReviewReport } from './reviewReport.ts';

/** How a cell is drawn and exported: text (guarded in CSV), money (plain in CSV), a count. */
type CellKind = 'text' | 'money' | 'count';

export interface LayoutColumn {
  header: string;
  kind: CellKind;
  /** Its share of the table's width (the note and the description take more). */
  weight: number;
}

export interface LayoutCell {
  /** What the page shows. */
  text: string;
  /** For money: the bank's decimal as is (`-1234.56`), what the CSV writes. */
  plain?: string;
}

export interface LayoutTable {
  caption: string;
  columns: LayoutColumn[];
  rows: LayoutCell[][];
  /** Too many columns for a portrait page: printed on landscape pages. */
  landscape: boolean;
}

export interface LayoutItem {
  kind: ReviewKind;
  /** What it is, names first: "WIRE IN GLOBEX CORP · -1,234.56 · 2025-12-31". */
  heading: string;
  ref: string;
  /** "escalated", "flagged by rule Large debits", "changed since cleared". */
  disposition: string;
  note: string | null;
  /** Its row of the kind's table, by column header (the CSV's cells). */
  cells: Map<string, LayoutCell>;
  changes: LayoutTable | null;
  history: LayoutTable;
  /** For the appendix: where the record came from, and the record itself. */
  recordSource: string;
  record: unknown;
}

export interface LayoutKind {
  kind: ReviewKind;
  title: string;
  table: LayoutTable;
  items: LayoutItem[];
}

export interface ReportLayout {
  title: string;
  profileName: string;
  /** "2026-11-01 to 2026-12-01 (not included)", "every review to now". */
  period: string;
  /** The sentence that says which zone the times are in. */
  zoneSentence: string;
  made: string;
  madeBy: string;
  disclosure: string;
  facts: [string, string][];
  counts: LayoutTable;
  kinds: LayoutKind[];
  chain: { ok: boolean; entries: number; lastId: number; head: string | null; problem: string | null };
}

export const KIND_WORDS: Record<ReviewKind, { one: string; many: string }> = {
  'pending-transaction': { one: 'Pending transaction', many: 'Pending transactions' },
  application: { one: 'Account application', many: 'Account applications' },
  'webhook-send': { one: 'Webhook send', many: 'Webhook sends' },
  'screening-hit': { one: 'Screening hit', many: 'Screening hits' },
};

const STATE_WORDS: Record<ReviewState, string> = {
  cleared: 'Cleared',
  flagged: 'Flagged',
  escalated: 'Escalated',
  changed: 'Changed since review',
};

const text = (value: string | null | undefined): LayoutCell => ({ text: value ?? '' });
const money = (amount: string | null): LayoutCell => ({ text: formatMoney(amount), plain: amount ?? '' });
const count = (value: number): LayoutCell => ({ text: value.toLocaleString('en-US'), plain: String(value) });

interface KindColumn {
  column: LayoutColumn;
  value: (columns: ItemColumns, item: ReportedItem, clock: ReportClock) => LayoutCell;
}

function column(header: string, weight: number, kind: CellKind = 'text'): LayoutColumn {
  return { header, kind, weight };
}

/** Per kind, the columns a person reads of the item, names first. */
const KIND_COLUMNS: Record<ReviewKind, KindColumn[]> = {
  'pending-transaction': [
    { column: column('Date', 1.1), value: (columns) => text(columns.date) },
    { column: column('Time', 1), value: (columns, _item, clock) => text(clock.time(columns.at)) },
    { column: column('Account', 1.6), value: (columns) => text(columns.accountName ?? columns.account) },
    { column: column('Description', 2.2), value: (columns) => text(columns.description) },
    { column: column('Amount', 1.2, 'money'), value: (columns) => money(columns.amount) },
    { column: column('Type', 1), value: (columns) => text(codeWords(columns.type)) },
    { column: column('Source', 0.9), value: (columns) => text(codeWords(columns.source)) },
  ],
  application: [
    { column: column('Applicant', 1.7), value: (columns) => text(columns.applicantName) },
    { column: column('Status', 1.1), value: (columns) => text(codeWords(columns.status)) },
    { column: column('Product', 1.3), value: (columns) => text(columns.productName) },
    { column: column('Ownership', 0.9), value: (columns) => text(codeWords(columns.ownership)) },
    {
      column: column('Applicants', 2.6),
      // Names and masked personal data when the cache knows the applicants; how many otherwise.
      value: (columns, item) =>
        text(
          item.applicants === undefined || item.applicants.length === 0
            ? columns.applicants
            : item.applicants.map(applicantLine).join('; '),
        ),
    },
    { column: column('Created', 1.3), value: (columns, _item, clock) => text(clock.stamp(columns.at)) },
  ],
  'webhook-send': [
    { column: column('Event', 1.3), value: (columns) => text(columns.event) },
    { column: column('Object', 1.5), value: (columns) => text(columns.object) },
    { column: column('Status', 1), value: (columns) => text(codeWords(columns.status)) },
    { column: column('Attempt', 0.9), value: (columns) => text(columns.attempt) },
    { column: column('Error', 2), value: (columns) => text(columns.error) },
    { column: column('Created', 1.3), value: (columns, _item, clock) => text(clock.stamp(columns.at)) },
  ],
  'screening-hit': [
    { column: column('Applicant', 1.7), value: (columns) => text(columns.applicantName) },
    { column: column('List entry', 2.4), value: (columns) => text(columns.description) },
    { column: column('Score', 0.7), value: (columns) => text(columns.score) },
    { column: column('State', 1.6), value: (columns) => text(columns.status) },
    { column: column('Found', 1.3), value: (columns, _item, clock) => text(clock.stamp(columns.at)) },
  ],
};

/** The review's columns, after the item's own. */
const REVIEW_COLUMNS: LayoutColumn[] = [
  column('Disposition', 1.3),
  column('By', 1.1),
  column('When', 1.3),
  column('Note', 3),
];

function dispositionWords(item: ReportedItem): string {
  const { review } = item;
  if (review.byRule !== null) return `flagged by rule ${review.byRule}`;
  if (review.state === 'changed') return `changed since ${review.disposition ?? 'reviewed'}`;
  return review.state;
}

function whoWords(item: ReportedItem): string {
  const { review } = item;
  return review.byRule === null ? (review.reviewer ?? '') : `rule ${review.byRule}`;
}

function columnsOf(item: ReportedItem): ItemColumns {
  return itemColumnsOf(item.review.kind, item.review.ref, item.record, item.names);
}

/** What an item is, names first; said plainly when the record says nothing. */
function headingOf(item: ReportedItem, columns: ItemColumns): string {
  const { kind } = item.review;
  if (kind === 'pending-transaction') {
    const parts = [columns.description, formatMoney(columns.amount), columns.date].filter(
      (part) => part !== null && part !== '',
    );
    if (parts.length > 0) return parts.join(' · ');
  } else {
    const line = itemLine(kind, columns);
    if (line !== '') return line;
  }
  return `${KIND_WORDS[kind].one} the cache does not describe`;
}

function changeLine(change: { field: string; before: string | null; after: string | null }): string {
  return `${change.field}: ${change.before ?? '(absent)'} → ${change.after ?? '(absent)'}`;
}

/**
 * A changed field as read: an application's applicant by name, not by id
 * (`applicants.apsn_….physical_address.city` → `Frances Knuth › physical address › city`).
 */
function fieldWords(field: string, item: ReportedItem): string {
  const match = /^applicants\.([^.]+)\.?(.*)$/.exec(field);
  if (match === null) return field.replace(/_/g, ' ').replace(/\./g, ' › ');
  const [, applicantId = '', rest = ''] = match;
  const applicant = item.applicants?.find((candidate) => candidate.applicant_id === applicantId);
  const who = applicant?.name ?? (applicant === undefined ? 'an applicant' : `the ${applicant.kind}`);
  return [
    who,
    ...rest
      .split('.')
      .filter((part) => part !== '')
      .map((part) => part.replace(/_/g, ' ')),
  ].join(' › ');
}

function layoutItem(item: ReportedItem, clock: ReportClock): LayoutItem {
  const columns = columnsOf(item);
  const { review } = item;
  const cells = new Map<string, LayoutCell>();
  for (const own of KIND_COLUMNS[review.kind]) cells.set(own.column.header, own.value(columns, item, clock));
  cells.set('Disposition', text(dispositionWords(item)));
  cells.set('By', text(whoWords(item)));
  cells.set('When', text(clock.stamp(review.reviewedAt ?? review.updatedAt)));
  cells.set('Note', text(review.note));
  return {
    kind: review.kind,
    heading: headingOf(item, columns),
    ref: review.ref,
    disposition: dispositionWords(item),
    note: review.note,
    cells,
    changes:
      review.changes.length === 0
        ? null
        : {
            caption: 'What changed since the review, field by field',
            columns: [column('Field', 1.2), column('As reviewed', 2), column('As cached now', 2)],
            rows: review.changes.map((change) => [
              text(fieldWords(change.field, item)),
              text(change.before ?? '(absent)'),
              text(change.after ?? '(absent)'),
            ]),
            landscape: false,
          },
    history: {
      caption: 'History',
      columns: [
        column('#', 0.4, 'count'),
        column('When', 1.5),
        column('State', 1),
        column('By', 1.1),
        column('Note', 2.6),
        column('Changes', 2),
      ],
      rows: item.history.map((step) => [
        count(step.version),
        text(clock.stamp(step.at)),
        text(step.byRule === null ? step.state : `flagged by rule ${step.byRule}`),
        text(step.byRule === null ? (step.reviewer ?? 'a sync') : `rule ${step.byRule}`),
        text(step.note),
        text(step.changes.map((change) => changeLine({ ...change, field: fieldWords(change.field, item) })).join('\n')),
      ]),
      landscape: false,
    },
    recordSource: item.recordSource === 'cache' ? 'as cached' : 'as reviewed; no longer in the cache',
    record: item.record,
  };
}

/** The sum of the flagged and escalated transactions' amounts (absolute), exact in cents. */
function flaggedAmount(report: ReviewReport): { count: number; total: string } {
  let cents = 0n;
  let found = 0;
  for (const item of report.items) {
    if (item.review.kind !== 'pending-transaction' || item.review.state === 'changed') continue;
    const typed = centsOfTyped(columnsOf(item).amount ?? '');
    if (typed === null) continue;
    cents += BigInt(typed);
    found += 1;
  }
  const whole = cents / 100n;
  const fraction = (cents % 100n).toString().padStart(2, '0');
  return { count: found, total: formatMoney(`${whole.toString()}.${fraction}`) };
}

function reviewersOf(report: ReviewReport): string[] {
  const names = new Set<string>();
  for (const item of report.items)
    for (const step of item.history) if (step.reviewer !== null) names.add(step.reviewer);
  return [...names].sort();
}

function periodOf(report: ReviewReport): string {
  const from = report.from ?? 'the first review';
  return report.to === null ? `${from} to now` : `${from} to ${report.to} (not included)`;
}

export function reportLayout(report: ReviewReport): ReportLayout {
  const clock = reportClock(report.timeZone);
  const flagged = flaggedAmount(report);
  const reviewers = reviewersOf(report);
  const period = periodOf(report);
  const made = clock.stamp(report.generatedAt);
  const kinds: LayoutKind[] = [];
  for (const kind of REVIEW_KINDS) {
    const items = report.items.filter((item) => item.review.kind === kind).map((item) => layoutItem(item, clock));
    if (items.length === 0) continue;
    const columns = [...KIND_COLUMNS[kind].map((own) => own.column), ...REVIEW_COLUMNS];
    kinds.push({
      kind,
      title: `${KIND_WORDS[kind].many} (${String(items.length)})`,
      table: {
        caption: `${KIND_WORDS[kind].many}: each item, its review and the note`,
        columns,
        rows: items.map((item) => columns.map((own) => item.cells.get(own.header) ?? text(''))),
        // Seven or more columns do not fit a portrait page's width at a readable size.
        landscape: columns.length > 6,
      },
      items,
    });
  }
  const zoneName = clock.zone === 'UTC' || clock.zone === 'Etc/UTC' ? 'UTC' : clock.zone;
  return {
    title: `Review report — ${report.profile.name}`,
    profileName: report.profile.name,
    period,
    zoneSentence: `Times are in ${zoneName}, the time zone of the machine that made this report; each says its offset from UTC.`,
    made,
    madeBy: report.reviewer,
    disclosure: disclosureText(report.unmasked),
    facts: [
      ['Period', period],
      ['Flagged or escalated transactions', `${String(flagged.count)}, for ${flagged.total} in all (absolute amounts)`],
      ['Reviewers', reviewers.length === 0 ? 'none: only watch rules and syncs' : reviewers.join(', ')],
      ['Audit chain head', report.chain.ok ? (report.chain.head ?? '(empty log)') : 'did not verify'],
    ],
    counts: {
      caption: 'Items whose review last moved in the period, by kind and disposition',
      columns: [
        column('Kind', 2),
        ...REVIEW_STATES.map((state) => column(STATE_WORDS[state], 1, 'count')),
        column('Total', 1, 'count'),
      ],
      rows: REVIEW_KINDS.map((kind) => {
        const counts = report.counts[kind];
        const total = REVIEW_STATES.reduce((sum, state) => sum + counts[state], 0);
        return [text(KIND_WORDS[kind].many), ...REVIEW_STATES.map((state) => count(counts[state])), count(total)];
      }),
      landscape: false,
    },
    kinds,
    chain: {
      ok: report.chain.ok,
      entries: report.chain.entries,
      lastId: report.chain.lastId ?? 0,
      head: report.chain.head,
      problem: report.chain.problem,
    },
  };
}
