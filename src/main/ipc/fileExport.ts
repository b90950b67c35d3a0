/**
 * Writes every row of a paged cache read to a file chosen by the user: CSV (via the cache's
 * own streamCsv, columns from the first row) or JSONL. Written to `<file>.partial` and renamed
 * at the end, so a failed export never leaves a half file under the chosen name.
 */
import { once } from 'node:events';
import { rename, rm } from 'node:fs/promises';
import { csvLine } from '../services/cache/csvExport.ts';
import { createPartialFile } from '../services/files/partialFile.ts';

interface Page<Row> {
  rows: Row[];
  nextCursor: string | null;
}

function cellOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
}

export async function exportRows<Row>(
  file: string,
  format: 'csv' | 'jsonl',
  readPage: (cursor: string | null) => Page<Row>,
): Promise<number> {
  const { path: partial, stream: output } = await createPartialFile(file);
  let rows = 0;
  let columns: string[] | null = null;
  try {
    let cursor: string | null = null;
    do {
      const page = readPage(cursor);
      let chunk = '';
      for (const row of page.rows) {
        const record = row as Record<string, unknown>;
        if (format === 'jsonl') {
          chunk += JSON.stringify(record) + '\n';
          continue;
        }
        if (columns === null) {
          columns = Object.keys(record);
          chunk += csvLine(columns);
        }
        chunk += csvLine(columns.map((column) => cellOf(record[column])));
      }
      rows += page.rows.length;
      if (chunk !== '' && !output.write(chunk)) await once(output, 'drain');
      cursor = page.nextCursor;
    } while (cursor !== null);
    output.end();
    await once(output, 'finish');
    await rename(partial, file);
    return rows;
  } catch (error) {
    output.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}
