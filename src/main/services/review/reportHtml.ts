/**
 * The review report as one printable HTML page: self-contained (no script, no remote fetch:
 * a content security policy forbids both), every value escaped, laid out for A4 and Letter
 * (the app prints it to PDF through Chromium; the command line writes the page itself).
 */
import { REVIEW_KINDS, REVIEW_STATES } from '../../../shared/review/reviewTerms.ts';
import type { ReportedItem, ReviewReport } from './reviewReport.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

const STYLE = `
  @page { size: auto; margin: 16mm 14mm; }
  body { font: 10.5pt/1.45 system-ui, sans-serif; color: #111; margin: 0 auto; max-width: 60rem; }
  h1 { font-size: 16pt; margin: 0 0 .2rem; } h2 { font-size: 12.5pt; margin: 1.4rem 0 .4rem; }
  h3 { font-size: 11pt; margin: 0 0 .3rem; }
  .meta { color: #444; margin: 0 0 1rem; }
  table { border-collapse: collapse; width: 100%; margin: .3rem 0 .6rem; }
  th, td { border: 1px solid #bbb; padding: .2rem .4rem; text-align: left; vertical-align: top; }
  th { background: #eee; } td.number { text-align: right; font-variant-numeric: tabular-nums; }
  .item { border: 1px solid #999; padding: .6rem .8rem; margin: 0 0 .8rem; break-inside: avoid-page; }
  .state { font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
  .note { white-space: pre-wrap; border-left: 3px solid #777; padding-left: .5rem; margin: .3rem 0; }
  pre { white-space: pre-wrap; word-break: break-all; font-size: 8.5pt; background: #f6f6f6; padding: .4rem; margin: .3rem 0; }
  .chain { font-family: ui-monospace, monospace; word-break: break-all; }
`;

function cell(text: string, className = ''): string {
  return `<td${className === '' ? '' : ` class="${className}"`}>${escapeHtml(text)}</td>`;
}

function summaryTable(report: ReviewReport): string {
  const header = `<tr><th>Kind</th>${REVIEW_STATES.map((state) => `<th>${escapeHtml(state)}</th>`).join('')}<th>Total</th></tr>`;
  const rows = REVIEW_KINDS.map((kind) => {
    const counts = report.counts[kind];
    const total = REVIEW_STATES.reduce((sum, state) => sum + counts[state], 0);
    return `<tr>${cell(kind)}${REVIEW_STATES.map((state) => cell(String(counts[state]), 'number')).join('')}${cell(String(total), 'number')}</tr>`;
  });
  return `<table><caption class="meta">Items whose review last moved in the period, by kind and state</caption>${header}${rows.join('')}</table>`;
}

function itemSection(item: ReportedItem): string {
  const { review } = item;
  const state = review.byRule === null ? review.state : `${review.state} by rule ${review.byRule}`;
  const steps = item.history
    .map((step) => {
      const who = step.byRule === null ? (step.reviewer ?? 'sync') : `rule ${step.byRule}`;
      const changes = step.changes
        .map((change) => `${change.field}: ${change.before ?? '(absent)'} → ${change.after ?? '(absent)'}`)
        .join('\n');
      return `<tr>${cell(String(step.version), 'number')}${cell(step.at)}${cell(step.state)}${cell(who)}${cell(step.note ?? '')}${cell(changes)}</tr>`;
    })
    .join('');
  return `<section class="item">
    <h3>${escapeHtml(review.kind)} ${escapeHtml(review.ref)} — <span class="state">${escapeHtml(state)}</span></h3>
    ${review.note === null ? '' : `<p class="note">${escapeHtml(review.note)}</p>`}
    <table><tr><th>#</th><th>At</th><th>State</th><th>By</th><th>Note</th><th>Changes</th></tr>${steps}</table>
    <div>Record (${escapeHtml(item.recordSource === 'cache' ? 'as cached' : 'as reviewed; no longer in the cache')}):</div>
    <pre>${escapeHtml(JSON.stringify(item.record, null, 2))}</pre>
  </section>`;
}

export function reportHtml(report: ReviewReport): string {
  const period = `${report.from ?? 'the first review'} to ${report.to === null ? 'now' : `${report.to} (exclusive)`}`;
  const { chain: audit } = report;
  const chain = audit.ok
    ? `<p>The audit log verified when this report was made: ${String(audit.entries)} entries, the last #${String(audit.lastId ?? 0)}; chain head <span class="chain">${escapeHtml(audit.head ?? '(empty log)')}</span>. Check it again with <code>ledger audit verify</code>: the same head, or a later one, means nothing recorded here was edited.</p>`
    : `<p class="note"><strong>The audit log did NOT verify when this report was made:</strong> ${escapeHtml(audit.problem ?? 'unknown problem')}</p>`;
  const items =
    report.items.length === 0
      ? '<p>No item was flagged, escalated or changed in the period.</p>'
      : report.items.map(itemSection).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Review report — ${escapeHtml(report.profile.name)}</title>
<style>${STYLE}</style></head>
<body>
<h1>Review report — ${escapeHtml(report.profile.name)}</h1>
<p class="meta">Period: ${escapeHtml(period)}. Made ${escapeHtml(report.generatedAt)} by ${escapeHtml(report.reviewer)} with Ledgerdesk, from the offline cache.</p>
<h2>Summary</h2>
${summaryTable(report)}
<h2>Flagged, escalated and changed items (${String(report.items.length)})</h2>
${items}
<h2>Audit chain</h2>
${chain}
</body></html>
`;
}
