/**
 * `npm run build` (electron-vite) produced the three bundles, and each script parses.
 * The test script runs the build before the unit tests; run `npm run build` first when
 * running this file alone.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { verifiedWorkerUrl } from '../../src/main/services/cache/workerIntegrity.ts';

const out = join(process.cwd(), 'out');

describe('electron-vite build output', () => {
  it.each([
    ['main', 'out/main/index.js'],
    ['preload', 'out/preload/index.cjs'],
    ['cache writer worker', 'out/main/cacheWriterWorker.js'],
    ['web mode server', 'out/web/serve.js'],
    ['web mode sandbox process', 'out/web/sandboxChild.js'],
    ['web mode cache writer worker', 'out/web/cacheWriterWorker.js'],
  ])('the %s bundle exists and passes node --check', (_name, file) => {
    const path = join(process.cwd(), file);
    expect(existsSync(path), `${file} is missing: run npm run build`).toBe(true);
    // node --check exits non-zero (and execFileSync throws) on a syntax error.
    execFileSync(process.execPath, ['--check', path], { stdio: 'pipe' });
  });

  it('the preload is one self-contained CommonJS file, as a sandboxed preload must be', () => {
    const preload = readFileSync(join(out, 'preload/index.cjs'), 'utf8');
    expect(preload).toContain('require("electron")');
    // An import statement starts its line; words like `importRequests:` in the contract are not one.
    expect(preload).not.toMatch(/^\s*import(\s+[\w{*]|\s*[{*"'])/m);
    expect(preload).not.toMatch(/\bimport\s*\(/);
    expect(preload).not.toMatch(/require\("\.\.?\//);
  });

  it('the renderer has its page, its script and the strict CSP', () => {
    const html = readFileSync(join(out, 'renderer/index.html'), 'utf8');
    expect(html).toContain("script-src 'self'");
    expect(html).toContain("connect-src 'self'");
    const script = /src="\.?\/?(assets\/[^"]+\.js)"/.exec(html);
    expect(script, 'index.html must load a bundled script').not.toBeNull();
    if (script?.[1] !== undefined) expect(existsSync(join(out, 'renderer', script[1]))).toBe(true);
  });

  it('the renderer ships pdf.js’s CMaps, standard fonts and JavaScript image decoders, with their licences (I-P1)', () => {
    const pdfjs = join(out, 'renderer', 'pdfjs');
    const cmaps = readdirSync(join(pdfjs, 'cmaps'));
    expect(cmaps.filter((file) => file.endsWith('.bcmap')).length).toBeGreaterThan(100);
    expect(cmaps).toContain('LICENSE');
    expect(readdirSync(join(pdfjs, 'standard_fonts'))).toEqual(
      expect.arrayContaining(['FoxitDingbats.pfb', 'FoxitSymbol.pfb', 'LiberationSans-Regular.ttf', 'LICENSE_FOXIT']),
    );
    const decoders = readdirSync(join(pdfjs, 'wasm'));
    expect(decoders).toEqual(expect.arrayContaining(['openjpeg_nowasm_fallback.js', 'jbig2_nowasm_fallback.js']));
    // No WebAssembly: the content policy has no 'wasm-unsafe-eval' to run it.
    expect(decoders.filter((file) => file.endsWith('.wasm'))).toEqual([]);
  });

  it('the cache finds its writer worker from the bundle: the lookup sits beside the worker file', () => {
    // workerFile() resolves ./cacheWriterWorker.js against its own module's URL: that module
    // must be a top-level file of out/main (not a chunk in another folder).
    const holders = readdirSync(join(out, 'main'), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.js'))
      .filter((name) => readFileSync(join(out, 'main', name), 'utf8').includes('"./cacheWriterWorker.js"'));
    expect(holders).toEqual(['index.js']);
  });

  it('the bundled cache writer worker runs a write plan on its own connection', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-worker-'));
    try {
      const file = join(folder, 'cache.db');
      const setup = new DatabaseSync(file);
      setup.exec('CREATE TABLE probe (x INTEGER PRIMARY KEY) STRICT');
      setup.close();
      const worker = new Worker(pathToFileURL(join(out, 'main/cacheWriterWorker.js')), { workerData: { file } });
      const replies: unknown[] = [];
      let waiting: { count: number; resolve: (replies: unknown[]) => void } | null = null;
      worker.on('message', (message: unknown) => {
        replies.push(message);
        if (waiting !== null && replies.length >= waiting.count) waiting.resolve(replies);
      });
      const answered = (count: number): Promise<unknown[]> =>
        new Promise((resolve, reject) => {
          waiting = { count, resolve };
          worker.once('error', reject);
        });
      const insert = (...values: number[]) => [
        { sql: 'INSERT INTO probe (x) VALUES (?)', rows: values.map((x) => [x]) },
      ];
      const all = answered(5);
      // Posted at once: the thread joins the queued pages of stream 1; 1 again is refused (a
      // primary key), and so is the page of stream 1 after it; stream 2 goes on.
      worker.postMessage({ id: 1, pages: [insert(1, 2, 3), insert(4)], stream: 1 });
      worker.postMessage({ id: 2, pages: [insert(5)], stream: 1 });
      worker.postMessage({ id: 3, pages: [insert(1)], stream: 1 });
      worker.postMessage({ id: 4, pages: [insert(6)], stream: 1 });
      worker.postMessage({ id: 5, pages: [insert(7)], stream: 2 });
      const [first, second, third, fourth, fifth] = (await all) as {
        id: number;
        kept: number[][];
        error?: { message: string };
      }[];
      expect(first).toEqual({ id: 1, kept: [[3], [1]] });
      expect(second).toEqual({ id: 2, kept: [[1]] });
      expect(third?.error?.message).toMatch(/UNIQUE constraint failed/);
      expect(fourth).toMatchObject({ id: 4, kept: [], error: third?.error });
      expect(fifth).toEqual({ id: 5, kept: [[1]] });
      const closed = answered(6);
      worker.postMessage({ id: 6, close: true });
      expect((await closed).at(-1)).toEqual({ id: 6, kept: [] });
      await worker.terminate();
      const check = new DatabaseSync(file);
      expect(check.prepare('SELECT x FROM probe ORDER BY x').all()).toEqual([1, 2, 3, 4, 5, 7].map((x) => ({ x })));
      check.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('main holds the digest of every file of the worker, and the worker starts from the checked bytes (N12)', async () => {
    const index = readFileSync(join(out, 'main/index.js'), 'utf8');
    const literal = /BUILT_DIGESTS = ("(?:[^"\\]|\\.)*");/.exec(index)?.[1];
    expect(literal, 'the build wrote the digests into main').toBeDefined();
    const digests = JSON.parse(JSON.parse(literal ?? '""') as string) as Record<string, string>;
    expect(Object.keys(digests)).toContain('cacheWriterWorker.js');
    expect(Object.keys(digests).some((name) => name.startsWith('chunks/'))).toBe(true);
    for (const [name, digest] of Object.entries(digests)) {
      expect(
        createHash('sha256')
          .update(readFileSync(join(out, 'main', name)))
          .digest('hex'),
        name,
      ).toBe(digest);
    }
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-worker-'));
    try {
      const worker = new Worker(verifiedWorkerUrl(join(out, 'main'), 'cacheWriterWorker.js', digests), {
        workerData: { file: join(folder, 'cache.db') },
      });
      const reply = new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      worker.postMessage({ id: 1, close: true });
      expect(await reply).toEqual({ id: 1, kept: [] });
      await worker.terminate();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('web mode runs from its bundle: one folder, the worker beside the cache, its digests written, no TypeScript', () => {
    const files = readdirSync(join(out, 'web'), { recursive: true }).map(String);
    // Chunks beside the entries: the cache's `./cacheWriterWorker.js` and forkSandbox's
    // sandboxChild.js are looked up beside the code that names them.
    expect(files.filter((name) => name.includes('/'))).toEqual([]);
    const code = files
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(out, 'web', name), 'utf8'));
    expect(code.filter((text) => text.includes('"./cacheWriterWorker.js"'))).toHaveLength(1);
    expect(code.some((text) => /BUILT_DIGESTS = "\{/.test(text))).toBe(true);
    // Nothing left to load from src/: no import of a .ts file.
    for (const text of code) expect(text).not.toMatch(/(from|import\()\s*["'][^"']+\.ts["']/);
    // Dependencies stay in node_modules (never electron).
    for (const text of code) expect(text).not.toMatch(/from "electron"/);
  });

  it('keeps node:sqlite external in the main build', () => {
    expect(readFileSync(join(process.cwd(), 'electron.vite.config.ts'), 'utf8')).toContain("external: ['node:sqlite']");
  });
});
