import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { streamCsv } from '../../../src/main/services/cache/csvExport.ts';
import { exportRows } from '../../../src/main/ipc/fileExport.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-partial-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const onePage = () => ({
  rows: [{ id: 'pt_1', amount: 100 }],
  nextCursor: null,
  asOf: null,
  source: 'cache' as const,
});

describe('export temp files (review L8)', () => {
  it('never follow a symlink planted at <file>.partial', async () => {
    const victim = join(folder, 'victim.txt');
    writeFileSync(victim, 'untouched');
    for (const [name, run] of [
      [
        'cache.csv',
        (file: string) => streamCsv(file, [{ header: 'id', value: (row: { id: string }) => row.id }], onePage),
      ],
      ['ipc.jsonl', (file: string) => exportRows(file, 'jsonl', onePage)],
    ] as const) {
      const file = join(folder, name);
      symlinkSync(victim, `${file}.partial`);
      await run(file);
      expect(readFileSync(victim, 'utf8')).toBe('untouched');
      expect(readFileSync(file, 'utf8')).toContain('pt_1');
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });
});
