/**
 * `npm run build` (electron-vite) produced the three bundles, and each script parses.
 * The test script runs the build before the unit tests; run `npm run build` first when
 * running this file alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const out = join(process.cwd(), 'out');

describe('electron-vite build output', () => {
  it.each([
    ['main', 'out/main/index.js'],
    ['preload', 'out/preload/index.cjs'],
  ])('the %s bundle exists and passes node --check', (_name, file) => {
    const path = join(process.cwd(), file);
    expect(existsSync(path), `${file} is missing: run npm run build`).toBe(true);
    // node --check exits non-zero (and execFileSync throws) on a syntax error.
    execFileSync(process.execPath, ['--check', path], { stdio: 'pipe' });
  });

  it('the preload is one self-contained CommonJS file, as a sandboxed preload must be', () => {
    const preload = readFileSync(join(out, 'preload/index.cjs'), 'utf8');
    expect(preload).toContain('require("electron")');
    expect(preload).not.toMatch(/\bimport\s*[{*\w]/);
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

  it('keeps node:sqlite external in the main build', () => {
    expect(readFileSync(join(process.cwd(), 'electron.vite.config.ts'), 'utf8')).toContain("external: ['node:sqlite']");
  });
});
