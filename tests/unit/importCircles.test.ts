/**
 * The import-circle check of `npm run lint` (scripts/check-import-circles.ts) finds a circle
 * however the files import each other (type-only, re-export, dynamic), names every file in it,
 * and passes a graph without one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { circlesOf, importGraph } from '../../scripts/check-import-circles.ts';

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-circles-'));
  mkdirSync(join(folder, 'sub'));
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function files(sources: Record<string, string>): string[] {
  return Object.entries(sources).map(([name, text]) => {
    writeFileSync(join(folder, name), text);
    return join(folder, name);
  });
}

const names = (circles: string[][]): string[][] =>
  circles.map((circle) => circle.map((file) => file.slice(folder.length + 1)));

describe('the import-circle check', () => {
  it('finds a type-only circle between two files', () => {
    const graph = importGraph(
      files({
        'log.ts': "import type { Entry } from './verify.ts';\nexport const log = 1;",
        'verify.ts': "import { log } from './log.ts';\nexport type Entry = typeof log;",
      }),
    );
    expect(names(circlesOf(graph))).toEqual([['log.ts', 'verify.ts']]);
  });

  it('finds a circle of three through a re-export and a dynamic import, across folders', () => {
    const graph = importGraph(
      files({
        'a.ts': "export * from './sub/b.ts';",
        'sub/b.ts': "export const b = async () => import('../c.ts');",
        'c.ts': "import type { x } from './a.ts';\nexport type y = typeof x;",
      }),
    );
    expect(names(circlesOf(graph))).toEqual([['a.ts', 'c.ts', 'sub/b.ts']]);
  });

  it('finds a file that imports itself', () => {
    const graph = importGraph(files({ 'self.ts': "import './self.ts';" }));
    expect(names(circlesOf(graph))).toEqual([['self.ts']]);
  });

  it('passes shared types moved into a file both import, and ignores packages', () => {
    const graph = importGraph(
      files({
        'entry.ts': 'export interface Entry { id: number }',
        'log.ts':
          "import type { Entry } from './entry.ts';\nimport { z } from 'zod';\nexport const log = (e: Entry) => z.parse(e);",
        'verify.ts':
          "import type { Entry } from './entry.ts';\nimport { log } from './log.ts';\nexport const v = (e: Entry) => log(e);",
      }),
    );
    expect(circlesOf(graph)).toEqual([]);
  });
});
