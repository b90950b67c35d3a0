/**
 * `npm run ledger` as a real process: with the OS keychain (a throwaway gnome-keyring under
 * scripts/with-keyring.sh), and without one, where it says so in one line.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runNode } from './support/childProcess.ts';
import { startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const entry = join(process.cwd(), 'src', 'main', 'cli', 'ledger', 'ledger.ts');
const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere) {
  process.stderr.write(
    'ledger process tests with the keychain skipped: run them under sh scripts/with-keyring.sh (needs gnome-keyring).\n',
  );
}

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };

beforeEach(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 300 });
  temp = makeTempFolder();
});

afterEach(async () => {
  await sandbox.close();
  temp.remove();
});

function run(argv: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  return runNode([entry, '--data', join(temp.folder, 'data'), ...argv], options);
}

describe('ledger without a keychain', () => {
  const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/ledgerdesk-test-bus' };

  it('without a passphrase, says where the secrets would go and what to give, in one line, and keeps nothing', async () => {
    const added = await run(['profile', 'add', 'Sandbox', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId], {
      input: sandbox.keySecret,
      env,
    });
    expect(added.code).toBe(1);
    expect(added.stderr).toMatch(
      /^ledger: This machine has no keychain, so .*'s secrets are kept in a key file \(to be made\) under a passphrase, and there is no terminal to ask for it: give it with --passphrase-file FILE or LEDGERDESK_PASSPHRASE_FILE=FILE/,
    );
    expect(added.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(added.stderr).not.toContain(sandbox.keySecret);
    expect(existsSync(join(temp.folder, 'data', 'keys.json'))).toBe(false);
    const status = await run(['keychain'], { env });
    expect(status.code).toBe(1);
    // Listing profiles needs no secret, so it still works.
    expect((await run(['profile', 'list'], { env })).code).toBe(0);
  });

  it('with a passphrase file, keeps the secret sealed in the key file across runs, never in clear', async () => {
    const passphrase = join(temp.folder, 'passphrase');
    writeFileSync(passphrase, 'a passphrase of some length\n', { mode: 0o600 });
    const added = await run(
      [
        '--passphrase-file',
        passphrase,
        'profile',
        'add',
        'Sandbox',
        '--base-url',
        sandbox.baseUrl,
        '--key-id',
        sandbox.keyId,
      ],
      { input: sandbox.keySecret, env },
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const keyFile = readFileSync(join(temp.folder, 'data', 'keys.json'), 'utf8');
    expect(keyFile).not.toContain(sandbox.keySecret);
    const account = sandbox.demo.accounts[0] ?? '';
    // A later run, from the environment variable this time: the secret is there, the bank answers.
    const synced = await run(['sync', 'pending-transactions', '--profile', 'Sandbox', '--account', account], {
      env: { ...env, LEDGERDESK_PASSPHRASE_FILE: passphrase },
    });
    expect(synced.stderr).toBe('');
    expect(synced.stdout).toMatch(/^Synced 300 records/);
  });
});

describe.skipIf(!secretServiceHere)('ledger with the OS keychain', () => {
  it('adds a profile, syncs and lists, with the secret only in the keychain', async () => {
    const added = await run(['profile', 'add', 'Sandbox', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId], {
      input: `${sandbox.keySecret}\n`,
    });
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const account = sandbox.demo.accounts[0] ?? '';
    const synced = await run(['sync', 'pending-transactions', '--profile', 'Sandbox', '--account', account]);
    expect(synced.code).toBe(0);
    expect(synced.stdout).toMatch(/^Synced 300 records/);
    const listed = await run([
      '--json',
      'list',
      'pending-transactions',
      '--profile',
      'Sandbox',
      '--account',
      account,
      '--limit',
      '5',
    ]);
    const answer = JSON.parse(listed.stdout) as { asOf: string | null; source: string; rows: unknown[] };
    expect(answer.source).toBe('cache');
    expect(answer.asOf).not.toBeNull();
    expect(answer.rows).toHaveLength(5);
    const removed = await run(['profile', 'remove', 'Sandbox']);
    expect(removed.code).toBe(0);
  });
});
