/** The app:// protocol serves only files inside the renderer folder, with the CSP. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppProtocolHandler, resolveAppFile } from '../../../src/main/app/appProtocol.ts';
import { CONTENT_SECURITY_POLICY } from '../../../src/shared/security/contentSecurityPolicy.ts';

const base = mkdtempSync(join(tmpdir(), 'ledgerdesk-protocol-'));
const root = join(base, 'renderer');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Ledgerdesk</title>');
writeFileSync(join(root, 'assets', 'main.js'), 'console.log(1)');
writeFileSync(join(base, 'secret.txt'), 'outside the renderer folder');
writeFileSync(join(root, '.env'), 'HIDDEN=1');

describe('resolveAppFile', () => {
  it.each([
    ['app://ledgerdesk/', 'index.html'],
    ['app://ledgerdesk/index.html', 'index.html'],
    ['app://ledgerdesk/assets/main.js', 'assets/main.js'],
    ['app://ledgerdesk/assets/main.js?v=1#x', 'assets/main.js'],
    ['app://ledgerdesk/pending-transactions', 'index.html'],
    ['app://ledgerdesk/assets/name%20with%20space.js', 'assets/name with space.js'],
  ])('%s → %s', (url, file) => {
    expect(resolveAppFile(root, url)).toBe(join(root, file));
  });

  it.each([
    ['a parent segment', 'app://ledgerdesk/../secret.txt'],
    ['parent segments deeper', 'app://ledgerdesk/assets/../../secret.txt'],
    ['an encoded parent segment', 'app://ledgerdesk/%2e%2e/secret.txt'],
    ['an upper-case encoded parent segment', 'app://ledgerdesk/%2E%2E/secret.txt'],
    ['a half-encoded parent segment', 'app://ledgerdesk/.%2e/secret.txt'],
    ['an encoded slash', 'app://ledgerdesk/..%2fsecret.txt'],
    ['an encoded backslash', 'app://ledgerdesk/..%5csecret.txt'],
    ['a backslash', 'app://ledgerdesk/assets\\..\\..\\secret.txt'],
    ['an absolute path', 'app://ledgerdesk//etc/passwd'],
    ['an absolute encoded path', 'app://ledgerdesk/%2fetc%2fpasswd'],
    ['a drive letter', 'app://ledgerdesk/C:/Windows/win.ini'],
    ['a NUL byte', 'app://ledgerdesk/index.html%00.js'],
    ['a bad escape', 'app://ledgerdesk/%E0%A4%A'],
    ['a dot segment', 'app://ledgerdesk/./index.html'],
    ['a hidden file', 'app://ledgerdesk/.env'],
    ['another host', 'app://evil/index.html'],
    ['another scheme', 'file:///etc/passwd'],
    ['https', 'https://ledgerdesk/index.html'],
    ['credentials', 'app://user:pass@ledgerdesk/index.html'],
    ['not a URL', 'index.html'],
  ])('refuses %s', (_name, url) => {
    expect(resolveAppFile(root, url)).toBeNull();
  });
});

describe('the protocol handler', () => {
  const handler = createAppProtocolHandler({
    root,
    readFile: async (file) => {
      try {
        return new Uint8Array(await readFile(file));
      } catch {
        return null;
      }
    },
  });

  it('serves a file with its media type and the CSP header', async () => {
    const response = await handler(new Request('app://ledgerdesk/assets/main.js'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('console.log(1)');
  });

  it('answers 404 for traversal and missing files, and never reads outside the folder', async () => {
    for (const url of [
      'app://ledgerdesk/%2e%2e/secret.txt',
      'app://ledgerdesk/missing.js',
      'app://ledgerdesk/..%2fsecret.txt',
    ]) {
      const response = await handler(new Request(url));
      expect(response.status, url).toBe(404);
      expect(await response.text()).not.toContain('outside the renderer folder');
    }
  });

  it('answers 405 to anything but GET and HEAD', async () => {
    const response = await handler(new Request('app://ledgerdesk/index.html', { method: 'POST', body: 'x' }));
    expect(response.status).toBe(405);
  });
});
