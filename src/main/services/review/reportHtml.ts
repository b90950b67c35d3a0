/**
 * The review report as one printable HTML page an auditor reads: self-contained (no script, no
 * remote fetch: a content security policy forbids both), every value escaped, laid out for A4
 * and Letter (the app prints it to PDF through Chromium; the command line writes the page
 * itself). The summary first (counts by kind and disposition, flagged amounts, reviewers, the
 * period, the chain head and how to verify it); then per kind the columns a person reads with
 * the disposition, who, when and the note, and each item's history and field-by-field diff;
 * the record as cached last, in a collapsed appendix.
 */
import { disclosureText } from '../../../shared/personalData/exportDisclosure.ts';
import { centsOfTyped } from '../../../shared/review/amountInput.ts';
import { formatMoney } from '../../../shared/review/itemColumns.ts';
import { REVIEW_KINDS, REVIEW_STATES, type ReviewKind } from '../../../shared/review/reviewTerms.ts';
import { columnsOf, dispositionOf, ITEM_COLUMNS, whoOf } from './reportColumns.ts';
import type { ReportedItem, ReviewReport } from './reviewReport.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

/** A value inside a CSS string (the page's running header), where HTML escaping does not apply. */
function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, (character) => `\\${character}`).replace(/[\r\n\u2028\u2029]+/g, ' ')}"`;
}

/**
 * Printed pages carry the profile and period at the top and "Page n of N" at the foot
 * (CSS page-margin boxes: Chromium prints them, in the app and in the suite alike).
 */
function pageStyle(report: ReviewReport, period: string): string {
  return `
  @page {
    size: auto; margin: 20mm 14mm 18mm;
    @top-left { content: ${cssString(`Review report — ${report.profile.name}`)}; font: 8.5pt system-ui, sans-serif; color: #444; }
    @top-right { content: ${cssString(period)}; font: 8.5pt system-ui, sans-serif; color: #444; }
    @bottom-left { content: ${cssString(`Made ${report.generatedAt} · Ledgerdesk`)}; font: 8.5pt system-ui, sans-serif; color: #444; }
    @bottom-right { content: "Page " counter(page) " of " counter(pages); font: 8.5pt system-ui, sans-serif; color: #444; }
  }`;
}

const STYLE = `
  body { font: 10.5pt/1.45 system-ui, sans-serif; color: #111; margin: 0 auto; max-width: 72rem; padding: 0 1rem; }
  h1 { font-size: 16pt; margin: 0 0 .2rem; } h2 { font-size: 12.5pt; margin: 1.4rem 0 .4rem; }
  h3 { font-size: 11pt; margin: 0 0 .3rem; }
  .meta { color: #444; margin: 0 0 1rem; }
  table { border-collapse: collapse; width: 100%; margin: .3rem 0 .6rem; }
  th, td { border: 1px solid #bbb; padding: .2rem .4rem; text-align: left; vertical-align: top; }
  th { background: #eee; } td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
  thead { display: table-header-group; } tr { break-inside: avoid; }
  .item { border: 1px solid #999; padding: .6rem .8rem; margin: 0 0 .8rem; break-inside: avoid-page; }
  .state { font-weight: 600; }
  .note { white-space: pre-wrap; border-left: 3px solid #777; padding-left: .5rem; margin: .3rem 0; }
  .ref { font-family: ui-monospace, monospace; font-size: 8.5pt; word-break: break-all; }
  pre { white-space: pre-wrap; word-break: break-all; font-size: 8.5pt; background: #f6f6f6; padding: .4rem; margin: .3rem 0; }
  .chain { font-family: ui-monospace, monospace; word-break: break-all; }
  dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .3rem 0 .8rem; }
  dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
  details { margin: .2rem 0; } summary { cursor: pointer; }
`;

function cell(text: string, className = ''): string {
  return `<td${className === '' ? '' : ` class="${className}"`}>${escapeHtml(text)}</td>`;
}

const KIND_TITLES: Record<ReviewKind, string> = {
  'pending-transaction': 'Pending transactions',
  application: 'Account applications',
  'webhook-send': 'Webhook sends',
};

function summaryTable(report: ReviewReport): string {
  const header = `<tr><th>Kind</th>${REVIEW_STATES.map((state) => `<th>${escapeHtml(state)}</th>`).join('')}<th>Total</th></tr>`;
  const rows = REVIEW_KINDS.map((kind) => {
    const counts = report.counts[kind];
    const total = REVIEW_STATES.reduce((sum, state) => sum + counts[state], 0);
    return `<tr>${cell(kind)}${REVIEW_STATES.map((state) => cell(String(counts[state]), 'number')).join('')}${cell(String(total), 'number')}</tr>`;
  });
  return `<table><caption class="meta">Items whose review last moved in the period, by kind and disposition</caption>${header}${rows.join('')}</table>`;
}

/** The sum of the flagged and escalated transactions' amounts (absolute), exact in cents. */
function flaggedAmount(report: ReviewReport): { count: number; total: string } {
  let cents = 0n;
  let count = 0;
  for (const item of report.items) {
    if (item.review.kind !== 'pending-transaction' || item.review.state === 'changed') continue;
    const typed = centsOfTyped(columnsOf(item).amount ?? '');
    if (typed === null) continue;
    cents += BigInt(typed);
    count += 1;
  }
  const whole = cents / 100n;
  const fraction = (cents % 100n).toString().padStart(2, '0');
  return { count, total: formatMoney(`${whole.toString()}.${fraction}`) };
}

function reviewersOf(report: ReviewReport): string[] {
  const names = new Set<string>();
  for (const item of report.items)
    for (const step of item.history) if (step.reviewer !== null) names.add(step.reviewer);
  return [...names].sort();
}

function kindSection(report: ReviewReport, kind: ReviewKind): string {
  const items = report.items.filter((item) => item.review.kind === kind);
  if (items.length === 0) return '';
  const own = ITEM_COLUMNS[kind];
  const header = `<tr>${own.map((column) => `<th${column.number === true ? ' class="number"' : ''}>${escapeHtml(column.header)}</th>`).join('')}<th>Disposition</th><th>By</th><th>When</th><th>Note</th></tr>`;
  const rows = items.map((item) => {
    const columns = columnsOf(item);
    return `<tr>${own.map((column) => cell(column.value(columns, item), column.number === true ? 'number' : '')).join('')}${cell(dispositionOf(item), 'state')}${cell(whoOf(item))}${cell(item.review.reviewedAt ?? item.review.updatedAt)}${cell(item.review.note ?? '')}</tr>`;
  });
  return `<h2>${KIND_TITLES[kind]} (${String(items.length)})</h2>
<table><thead>${header}</thead><tbody>${rows.join('')}</tbody></table>
${items.map(itemSection).join('')}`;
}

function itemSection(item: ReportedItem): string {
  const { review } = item;
  const steps = item.history
    .map((step) => {
      const who = step.byRule === null ? (step.reviewer ?? 'a sync') : `rule ${step.byRule}`;
      const changes = step.changes
        .map((change) => `${change.field}: ${change.before ?? '(absent)'} → ${change.after ?? '(absent)'}`)
        .join('\n');
      return `<tr>${cell(String(step.version), 'number')}${cell(step.at)}${cell(step.state)}${cell(who)}${cell(step.note ?? '')}${cell(changes)}</tr>`;
    })
    .join('');
  const diff =
    review.changes.length === 0
      ? ''
      : `<table><caption class="meta">What changed since the review, field by field</caption><tr><th>Field</th><th>As reviewed</th><th>As cached now</th></tr>${review.changes
          .map(
            (change) =>
              `<tr>${cell(change.field)}${cell(change.before ?? '(absent)')}${cell(change.after ?? '(absent)')}</tr>`,
          )
          .join('')}</table>`;
  return `<section class="item">
    <h3><span class="ref">${escapeHtml(review.kind)} ${escapeHtml(review.ref)}</span> — <span class="state">${escapeHtml(dispositionOf(item))}</span></h3>
    ${review.note === null ? '' : `<p class="note">${escapeHtml(review.note)}</p>`}
    ${diff}
    <table><caption class="meta">History</caption><tr><th>#</th><th>At</th><th>State</th><th>By</th><th>Note</th><th>Changes</th></tr>${steps}</table>
  </section>`;
}

function appendix(report: ReviewReport): string {
  if (report.items.length === 0) return '';
  const records = report.items
    .map(
      (
        item,
      ) => `<details><summary><span class="ref">${escapeHtml(item.review.kind)} ${escapeHtml(item.review.ref)}</span> (${escapeHtml(item.recordSource === 'cache' ? 'as cached' : 'as reviewed; no longer in the cache')})</summary>
<pre>${escapeHtml(JSON.stringify(item.record, null, 2))}</pre></details>`,
    )
    .join('\n');
  return `<h2>Appendix: each record as cached</h2>
<p class="meta">The bank's record of each item above, as the offline cache holds it (or as it was reviewed, when the bank no longer lists it). Open one to read it.</p>
${records}`;
}

export function reportHtml(report: ReviewReport): string {
  const period = `${report.from ?? 'the first review'} to ${report.to === null ? 'now' : `${report.to} (exclusive)`}`;
  const { chain: audit } = report;
  const chain = audit.ok
    ? `<p>The audit log verified when this report was made: ${String(audit.entries)} entries, the last #${String(audit.lastId ?? 0)}; chain head <span class="chain">${escapeHtml(audit.head ?? '(empty log)')}</span>.</p>
<p>How to verify: run <code>ledger audit verify</code> (or Settings › Audit log › Verify) on the machine that made this report. The same head, or a later one with the entries after #${String(audit.lastId ?? 0)} intact, means nothing recorded here was edited since.</p>`
    : `<p class="note"><strong>The audit log did NOT verify when this report was made:</strong> ${escapeHtml(audit.problem ?? 'unknown problem')}</p>`;
  const flagged = flaggedAmount(report);
  const reviewers = reviewersOf(report);
  const items =
    report.items.length === 0
      ? '<p>No item was flagged, escalated or changed in the period.</p>'
      : REVIEW_KINDS.map((kind) => kindSection(report, kind)).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Review report — ${escapeHtml(report.profile.name)}</title>
<style>${pageStyle(report, period)}${STYLE}</style></head>
<body>
<h1>Review report — ${escapeHtml(report.profile.name)}</h1>
<p class="meta">Period: ${escapeHtml(period)}. Made ${escapeHtml(report.generatedAt)} by ${escapeHtml(report.reviewer)} with Ledgerdesk, from the offline cache. Applicants' personal data shown unmasked: ${escapeHtml(disclosureText(report.unmasked))}.</p>
<h2>Summary</h2>
<dl class="facts">
  <dt>Period</dt><dd>${escapeHtml(period)}</dd>
  <dt>Flagged or escalated transactions</dt><dd>${String(flagged.count)}, for ${escapeHtml(flagged.total)} in all (absolute amounts)</dd>
  <dt>Reviewers</dt><dd>${reviewers.length === 0 ? 'none: only watch rules and syncs' : escapeHtml(reviewers.join(', '))}</dd>
  <dt>Audit chain head</dt><dd><span class="chain">${escapeHtml(audit.ok ? (audit.head ?? '(empty log)') : 'did not verify')}</span></dd>
</dl>
${summaryTable(report)}
${items}
<h2>Audit chain</h2>
${chain}
${appendix(report)}
</body></html>
`;
}
