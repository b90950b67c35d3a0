/**
 * N9 and I7 of the security review of 3b75e6a: on a machine where the app never ran, the
 * standalone listener (`npm run listen`, its real entry point, spawned), `ledger` and the app's
 * cache create the data folder 0700 and their databases 0600, whatever the umask; the listener's
 * banner says the bodies are kept in clear. The sandbox bank's data file (registration secrets,
 * its key) is 0600 too.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { ledger } from '../integration/services/support/ledgerRun.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { startWebModeApp } from '../e2e/support/webModeStart.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
const mode = (path: string): number => statSync(path).mode & 0o777;

describe.skipIf(!secretServiceHere)('N9, I7: what the app writes is its owner’s only', () => {
  const temp = makeTempFolder('ledgerdesk-n9-');
  afterAll(() => {
    temp.remove();
  });

  it('npm run listen on a fresh machine: folder 0700, database 0600, the banner says bodies are in clear', async () => {
    const config = join(temp.folder, 'xdg');
    const child = spawn(process.execPath, ['src/main/cli/listen/listen.ts', '--port', '0'], {
      cwd: process.cwd(),
      env: { ...process.env, XDG_CONFIG_HOME: config, NO_COLOR: '1' },
    });
    const lines = createInterface({ input: child.stdout });
    const banner = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => {
        reject(new Error(`the listener exited (${String(code)})`));
      });
    });
    const url = /Listening on (http:\/\/\S+)/.exec(banner)?.[1] ?? '';
    await fetch(`${url}/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"note":"Ada Lovelace payroll"}',
    });
    child.kill('SIGINT');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(banner).toMatch(/bodies and headers in clear/);
    const folder = join(config, 'Ledgerdesk');
    expect(mode(folder)).toBe(0o700);
    expect(mode(join(folder, 'listener.sqlite'))).toBe(0o600);
  });

  it('ledger and the sandbox data file', async () => {
    const store = new KeyringSecretStore(`Ledgerdesk-test-n9-${randomUUID()}`);
    const data = join(temp.folder, 'ledger-data');
    expect((await ledger(['--data', data, 'audit', 'verify'], store)).code).toBe(0);
    expect(mode(data)).toBe(0o700);
    expect(mode(join(data, 'cache.db'))).toBe(0o600);
    const sandboxFile = join(temp.folder, 'sandbox-data', 'sandbox.db');
    const sandbox = await startSandbox({ port: 0, dataFile: sandboxFile, pendingTransactionsPerAccount: 1 });
    await sandbox.close();
    expect(mode(sandboxFile)).toBe(0o600);
    expect(mode(join(temp.folder, 'sandbox-data'))).toBe(0o700);
  });

  it('an existing data folder open to others (0755) is 0700 once ledger or web mode starts on it (review I-W2)', async () => {
    const store = new KeyringSecretStore(`Ledgerdesk-test-iw2-${randomUUID()}`);
    const cliFolder = join(temp.folder, 'made-by-hand-cli');
    mkdirSync(cliFolder);
    chmodSync(cliFolder, 0o755);
    const listed = await ledger(['--data', cliFolder, 'audit', 'verify'], store);
    expect(listed.code).toBe(0);
    expect(mode(cliFolder)).toBe(0o700);
    expect(listed.stderr).toContain(
      `the data folder ${cliFolder} was open to other users (mode 0755): it is 0700 now.`,
    );

    const webFolder = join(temp.folder, 'made-by-hand-web');
    mkdirSync(webFolder);
    chmodSync(webFolder, 0o750);
    const app = await startWebModeApp(webFolder);
    try {
      expect(mode(webFolder)).toBe(0o700);
      expect(app.logged.join('\n')).toContain('(mode 0750): it is 0700 now.');
    } finally {
      await app.shell.stop();
    }
  });
});
