/**
 * `serve`'s options of issue 35: `--expose` only with a certificate and its key (W3), both or
 * neither of the TLS pair, and `--token`, which asks the running web mode for a new sign-in
 * address over its control socket (issue 34), and says what to do where none runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPOSE_NEEDS_TLS, parseServeArguments } from '../../../src/main/web/serveArguments.ts';
import { UsageError } from '../../../src/main/cli/common/usageError.ts';
import { runServe } from '../../../src/main/web/serveCommand.ts';

describe('serve arguments', () => {
  it('refuses --expose without --tls-cert and --tls-key, and one of the pair alone', () => {
    expect(() => parseServeArguments(['--expose', '0.0.0.0'])).toThrow(new UsageError(EXPOSE_NEEDS_TLS));
    expect(() => parseServeArguments(['--tls-key', 'k.pem'])).toThrow('--tls-key needs --tls-cert (the certificate).');
    expect(parseServeArguments(['--expose', '0.0.0.0', '--tls-cert', 'c.pem', '--tls-key', 'k.pem'])).toMatchObject({
      host: '0.0.0.0',
      exposed: true,
      tls: { certFile: 'c.pem', keyFile: 'k.pem' },
    });
    // TLS on loopback is allowed too.
    expect(parseServeArguments(['--tls-cert', 'c.pem', '--tls-key', 'k.pem'])).toMatchObject({
      host: '127.0.0.1',
      exposed: false,
    });
  });

  it('serve --token on a folder no web mode runs on says so and how to start one (the running case: keysWithoutKeychain)', async () => {
    let out = '';
    let err = '';
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-serve-token-'));
    try {
      const code = await runServe(['--token', '--data', folder], {
        stdout: { write: (text: string) => (out += text) },
        stderr: { write: (text: string) => (err += text) },
        env: {},
        stopRequested: Promise.resolve(),
      });
      expect(code).toBe(1);
      expect(out).toBe('');
      expect(err).toBe(
        `ledger serve --token: no web mode is running on ${folder}: start it with npm run serve (it prints a sign-in address).\n`,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
