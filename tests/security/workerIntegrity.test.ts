/**
 * N12 of the security review of 3b75e6a: no JavaScript that runs in main lives outside
 * app.asar's integrity. The cache writer's worker sits in app.asar.unpacked; main checks each
 * of its files against the digests the build wrote into the main bundle before the thread
 * starts, and starts it from the bytes it checked. Real worker threads, real files, a real
 * cache database; the build step's functions over a bundle shaped as Rollup gives it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCacheWriter, InlineCacheWriter, WorkerCacheWriter } from '../../src/main/services/cache/cacheWriter.ts';
import {
  builtWorkerDigests,
  verifiedWorkerUrl,
  WorkerRefused,
  type WorkerDigests,
} from '../../src/main/services/cache/workerIntegrity.ts';
import { workerDigestsOf, writeWorkerDigests } from '../../scripts/workerDigestsPlugin.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';

const ENTRY = `import { parentPort, workerData } from 'node:worker_threads';
import { answer } from './chunks/dep-1a2b.js';
parentPort.postMessage({ answer: answer + workerData.add, keyed: workerData.key !== undefined });
`;
const DEPENDENCY = `import { base } from './base-9f.js';\nexport const answer = base + 2;\n`;
const BASE = `export const base = 40;\n`;
const TAMPERED = `export const answer = 666; // and would read the key it is given\n`;

let temp: { folder: string; remove: () => void };

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function writeBuilt(): WorkerDigests {
  mkdirSync(join(temp.folder, 'chunks'), { recursive: true });
  writeFileSync(join(temp.folder, 'worker.js'), ENTRY);
  writeFileSync(join(temp.folder, 'chunks', 'dep-1a2b.js'), DEPENDENCY);
  writeFileSync(join(temp.folder, 'chunks', 'base-9f.js'), BASE);
  return {
    'worker.js': sha256(ENTRY),
    'chunks/dep-1a2b.js': sha256(DEPENDENCY),
    'chunks/base-9f.js': sha256(BASE),
  };
}

function answerOf(url: URL): Promise<{ answer: number; keyed: boolean }> {
  const worker = new Worker(url, { workerData: { add: 0 } });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { answer: number; keyed: boolean }) => {
      void worker.terminate();
      resolve(message);
    });
    worker.once('error', reject);
  });
}

beforeEach(() => {
  temp = makeTempFolder('ledgerdesk-n12-');
});

afterEach(() => {
  temp.remove();
});

describe('N12: the worker runs only as built', () => {
  it('starts from the checked bytes of the built files (the control)', async () => {
    const digests = writeBuilt();
    const url = verifiedWorkerUrl(temp.folder, 'worker.js', digests);
    expect(url.protocol).toBe('data:');
    expect(await answerOf(url)).toEqual({ answer: 42, keyed: false });
  });

  it.each([
    ['the entry', 'worker.js', `${ENTRY}\nconsole.log('changed');\n`],
    ['a chunk it imports', 'chunks/dep-1a2b.js', TAMPERED],
    ['a chunk that chunk imports', 'chunks/base-9f.js', 'export const base = 0;\n'],
  ])('refuses %s changed, before any thread starts', (_what, file, content) => {
    const digests = writeBuilt();
    writeFileSync(join(temp.folder, file), content);
    expect(() => verifiedWorkerUrl(temp.folder, 'worker.js', digests)).toThrow(WorkerRefused);
  });

  it('refuses an import the build did not make, and a missing file', () => {
    const digests = writeBuilt();
    const planted = ENTRY.replace('./chunks/dep-1a2b.js', './chunks/planted.js');
    writeFileSync(join(temp.folder, 'worker.js'), planted);
    expect(() => verifiedWorkerUrl(temp.folder, 'worker.js', { ...digests, 'worker.js': sha256(planted) })).toThrow(
      /is not one the build made/,
    );
    writeBuilt();
    expect(() =>
      verifiedWorkerUrl(temp.folder, 'worker.js', { ...digests, 'chunks/dep-1a2b.js': sha256('x') }),
    ).toThrow(/is not the one this version was built with/);
    expect(() => verifiedWorkerUrl(join(temp.folder, 'nowhere'), 'worker.js', digests)).toThrow(/is missing/);
  });

  it('a file swapped after the check is never loaded: the thread runs what was checked', async () => {
    const digests = writeBuilt();
    const url = verifiedWorkerUrl(temp.folder, 'worker.js', digests);
    writeFileSync(join(temp.folder, 'chunks', 'dep-1a2b.js'), TAMPERED);
    expect((await answerOf(url)).answer).toBe(42);
  });

  it('the cache refuses a worker that differs from its digest: it writes on the main thread, no thread gets a key', async () => {
    const database = new DatabaseSync(join(temp.folder, 'cache.db'));
    const refused: string[] = [];
    try {
      // Run from source, the worker is cacheWriterWorker.ts; a digest that does not match it.
      const writer = createCacheWriter(
        database,
        join(temp.folder, 'cache.db'),
        'worker',
        undefined,
        (problem) => refused.push(problem.message),
        { 'cacheWriterWorker.ts': sha256('what the build made') },
      );
      expect(writer).toBeInstanceOf(InlineCacheWriter);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatch(
        /cacheWriterWorker\.ts is not the one this version was built with; it was not started/,
      );
      await writer.close();
      // Without digests (from source) the worker is used: the refusal above came from the check.
      const fromSource = createCacheWriter(
        database,
        join(temp.folder, 'cache.db'),
        'worker',
        undefined,
        () => undefined,
        null,
      );
      expect(fromSource).toBeInstanceOf(WorkerCacheWriter);
      await fromSource.close();
    } finally {
      database.close();
    }
  });

  it('the build writes every worker file’s digest into main, never into the worker’s own files', () => {
    const main = {
      type: 'chunk' as const,
      code: `const d = '__LEDGERDESK_WORKER_DIGESTS__';`,
      imports: [],
      dynamicImports: [],
    };
    const bundle = {
      'index.js': main,
      'cacheWriterWorker.js': { type: 'chunk' as const, code: ENTRY, imports: ['chunks/dep.js'], dynamicImports: [] },
      'chunks/dep.js': { type: 'chunk' as const, code: DEPENDENCY, imports: [], dynamicImports: [] },
      'style.css': { type: 'asset' as const },
    };
    expect(writeWorkerDigests(bundle, 'cacheWriterWorker.js')).toBe(1);
    const written = JSON.parse(JSON.parse(main.code.slice('const d = '.length, -1)) as string) as WorkerDigests;
    expect(written).toEqual({ 'cacheWriterWorker.js': sha256(ENTRY), 'chunks/dep.js': sha256(DEPENDENCY) });
    const selfReferring = {
      'cacheWriterWorker.js': {
        type: 'chunk' as const,
        code: `'__LEDGERDESK_WORKER_DIGESTS__'`,
        imports: [],
        dynamicImports: [],
      },
    };
    expect(() => workerDigestsOf(selfReferring, 'cacheWriterWorker.js')).toThrow(/depend on itself/);
    // Run from source, main has no digests (the placeholder was not replaced).
    expect(builtWorkerDigests()).toBeNull();
  });
});
