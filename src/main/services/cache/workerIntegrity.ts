/**
 * No JavaScript that runs in main lives outside app.asar's integrity (security review of
 * 3b75e6a, N12). The cache writer's worker thread cannot start from inside the archive, so its
 * files sit in app.asar.unpacked, where anyone who can write the app's folder could change
 * them, and the worker is given the sealing key with every plan. So the build writes the
 * SHA-256 of each of the worker's files into the main bundle (build/workerDigests.mjs; the main
 * bundle is inside the archive, covered by its integrity), and before a worker starts:
 *
 * - each file is read once and its digest compared; one that differs, or is missing, refuses
 *   the worker (WorkerRefused) and the cache writes on the main thread instead, so the changed
 *   code never runs and is never given a key;
 * - the worker runs from the bytes that were checked, not from the files again: each file
 *   becomes a `data:` module, its relative imports rewritten to its dependencies' `data:` URLs,
 *   so a file swapped between the check and the start is never loaded.
 *
 * Run from source (tests, `npm run dev` before a build), there are no digests: the worker starts
 * from its file, as before.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Replaced in the built main bundle by the digests of the worker's files (JSON, relative path → hex). */
const BUILT_DIGESTS = '__LEDGERDESK_WORKER_DIGESTS__';

export type WorkerDigests = Readonly<Record<string, string>>;

/** The digests the build wrote; null when run from source. */
export function builtWorkerDigests(): WorkerDigests | null {
  // Compared with a string the build does not replace (it replaces only the whole literal above).
  if (BUILT_DIGESTS === ['__LEDGERDESK', 'WORKER_DIGESTS__'].join('_')) return null;
  return JSON.parse(BUILT_DIGESTS) as WorkerDigests;
}

/** A worker file that is not the one built: the worker is not started. */
export class WorkerRefused extends Error {
  constructor(file: string, why: string) {
    super(
      `The cache writer's worker file ${file} ${why}; it was not started (the cache writes on the main thread instead). Reinstall Ledgerdesk.`,
    );
    this.name = 'WorkerRefused';
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Relative module specifiers in built ESM (`from "./x.js"`, `import "./x.js"`, `import("./x.js")`). */
const RELATIVE_IMPORT = /(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}\/[^"']+)\2/g;

/**
 * The worker's entry as a `data:` URL of checked bytes, its imports rewritten to checked
 * `data:` URLs. `entry` is the entry file's path relative to `folder`, as the digests name it.
 * Throws WorkerRefused when any file differs from its digest, is missing, or imports a file
 * the digests do not cover.
 */
export function verifiedWorkerUrl(folder: string, entry: string, digests: WorkerDigests): URL {
  const built = new Map<string, string>();
  const building = new Set<string>();
  const urlOf = (name: string): string => {
    const done = built.get(name);
    if (done !== undefined) return done;
    const expected = digests[name];
    if (expected === undefined) throw new WorkerRefused(name, 'is not one the build made');
    if (building.has(name)) throw new WorkerRefused(name, 'imports itself through another file');
    building.add(name);
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(folder, name));
    } catch {
      throw new WorkerRefused(join(folder, name), 'is missing');
    }
    if (sha256(bytes) !== expected)
      throw new WorkerRefused(join(folder, name), 'is not the one this version was built with');
    const source = bytes
      .toString('utf8')
      .replace(RELATIVE_IMPORT, (_whole, lead: string, quote: string, specifier: string) => {
        const target = posix.normalize(posix.join(posix.dirname(name), specifier));
        return `${lead}${quote}${urlOf(target)}${quote}`;
      });
    const url = `data:text/javascript;base64,${Buffer.from(source, 'utf8').toString('base64')}`;
    building.delete(name);
    built.set(name, url);
    return url;
  };
  return new URL(urlOf(entry));
}

/** The URL to start the worker from: checked bytes when the build gave digests, else the file itself. */
export function workerStartUrl(file: URL, digests: WorkerDigests | null = builtWorkerDigests()): URL {
  if (digests === null) return file;
  const path = fileURLToPath(file);
  return verifiedWorkerUrl(dirname(path), posix.basename(path.replaceAll('\\', '/')), digests);
}
