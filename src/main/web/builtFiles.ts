/**
 * Where web mode finds the files it runs with. It runs built (out/web, `npm run serve`) or from
 * the TypeScript sources (src/main/web: the tests and the benchmark's in-process shell); the
 * code of this file sits in either folder, so each path is found from there.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The nearest folder above `from` holding package.json: the project's folder. */
export function projectFolder(from: string = import.meta.dirname): string {
  let folder = from;
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`No package.json above ${from}: web mode runs from the project's folder.`);
    folder = parent;
  }
  return folder;
}

/** out/renderer, built by `npm run build`: the page web mode serves. */
export function defaultRendererRoot(): string {
  return join(projectFolder(), 'out', 'renderer');
}

/** The sandbox process's entry beside this file: sandboxChild.js built, sandboxChild.ts from source. */
export function sandboxChildFile(): string {
  const built = join(import.meta.dirname, 'sandboxChild.js');
  return existsSync(built) ? built : join(import.meta.dirname, 'sandboxChild.ts');
}
