/**
 * Fails when any file of src/ reaches itself through its imports: static, type-only, re-exports
 * and dynamic `import()` alike (a type-only circle still ties two files into one unit to read
 * and change). Run by `npm run lint`. Prints each circle as the files it passes through.
 *
 * Imports are read with TypeScript's own pre-processor (no type-check: a second or two), and
 * only relative specifiers count: packages cannot import us back.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');

/** Every TypeScript source under `folder`. */
function sourcesOf(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...sourcesOf(path));
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** file -> the files of ours it imports. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      if (existsSync(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Tarjan's strongly connected components: each component of more than one file (or a file importing itself) is a circle. */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const lowest = (file: string, candidate: number): void => {
    low.set(file, Math.min(low.get(file) ?? candidate, candidate));
  };
  const visit = (start: string): void => {
    // Iterative, so a deep import chain cannot overflow the call stack.
    const work: [file: string, position: number][] = [[start, 0]];
    index.set(start, next);
    low.set(start, next);
    next += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame === undefined) break;
      const [file, position] = frame;
      const targets = graph.get(file) ?? [];
      if (position < targets.length) {
        frame[1] += 1;
        const target = targets[position];
        if (target === undefined || !graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next);
          next += 1;
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          lowest(file, index.get(target) ?? 0);
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) lowest(parent[0], low.get(file) ?? 0);
      if (low.get(file) === index.get(file)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop();
          if (member === undefined) break;
          onStack.delete(member);
          component.push(member);
        } while (member !== file);
        if (component.length > 1 || targets.includes(file)) circles.push(component.sort());
      }
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

if (import.meta.main) {
  const folders = process.argv.length > 2 ? process.argv.slice(2) : ['src'];
  const files = folders.flatMap((folder) => sourcesOf(resolve(root, folder)));
  const circles = circlesOf(importGraph(files));
  if (circles.length === 0) {
    console.log(`No import circle in ${folders.join(', ')} (${String(files.length)} files).`);
  } else {
    for (const circle of circles) {
      console.error(`Import circle: ${circle.map((file) => relative(root, file)).join(' <-> ')}`);
    }
    console.error(
      `${String(circles.length)} import circle(s): move what the files share (often a type) into a file both import.`,
    );
    process.exitCode = 1;
  }
}
