/**
 * Build step of N12 (security review of 3b75e6a; src/main/services/cache/workerIntegrity.ts):
 * after the main bundle is rendered, the SHA-256 of the cache writer's worker and of every
 * chunk it imports is written into the main bundle in place of the placeholder
 * `'__LEDGERDESK_WORKER_DIGESTS__'`, so main checks those files (which live outside app.asar)
 * before it starts the worker. The build fails when the placeholder is missing, or sits in one
 * of the worker's own files (its digest would then depend on itself).
 */
import { createHash } from 'node:crypto';

const PLACEHOLDER = '__LEDGERDESK_WORKER_DIGESTS__';
const PLACEHOLDER_LITERAL = /(["'`])__LEDGERDESK_WORKER_DIGESTS__\1/g;

interface OutputChunkLike {
  type: 'chunk';
  code: string;
  imports: string[];
  dynamicImports: string[];
}

type BundleLike = Record<string, OutputChunkLike | { type: 'asset' }>;

/** The worker's files (the entry and what it imports, by output path) with their SHA-256. */
export function workerDigestsOf(bundle: BundleLike, entry: string): Record<string, string> {
  const digests: Record<string, string> = {};
  const visit = (name: string): void => {
    if (Object.hasOwn(digests, name)) return;
    const chunk = bundle[name];
    if (chunk?.type !== 'chunk') throw new Error(`The worker's file ${name} is not in the bundle.`);
    if (chunk.code.includes(PLACEHOLDER)) {
      throw new Error(`The worker's file ${name} holds the digests' placeholder: its digest would depend on itself.`);
    }
    digests[name] = createHash('sha256').update(chunk.code, 'utf8').digest('hex');
    // Imports that are not files of the bundle are external (Node's builtins: `node:path`).
    for (const imported of [...chunk.imports, ...chunk.dynamicImports])
      if (Object.hasOwn(bundle, imported)) visit(imported);
  };
  visit(entry);
  return digests;
}

/** Writes the digests into every other chunk holding the placeholder; returns how many literals were replaced. */
export function writeWorkerDigests(bundle: BundleLike, entry: string): number {
  const digests = workerDigestsOf(bundle, entry);
  const literal = JSON.stringify(JSON.stringify(digests));
  let replaced = 0;
  for (const [name, chunk] of Object.entries(bundle)) {
    if (chunk.type !== 'chunk' || Object.hasOwn(digests, name)) continue;
    chunk.code = chunk.code.replace(PLACEHOLDER_LITERAL, () => {
      replaced += 1;
      return literal;
    });
  }
  return replaced;
}

/** The Vite/Rollup plugin for the main bundle. */
export function workerDigestsPlugin(entry = 'cacheWriterWorker.js'): {
  name: string;
  enforce: 'post';
  generateBundle(this: { error(message: string): never }, options: unknown, bundle: BundleLike): void;
} {
  return {
    name: 'ledgerdesk-worker-digests',
    enforce: 'post',
    generateBundle(_options, bundle) {
      if (writeWorkerDigests(bundle, entry) === 0) {
        this.error(`No chunk of the main bundle holds ${PLACEHOLDER}: main could not check the worker (N12).`);
      }
    },
  };
}
