/**
 * Security gate: Electronegativity (Doyensec's Electron misconfiguration scanner) over the
 * built app in out/. Its exit code ignores findings, so this test reads its findings through
 * the programmatic API and fails on every one that is not explained in the source by an
 * inline suppression with a reason:
 *
 *     // eng-disable OPEN_EXTERNAL_JS_CHECK -- why this is safe, in a sentence.
 *     await shell.openExternal(checkedUrl);
 *
 * The bundler drops comments, so a finding in out/ is matched to its suppression by the code
 * line right under the comment (whitespace, quotes and semicolons aside).
 *
 * Two adaptations, both so that the scan covers everything rather than less:
 * - Electronegativity's parser predates class private fields (`#field`) and refuses the whole
 *   file; the copy it scans is lowered to ES2019 with TypeScript first, and a file it still
 *   cannot read fails the test.
 * - AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK is left out: it downloads Electron's release list
 *   (blocked on the build machines, and a network dependency in a unit test). Electron is
 *   pinned in package.json and upgraded deliberately.
 * The test script builds before the unit tests; run `npm run build` first when running alone.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Finding {
  id: string;
  file: string;
  sample: string;
  location: { line: number; column: number };
  description: string;
  severity: { name: string };
  confidence: { name: string };
}

interface ScanResult {
  globalChecks: number;
  atomicChecks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: Finding[];
}

type Electronegativity = (options: Record<string, unknown>) => Promise<ScanResult>;

const require = createRequire(import.meta.url);
const root = process.cwd();
const out = join(root, 'out');
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];
const SUPPRESSION = /eng-disable\s+([A-Z_]+)\s+--\s+(.+?)\s*(?:\*\/|-->)?\s*$/;
const MIN_REASON = 20;
const MIN_CODE = 12;

let scanned: string;
let result: ScanResult;

function files(folder: string, keep: (file: string) => boolean): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return files(path, keep);
    return keep(path) ? [path] : [];
  });
}

/** Code as it compares across the bundler: no whitespace, quotes, semicolons or commas. */
function normalize(code: string): string {
  return code.replace(/[\s'"`;,]/g, '');
}

interface Suppression {
  check: string;
  reason: string;
  code: string;
  where: string;
}

/** Every `eng-disable CHECK -- reason` in src/, with the code line it stands over. */
function suppressions(): Suppression[] {
  const found: Suppression[] = [];
  for (const file of files(join(root, 'src'), (path) => /\.(ts|tsx|html)$/.test(path))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      const match = SUPPRESSION.exec(line);
      if (match === null) return;
      const next = lines.slice(index + 1).find((candidate) => !/^\s*(\/\/|\/\*|\*|<!--)/.test(candidate)) ?? '';
      found.push({
        check: match[1] ?? '',
        reason: match[2] ?? '',
        code: normalize(next),
        where: `${relative(root, file)}:${String(index + 1)}`,
      });
    });
  }
  return found;
}

/**
 * Electronegativity fetches updated translations of its messages from the network before
 * every scan (blocked here, and its HTTP client then throws an unhandled error). Its English
 * messages ship in the package: load those, the way its loader does when the fetch fails.
 */
function offlineTranslations(): void {
  const loaderPath = require.resolve('@doyensec/electronegativity/dist/locales/i18n.js');
  const i18n = require('i18n') as {
    configure(options: Record<string, unknown>): void;
    setLocale(locale: string): void;
  };
  const localLoader = (): Promise<void> => {
    i18n.configure({
      locales: ['en-US'],
      defaultLocale: 'en-US',
      directory: join(loaderPath, '..'),
      updateFiles: false,
      objectNotation: true,
      retryInDefaultLocale: true,
      register: globalThis,
    });
    i18n.setLocale('en-US');
    return Promise.resolve();
  };
  const cached = require.cache[loaderPath];
  if (cached !== undefined) {
    cached.exports = localLoader;
    return;
  }
  require(loaderPath);
  const loaded = require.cache[loaderPath];
  if (loaded === undefined) throw new Error('could not load Electronegativity translations');
  loaded.exports = localLoader;
}

beforeAll(async () => {
  if (!existsSync(join(out, 'main', 'index.js'))) throw new Error('out/ is missing: run npm run build first.');
  scanned = mkdtempSync(join(tmpdir(), 'ledgerdesk-electronegativity-'));
  // pdf.js's resources (fonts, CMaps and its image decoders' emscripten builds, run in pdf.js's
  // worker only) are not Electron code; 0.5 MB of machine-made JavaScript would double the scan.
  cpSync(out, scanned, { recursive: true, filter: (source) => !source.startsWith(join(out, 'renderer', 'pdfjs')) });
  for (const file of files(scanned, (path) => ['.js', '.cjs', '.mjs'].includes(extname(path)))) {
    const lowered = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { target: ts.ScriptTarget.ES2019, module: ts.ModuleKind.ESNext, noEmitHelpers: true },
    });
    writeFileSync(file, lowered.outputText);
  }
  const electronVersion = (
    JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  offlineTranslations();
  const run = require('@doyensec/electronegativity') as Electronegativity;
  result = await run({
    input: scanned,
    output: null,
    isSarif: false,
    isRelative: true,
    customScan: [],
    excludeFromScan: EXCLUDED_CHECKS,
    electronVersionOverride: electronVersion,
  });
  // A hang guard, not a limit on the scan: it took 118 s at load 16 on the shared two-core machine.
}, 300_000);

afterAll(() => {
  rmSync(scanned, { recursive: true, force: true });
});

describe('Electronegativity over out/', () => {
  it('ran its checks over every bundle and page', () => {
    expect(result.atomicChecks).toBeGreaterThan(30);
    expect(result.globalChecks).toBeGreaterThan(3);
    const scannedFiles = files(scanned, (path) => /\.(js|cjs|mjs|html)$/.test(path)).map((file) =>
      relative(scanned, file),
    );
    expect(scannedFiles).toEqual(
      expect.arrayContaining(['main/index.js', 'main/sandbox.js', 'preload/index.cjs', 'renderer/index.html']),
    );
  });

  it('could read every file (a file it cannot parse would hide its findings)', () => {
    expect(result.errors.map((error) => `${error.file}: ${error.message}`)).toEqual([]);
  });

  it('has no finding that is not explained by an inline suppression with a reason', () => {
    const known = suppressions();
    const unexplained = result.issues.filter(
      (issue) =>
        !known.some(
          (suppression) =>
            suppression.check === issue.id &&
            suppression.code.length >= MIN_CODE &&
            normalize(issue.sample).includes(suppression.code),
        ),
    );
    expect(
      unexplained.map(
        (issue) =>
          `${issue.id} (${issue.severity.name}, ${issue.confidence.name}) ${issue.file}:${String(issue.location.line)} ${issue.sample.slice(0, 160)}`,
      ),
    ).toEqual([]);
  });

  it('every suppression gives a reason, and stands over code that is really there', () => {
    const known = suppressions();
    expect(known.length).toBeGreaterThan(0);
    for (const suppression of known) {
      expect(suppression.reason.length, `${suppression.where}: say why in a sentence`).toBeGreaterThanOrEqual(
        MIN_REASON,
      );
      expect(
        suppression.code.length,
        `${suppression.where}: no code line under the suppression`,
      ).toBeGreaterThanOrEqual(MIN_CODE);
    }
  });
});
