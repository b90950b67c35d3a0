/**
 * What a Markdown page says about the repository's files: the repository paths it writes in
 * backticks and the relative targets of its links, with fenced code blocks left out (they show
 * commands and output, not references). Used by docPaths.test.ts.
 */

const REPOSITORY_PREFIXES = ['src/', 'tests/', 'scripts/', 'docs/', '.ci/'];

function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** `src/a.ts:12-40`, `docs/x.md#part`, `src/a.ts,` → the file's path alone. */
function pathOf(written: string): string {
  return written
    .replace(/#.*$/, '')
    .replace(/:\d[\d,-]*$/, '')
    .replace(/[.,;:)]+$/, '');
}

export function pathsInMarkdown(markdown: string): { repositoryPaths: string[]; links: string[] } {
  const text = withoutFences(markdown);
  const repositoryPaths = new Set<string>();
  for (const [, code] of text.matchAll(/`([^`\n]+)`/g)) {
    const first = (code ?? '').trim().split(/\s+/)[0] ?? '';
    if (REPOSITORY_PREFIXES.some((prefix) => first.startsWith(prefix))) {
      repositoryPaths.add(pathOf(first));
    }
  }
  const links = new Set<string>();
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (target === undefined || /^([a-z][a-z+.-]*:|#)/i.test(target)) continue;
    const path = pathOf(decodeURI(target));
    if (path !== '') links.add(path);
  }
  return { repositoryPaths: [...repositoryPaths], links: [...links] };
}

/** The first column of the table headed `| folder |`: the folders it names, in backticks. */
export function layoutFolders(markdown: string): string[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*folder\s*\|/.test(line));
  if (header === -1) return [];
  const folders: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const first = line.split('|')[1] ?? '';
    const folder = /`([^`]+)`/.exec(first)?.[1];
    if (folder !== undefined) folders.push(folder.replace(/\/$/, ''));
  }
  return folders;
}
