/** Only plain https links to a named host leave the app, and only to the browser. */
import { describe, expect, it } from 'vitest';
import { isSafeExternalUrl } from '../../../src/main/app/externalLinks.ts';

describe('isSafeExternalUrl', () => {
  it.each(['https://example.com/', 'https://docs.example.com/path?q=1#frag', 'https://example.com:443/x'])(
    'opens %s',
    (url) => {
      expect(isSafeExternalUrl(url)).toBe(true);
    },
  );

  it.each([
    ['http', 'http://example.com/'],
    ['file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/html,<script>alert(1)</script>'],
    ['smb', 'smb://attacker.example/share'],
    ['a custom protocol handler', 'ms-msdt:/id PCWDiagnostic'],
    ['our own scheme', 'app://ledgerdesk/index.html'],
    ['embedded credentials', 'https://user:pass@example.com/'],
    ['a bare host', 'https://localhost/'],
    ['another port', 'https://example.com:8443/'],
    ['a space', 'https://example.com/a b'],
    ['a newline', 'https://example.com/\nx'],
    ['a NUL', 'https://example.com/\0'],
    ['a backslash', 'https:\\\\example.com'],
    ['an over-long URL', 'https://example.com/' + 'a'.repeat(3000)],
    ['an empty string', ''],
    ['not a string', 42],
    ['relative', '/path'],
  ])('refuses %s', (_name, url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });
});
