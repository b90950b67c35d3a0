/**
 * CSV export of any filtered view, streamed: pages of 1,000 rows are read with the same named
 * query the screen uses, decrypted, and written with backpressure, so memory stays flat at any
 * size. The file appears under its name only when complete (written aside, then renamed).
 */
import { once } from 'node:events';
import { rename, rm } from 'node:fs/promises';
import type { CacheRead } from './cacheRead.ts';
import { createPartialFile } from '../files/partialFile.ts';

/**
 * Formula injection (ASVS 5.0 1.2.10, review N8). A spreadsheet runs a cell as a formula when it
 * starts with = + - @ (tab, CR and NUL too, and their full-width forms in some locales); and an
 * importer that splits on `;` or tab (Excel in many European locales) starts a new cell after
 * each. So each formula character at the start of the text or right after a separator (`,` `;`
 * tab CR LF NUL, spaces allowed between) gets a `'` before it, and a cell holding a separator is
 * quoted so importers that honour quotes keep it whole. Left as they are: a plain number (`-12.34`)
 * and an id of the bank's shape (`-tUtjY2NPLCSz0MRoOSNV6`: letters, digits, `_`, `-`, at least 10
 * long, no operator or space a formula could use), so amounts and ids export unchanged.
 */
const FORMULA_AFTER_SEPARATOR = /(?<=(?:^|[,;\t\r\n\0]) *)([=+\-@\t\r\0\uFF1D\uFF0B\uFF0D\uFF20])/g;
const NUMBER = /^-?[0-9]+([.][0-9]+)?$/;
const BANK_ID = /^-[A-Za-z0-9_-]{9,}$/;
const NEEDS_QUOTES = /[",;\t\r\n\0]/;

export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (Array.isArray(value)) text = value.map(String).join(';');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else text = '';
  if (!NUMBER.test(text) && !BANK_ID.test(text)) text = text.replace(FORMULA_AFTER_SEPARATOR, "'$1");
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly unknown[]): string {
  return cells.map(csvCell).join(',') + '\r\n';
}

export interface CsvExportResult {
  file: string;
  rows: number;
}

/**
 * Writes `columns` of every row the paged read returns.
 * @param readPage the view's named query, called with each next cursor
 */
export async function streamCsv<Row>(
  file: string,
  columns: readonly { header: string; value: (row: Row) => unknown }[],
  readPage: (cursor: string | null) => CacheRead<Row>,
  signal?: AbortSignal,
): Promise<CsvExportResult> {
  const { path: partial, stream: output } = await createPartialFile(file);
  let rows = 0;
  try {
    output.write(csvLine(columns.map((column) => column.header)));
    let cursor: string | null = null;
    // Bounded: every page moves the keyset cursor forward, and the last page has none.
    do {
      signal?.throwIfAborted();
      const page = readPage(cursor);
      let chunk = '';
      for (const row of page.rows) chunk += csvLine(columns.map((column) => column.value(row)));
      rows += page.rows.length;
      if (!output.write(chunk)) await once(output, 'drain', signal ? { signal } : {});
      cursor = page.nextCursor;
    } while (cursor !== null);
    output.end();
    await once(output, 'finish');
    await rename(partial, file);
    return { file, rows };
  } catch (error) {
    output.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}
