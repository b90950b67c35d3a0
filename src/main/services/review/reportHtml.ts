/**
 * The review report as one printable HTML page an auditor reads, drawn from the report's one
 * layout (reportLayout.ts): self-contained (no script, no remote fetch: a content security
 * policy forbids both), every value escaped. Printed (the app prints it to PDF through Chromium,
 * with the page's own sizes), every table fits its page: fixed column shares, text wrapped,
 * never clipped, and the item tables on landscape pages of the paper chosen (A4 or Letter). On
 * screen it follows the reader's light or dark scheme; printed, it is always black on white.
 */
import {
  reportLayout,
  type LayoutCell,
  type LayoutColumn,
  type LayoutItem,
  type LayoutKind,
  type LayoutTable,
} from './reportLayout.ts';
import type { ReviewReport } from './reviewReport.ts';

/** The paper the PDF is printed on: A4 (most of the world) or US Letter. */
export type ReportPaper = 'a4' | 'letter';

const PAPER_SIZES: Record<ReportPaper, string> = { a4: 'A4', letter: 'letter' };

/** The machine's usual paper: Letter where the locale's region uses it, A4 elsewhere. */
export function usualPaper(locale: string = Intl.DateTimeFormat().resolvedOptions().locale): ReportPaper {
  return /[-_](US|CA|MX|PH|CL|CO|VE|GT|CR|PA|DO|PR|SV|NI|HN|BO)\b/i.test(locale) ? 'letter' : 'a4';
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

/** A value inside a CSS string (the page's running header), where HTML escaping does not apply. */
function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, (character) => `\\${character}`).replace(/[\r\n\u2028\u2029]+/g, ' ')}"`;
}

/**
 * Printed pages carry the profile and period at the top and "Page n of N" at the foot (CSS
 * page-margin boxes, printed by Chromium in the app and in the suite alike); the item tables
 * are on landscape pages (`page: wide`) of the same paper.
 */
function pageStyle(title: string, period: string, made: string, paper: ReportPaper): string {
  const size = PAPER_SIZES[paper];
  const box = 'font: 8pt system-ui, sans-serif; color: #444;';
  return `
  @page {
    size: ${size} portrait; margin: 18mm 13mm 16mm;
    @top-left { content: ${cssString(title)}; ${box} }
    @top-right { content: ${cssString(period)}; ${box} }
    @bottom-left { content: ${cssString(`Made ${made} · Ledgerdesk`)}; ${box} }
    @bottom-right { content: "Page " counter(page) " of " counter(pages); ${box} }
  }
  @page wide { size: ${size} landscape; margin: 15mm 13mm 14mm; }`;
}

const STYLE = `
  :root { color-scheme: light dark; --ink: #111; --muted: #444; --paper: #fff; --rule: #b4b4b4; --head: #ececec; --soft: #f4f4f4; --accent: #555; }
  @media (prefers-color-scheme: dark) {
    :root { --ink: #e8e8ea; --muted: #b9bbc3; --paper: #16171c; --rule: #4a4c55; --head: #24262d; --soft: #1e2026; --accent: #9a9ca6; }
  }
  @media print {
    :root { color-scheme: light; --ink: #111; --muted: #444; --paper: #fff; --rule: #b4b4b4; --head: #ececec; --soft: #f4f4f4; --accent: #555; }
  }
  html { background: var(--paper); color: var(--ink); }
  body { font: 10pt/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 80rem; padding: 1rem; }
  @media print { body { max-width: none; padding: 0; } }
  h1 { font-size: 16pt; margin: 0 0 .2rem; } h2 { font-size: 12.5pt; margin: 1.2rem 0 .4rem; }
  h3 { font-size: 10.5pt; margin: 0 0 .2rem; overflow-wrap: anywhere; }
  .meta { color: var(--muted); margin: 0 0 .8rem; }
  table { border-collapse: collapse; width: 100%; table-layout: fixed; margin: .3rem 0 .6rem; }
  caption { text-align: left; color: var(--muted); padding: 0 0 .2rem; }
  th, td { border: 1px solid var(--rule); padding: .15rem .3rem; text-align: left; vertical-align: top;
    overflow-wrap: anywhere; word-break: normal; white-space: pre-wrap; }
  th { background: var(--head); font-weight: 600; }
  td.money, th.money, td.count, th.count { text-align: right; font-variant-numeric: tabular-nums; }
  thead { display: table-header-group; } tr { break-inside: avoid; }
  table.items { font-size: 8.5pt; }
  section.kind.wide { page: wide; }
  .item { border: 1px solid var(--rule); padding: .5rem .7rem; margin: 0 0 .7rem; break-inside: avoid-page; }
  .item table { font-size: 8.5pt; }
  .state { font-weight: 600; }
  .note { white-space: pre-wrap; overflow-wrap: anywhere; border-left: 3px solid var(--accent); padding-left: .5rem; margin: .3rem 0; }
  .ref { font-family: ui-monospace, monospace; font-size: 8pt; color: var(--muted); overflow-wrap: anywhere; margin: 0 0 .3rem; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 8pt; background: var(--soft); padding: .4rem; margin: .3rem 0; }
  .chain { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
  dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; margin: .3rem 0 .8rem; }
  dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
  details { margin: .2rem 0; } summary { cursor: pointer; overflow-wrap: anywhere; }
`;

function cellHtml(tag: 'td' | 'th', cell: LayoutCell, column: LayoutColumn | undefined): string {
  const className = column === undefined || column.kind === 'text' ? '' : ` class="${column.kind}"`;
  return `<${tag}${className}>${escapeHtml(cell.text)}</${tag}>`;
}

/** Characters a column's share is worth (its weight), and the longest word kept whole. */
const CHARACTERS_PER_WEIGHT = 9;
const LONGEST_WHOLE_WORD = 14;

/** The longest run of characters without a space in a text (a word, an amount, a date). */
function longestWord(text: string): number {
  let longest = 0;
  // Code points, not UTF-16 units: a bullet or an accented letter is one character wide.
  for (const word of text.split(/\s+/)) longest = Math.max(longest, Array.from(word).length);
  return longest;
}

/**
 * Each column's share of the width: its weight, widened so that its header and its words (up to
 * LONGEST_WHOLE_WORD characters: a date, an amount, "Disposition") are never broken inside;
 * longer words (ids, addresses) wrap anywhere. Fixed shares, so nothing is ever cut at the edge.
 */
function columnShares(table: LayoutTable): number[] {
  const needs = table.columns.map((column, index) => {
    // A header is bold: its letters are wider than a cell's.
    let word = longestWord(column.header) * 1.2;
    for (const row of table.rows)
      word = Math.max(word, Math.min(LONGEST_WHOLE_WORD, longestWord(row[index]?.text ?? '')));
    return Math.max(column.weight * CHARACTERS_PER_WEIGHT, word + 1.5);
  });
  const total = needs.reduce((sum, need) => sum + need, 0);
  return needs.map((need) => need / total);
}

/** A table of the layout: each column its share of the width, every cell wrapped, never cut. */
function tableHtml(table: LayoutTable, className = ''): string {
  const cols = columnShares(table)
    .map((share) => `<col style="width: ${(share * 100).toFixed(2)}%">`)
    .join('');
  const head = table.columns
    .map(
      (column) =>
        `<th scope="col"${column.kind === 'text' ? '' : ` class="${column.kind}"`}>${escapeHtml(column.header)}</th>`,
    )
    .join('');
  const rows = table.rows
    .map((row) => `<tr>${row.map((cell, index) => cellHtml('td', cell, table.columns[index])).join('')}</tr>`)
    .join('');
  return `<table${className === '' ? '' : ` class="${className}"`}><caption>${escapeHtml(table.caption)}</caption><colgroup>${cols}</colgroup><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function itemHtml(item: LayoutItem): string {
  return `<section class="item">
    <h3>${escapeHtml(item.heading)} — <span class="state">${escapeHtml(item.disposition)}</span></h3>
    <p class="ref">Ref ${escapeHtml(item.ref)}</p>
    ${item.note === null ? '' : `<p class="note">${escapeHtml(item.note)}</p>`}
    ${item.changes === null ? '' : tableHtml(item.changes)}
    ${item.history.rows.length === 0 ? '<p class="meta">No step of its review is recorded.</p>' : tableHtml(item.history)}
  </section>`;
}

function kindHtml(kind: LayoutKind): string {
  return `<section class="kind${kind.table.landscape ? ' wide' : ''}">
<h2>${escapeHtml(kind.title)}</h2>
${tableHtml(kind.table, 'items')}
${kind.items.map(itemHtml).join('\n')}
</section>`;
}

function appendixHtml(kinds: readonly LayoutKind[]): string {
  const items = kinds.flatMap((kind) => kind.items);
  if (items.length === 0) return '';
  const records = items
    .map(
      (
        item,
      ) => `<details><summary>${escapeHtml(item.heading)} <span class="ref">(${escapeHtml(item.ref)}, ${escapeHtml(item.recordSource)})</span></summary>
<pre>${escapeHtml(JSON.stringify(item.record, null, 2))}</pre></details>`,
    )
    .join('\n');
  return `<h2>Appendix: each record as cached</h2>
<p class="meta">The bank's record of each item above, as the offline cache holds it (or as it was reviewed, when the bank no longer lists it). Open one to read it.</p>
${records}`;
}

export function reportHtml(report: ReviewReport, options: { paper?: ReportPaper } = {}): string {
  const layout = reportLayout(report);
  const paper = options.paper ?? 'a4';
  const { chain } = layout;
  const chainHtml = chain.ok
    ? `<p>The audit log verified when this report was made: ${String(chain.entries)} entries, the last #${String(chain.lastId)}; chain head <span class="chain">${escapeHtml(chain.head ?? '(empty log)')}</span>.</p>
<p>How to verify: run <code>ledger audit verify</code> (or Settings › Audit log › Verify) on the machine that made this report. The same head, or a later one with the entries after #${String(chain.lastId)} intact, means nothing recorded here was edited since.</p>`
    : `<p class="note"><strong>The audit log did NOT verify when this report was made:</strong> ${escapeHtml(chain.problem ?? 'unknown problem')}</p>`;
  const items =
    layout.kinds.length === 0
      ? '<p>No item was flagged, escalated or changed in the period.</p>'
      : layout.kinds.map(kindHtml).join('\n');
  const facts = layout.facts
    .map(
      ([label, value]) =>
        `<dt>${escapeHtml(label)}</dt><dd${label === 'Audit chain head' ? ' class="chain"' : ''}>${escapeHtml(value)}</dd>`,
    )
    .join('\n  ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(layout.title)}</title>
<style>${pageStyle(layout.title, layout.period, layout.made, paper)}${STYLE}</style></head>
<body>
<h1>${escapeHtml(layout.title)}</h1>
<p class="meta">Period: ${escapeHtml(layout.period)}. Made ${escapeHtml(layout.made)} by ${escapeHtml(layout.madeBy)} with Ledgerdesk, from the offline cache. ${escapeHtml(layout.zoneSentence)} Applicants' personal data shown unmasked: ${escapeHtml(layout.disclosure)}.</p>
<h2>Summary</h2>
<dl class="facts">
  ${facts}
</dl>
${tableHtml(layout.counts)}
${items}
<h2>Audit chain</h2>
${chainHtml}
${appendixHtml(layout.kinds)}
</body></html>
`;
}
