/** Which Chromium web mode prints the review report with: the one named, else the first on PATH, else none. */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findChromium, webPdfPrinter } from '../../../src/main/web/chromiumPdfPrinter.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-chromium-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function program(name: string, executable = true): string {
  const file = join(folder, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, executable ? 0o755 : 0o644);
  return file;
}

describe('findChromium', () => {
  it('takes LEDGERDESK_CHROMIUM when it names a program, and nothing else when it names none', () => {
    const named = program('my-chromium');
    program('chromium');
    expect(findChromium({ LEDGERDESK_CHROMIUM: named, PATH: folder })).toBe(named);
    expect(findChromium({ LEDGERDESK_CHROMIUM: join(folder, 'missing'), PATH: folder })).toBeNull();
  });

  it('looks on PATH in order, skipping files that are not programs', () => {
    program('chromium', false);
    const chrome = program('google-chrome');
    expect(findChromium({ PATH: `${join(folder, 'nowhere')}:${folder}` })).toBe(chrome);
  });

  it('offers no printer where there is no Chromium, so the report dialog says why', () => {
    expect(findChromium({ PATH: folder })).toBeNull();
    expect(webPdfPrinter({ PATH: folder })).toBeUndefined();
    program('chromium');
    expect(webPdfPrinter({ PATH: folder })).toBeTypeOf('function');
  });
});
