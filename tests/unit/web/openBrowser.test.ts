/** The redirect page that keeps the token off every command line: private, escaped, removable. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  browserOpener,
  openSecretAddressInDefaultBrowser,
  writeRedirectPage,
} from '../../../src/main/web/openBrowser.ts';

const folders: string[] = [];
function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'ledgerdesk-redirect-test-'));
  folders.push(made);
  return made;
}
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('writeRedirectPage', () => {
  it('writes a page only this user can read, in a folder only this user can open, and removes it', () => {
    const page = writeRedirectPage('http://127.0.0.1:5123/?token=abc_DEF-123', folder());
    expect(statSync(page.file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(page.file)).mode & 0o777).toBe(0o700);
    const html = readFileSync(page.file, 'utf8');
    expect(html).toContain('<meta http-equiv="refresh" content="0;url=http://127.0.0.1:5123/?token=abc_DEF-123">');
    expect(html).toContain('<a href="http://127.0.0.1:5123/?token=abc_DEF-123">');
    page.remove();
    page.remove();
    expect(existsSync(dirname(page.file))).toBe(false);
  });

  it('escapes what would end the attribute', () => {
    const page = writeRedirectPage('http://127.0.0.1:1/?a="><script>x</script>&b=1', folder());
    const html = readFileSync(page.file, 'utf8');
    expect(html).not.toContain('<script>');
    expect(html).toContain('url=http://127.0.0.1:1/?a=&quot;&gt;&lt;script&gt;x&lt;/script&gt;&amp;b=1');
  });
});

describe('openSecretAddressInDefaultBrowser', () => {
  it('writes nothing where there is no browser to open', () => {
    const here = folder();
    expect(browserOpener('linux', { PATH: here })).toBeNull();
    expect(openSecretAddressInDefaultBrowser('http://127.0.0.1:1/?token=t', { PATH: here }, here)).toBeNull();
    expect(readdirSync(here)).toEqual([]);
  });
});
