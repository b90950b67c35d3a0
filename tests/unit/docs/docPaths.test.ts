/**
 * The docs a contributor starts from name real files. Every repository path the README and
 * docs/ write in backticks (`src/…`, `tests/…`, `scripts/…`, `docs/…`, `.ci/…`) and every
 * relative link must exist, and the layout table of docs/reference.md must list every folder
 * directly under src/main and nothing that is gone. docs/history/ is the journal: it keeps the
 * paths of its time and is not checked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutFolders, pathsInMarkdown } from './markdownPaths.ts';

const root = join(import.meta.dirname, '..', '..', '..');

function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'history' ? [] : markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const documents = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

/** A written path exists when its part before any wildcard, brace or `<placeholder>` does. */
function exists(path: string): boolean {
  const fixed = path.split(/[*{<]/)[0] ?? path;
  return existsSync(fixed === '' ? '.' : fixed);
}

describe('the paths the docs name', () => {
  it('reads the README and the topic pages', () => {
    expect(documents.length).toBeGreaterThan(10);
  });

  for (const document of documents) {
    const name = relative(root, document);
    it(`${name}: every repository path and relative link exists`, () => {
      const { repositoryPaths, links } = pathsInMarkdown(readFileSync(document, 'utf8'));
      const missing = [
        ...repositoryPaths.filter((path) => !exists(join(root, path))),
        ...links.filter((link) => !exists(join(dirname(document), link))),
      ];
      expect(missing).toEqual([]);
    });
  }
});

describe("docs/reference.md's layout table", () => {
  const folders = layoutFolders(readFileSync(join(root, 'docs', 'reference.md'), 'utf8'));

  it('lists every folder directly under src/main', () => {
    const underMain = readdirSync(join(root, 'src', 'main'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/main/${entry.name}`);
    const unlisted = underMain.filter(
      (folder) => !folders.some((listed) => listed === folder || listed.startsWith(`${folder}/`)),
    );
    expect(underMain.length).toBeGreaterThan(3);
    expect(unlisted).toEqual([]);
  });

  it('lists only folders that exist', () => {
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => !exists(join(root, folder)))).toEqual([]);
  });
});

describe('the index of decision records', () => {
  it('docs/decisions/README.md links every record in docs/decisions/', () => {
    const folder = join(root, 'docs', 'decisions');
    const { links } = pathsInMarkdown(readFileSync(join(folder, 'README.md'), 'utf8'));
    const records = readdirSync(folder).filter((name) => name.endsWith('.md') && name !== 'README.md');
    expect(records.length).toBeGreaterThan(10);
    expect(records.filter((record) => !links.includes(record))).toEqual([]);
  });
});
