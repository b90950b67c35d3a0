/** Web mode serves out/renderer as app:// does, with the web bridge loaded before the renderer's own script. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHashedChunk, rendererFile, withWebBridge } from '../../../src/main/web/rendererFiles.ts';
import { CONTENT_SECURITY_POLICY } from '../../../src/shared/security/contentSecurityPolicy.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ledgerdesk-renderer-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(
    join(root, 'index.html'),
    '<html><head><script type="module" src="./assets/index.js"></script></head></html>',
  );
  writeFileSync(join(root, 'assets', 'index.js'), 'export {};');
  writeFileSync(join(root, 'assets', 'ReviewQueueScreen-C_xYrVZQ.js'), 'export {};');
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('rendererFile', () => {
  it('puts the web bridge first in index.html, with the app CSP', async () => {
    const file = await rendererFile(root, '/');
    const html = new TextDecoder().decode(file?.body);
    expect(html.indexOf('./web-bridge.js')).toBeGreaterThan(0);
    expect(html.indexOf('./web-bridge.js')).toBeLessThan(html.indexOf('./assets/index.js'));
    expect(file?.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  });

  it.each(['/../secret', '/%2e%2e/secret', '/assets/..%2findex.js', '//etc/passwd', '/.hidden', 'relative', '/a\\b'])(
    'refuses %j',
    async (path) => {
      expect(await rendererFile(root, path)).toBeNull();
    },
  );

  it('serves a file of the folder', async () => {
    expect(new TextDecoder().decode((await rendererFile(root, '/assets/index.js'))?.body)).toBe('export {};');
  });

  it('hands the sign-in answer its tab key in a meta before the bridge, and no other answer', async () => {
    const signIn = new TextDecoder().decode((await rendererFile(root, '/index.html', 'KEY-abc_123'))?.body);
    expect(signIn).toContain('<meta name="ledgerdesk-tab-key" content="KEY-abc_123">');
    expect(signIn.indexOf('ledgerdesk-tab-key')).toBeLessThan(signIn.indexOf('./web-bridge.js'));
    expect(new TextDecoder().decode((await rendererFile(root, '/'))?.body)).not.toContain('ledgerdesk-tab-key');
  });

  it('adds the bridge even to a page without scripts', () => {
    expect(withWebBridge('<head></head>')).toContain('<script type="module" src="./web-bridge.js"></script>\n</head>');
  });

  it('lets the browser keep a chunk named by its content, and nothing else', async () => {
    const chunk = await rendererFile(root, '/assets/ReviewQueueScreen-C_xYrVZQ.js');
    expect(chunk?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(chunk?.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    // index.html names the chunks of this build: it is asked again every time.
    expect((await rendererFile(root, '/'))?.headers['cache-control']).toBe('no-cache');
    expect((await rendererFile(root, '/assets/index.js'))?.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    ['/assets/index-B5TJy-D5.js', true],
    ['/assets/pdf.worker.min-CIqJB0yW.mjs', true],
    ['/assets/index-IvOj4dPX.css', true],
    ['/web-bridge.js', false],
    ['/index.html', false],
    ['/pdfjs/cmaps/UniJIS-UTF8-H.bcmap', false],
    ['/assets/index.js', false],
  ])('%s is a chunk named by its content: %s', (path, hashed) => {
    expect(isHashedChunk(path)).toBe(hashed);
  });
});
