/**
 * The `ledger` command line against the real sandbox: profiles with the secret on standard
 * input, sync, reads from the cache that say how old they are, CSV export, the audit log,
 * and errors as one line with a non-zero exit code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { osUserName } from '../../../src/main/services/review/reviewer.ts';
import { ledger } from './support/ledgerRun.ts';
import { startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
let secrets: InMemorySecretStore;
let data: string[];

beforeEach(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 1200 });
  temp = makeTempFolder();
  secrets = new InMemorySecretStore();
  data = ['--data', join(temp.folder, 'data')];
});

afterEach(async () => {
  await sandbox.close();
  temp.remove();
});

function account(): string {
  return sandbox.demo.accounts[0] ?? '';
}

async function addSandboxProfile(): Promise<void> {
  const added = await ledger(
    [...data, 'profile', 'add', 'Sandbox', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId],
    secrets,
    sandbox.keySecret + '\n',
  );
  expect(added).toMatchObject({ code: 0, stderr: '' });
}

describe('profiles', () => {
  it('adds a profile with the secret from standard input, never echoing it', async () => {
    await addSandboxProfile();
    const list = await ledger([...data, 'profile', 'list', '--json'], secrets);
    const { rows } = JSON.parse(list.stdout) as { rows: { name: string; keyId: string | null }[] };
    expect(rows.map((row) => row.name)).toEqual(['Local sandbox', 'Sandbox']);
    expect(list.stdout).not.toContain(sandbox.keySecret);
    const text = await ledger([...data, 'profile', 'list'], secrets);
    expect(text.stdout).toMatch(new RegExp(`Sandbox\\s+remote\\s+basic\\s+${sandbox.keyId}\\s+no`));
  });

  it('refuses a secret given as an argument and an empty standard input', async () => {
    const asArgument = await ledger(
      [...data, 'profile', 'add', 'X', '--base-url', sandbox.baseUrl, '--key-id', 'k', '--secret', 'abc12345'],
      secrets,
    );
    expect(asArgument).toMatchObject({ code: 2 });
    expect(asArgument.stderr).toMatch(/^ledger: Unknown option '--secret'/);
    const empty = await ledger(
      [...data, 'profile', 'add', 'X', '--base-url', sandbox.baseUrl, '--key-id', 'k'],
      secrets,
      '',
    );
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe(
      'ledger: No API key secret on standard input: pipe it in, e.g. printf %s "$SECRET" | ledger …\n',
    );
  });

  it('removes a profile with its secret', async () => {
    await addSandboxProfile();
    const removed = await ledger([...data, 'profile', 'remove', 'Sandbox'], secrets);
    expect(removed.stdout).toBe('Removed profile Sandbox, its secret and its cached data.\n');
    const again = await ledger([...data, 'profile', 'remove', 'Sandbox'], secrets);
    expect(again).toMatchObject({
      code: 1,
      stderr: 'ledger: There is no profile named Sandbox; see the list of profiles.\n',
    });
  });
});

describe('sync, list, export, audit', () => {
  it('syncs, then answers from the cache saying how old it is', async () => {
    await addSandboxProfile();
    const synced = await ledger(
      [...data, 'sync', 'pending-transactions', '--profile', 'Sandbox', '--account', account()],
      secrets,
    );
    expect(synced.code).toBe(0);
    expect(synced.stdout).toMatch(/^Synced 1,200 records \(1,200 new or changed, 0 removed\) in [0-9.]+ s\.\n$/);

    const text = await ledger(
      [...data, 'list', 'pending-transactions', '--profile', 'Sandbox', '--account', account(), '--limit', '3'],
      secrets,
    );
    expect(text.stdout).toMatch(/^3 of 1,200 from the offline cache, synced \d+ s ago \(/);
    expect(text.stdout).toMatch(/DATE\s+AMOUNT\s+TYPE\s+DESCRIPTION/);
    expect(text.stdout).toMatch(/More: run the same command with --next\./);

    const json = await ledger(
      [
        ...data,
        '--json',
        'list',
        'pending-transactions',
        '--profile',
        'Sandbox',
        '--account',
        account(),
        '--type',
        'hold',
        '--limit',
        '1000',
      ],
      secrets,
    );
    const answer = JSON.parse(json.stdout) as { asOf: string; source: string; rows: { type: string }[] };
    expect(answer.source).toBe('cache');
    expect(Date.parse(answer.asOf)).not.toBeNaN();
    expect(answer.rows.length).toBeGreaterThan(0);
    expect(answer.rows.every((row) => row.type === 'hold')).toBe(true);

    const file = join(temp.folder, 'holds.csv');
    const exported = await ledger(
      [
        ...data,
        'export',
        'pending-transactions',
        '--profile',
        'Sandbox',
        '--account',
        account(),
        '--type',
        'hold',
        '--csv',
        file,
      ],
      secrets,
    );
    expect(exported.stdout).toBe(`Wrote ${String(answer.rows.length)} rows to ${file}.\n`);
    expect(
      readFileSync(file, 'utf8')
        .split('\r\n')
        .filter((line) => line !== ''),
    ).toHaveLength(answer.rows.length + 1);
  });

  it('syncs and lists an application, its history, webhook sends and webhooks', async () => {
    await addSandboxProfile();
    const id = sandbox.demo.accountApplications[0] ?? '';
    expect((await ledger([...data, 'sync', 'application', '--profile', 'Sandbox', '--id', id], secrets)).code).toBe(0);
    const applications = await ledger([...data, '--json', 'list', 'applications', '--profile', 'Sandbox'], secrets);
    expect((JSON.parse(applications.stdout) as { rows: { id: string }[] }).rows.map((row) => row.id)).toEqual([id]);
    const history = await ledger([...data, 'list', 'application-history', '--profile', 'Sandbox', '--id', id], secrets);
    expect(history.stdout).toMatch(/^1 from the offline cache, synced/);
    expect(
      (await ledger([...data, 'sync', 'webhook-sends', '--profile', 'Sandbox', '--status', 'error'], secrets)).code,
    ).toBe(0);
    const sends = await ledger(
      [...data, 'list', 'webhook-sends', '--profile', 'Sandbox', '--status', 'error'],
      secrets,
    );
    expect(sends.stdout).toMatch(/^0 of 0 from the offline cache, synced \d+ s ago/);
    expect((await ledger([...data, 'sync', 'webhooks', '--profile', 'Sandbox'], secrets)).code).toBe(0);
    expect((await ledger([...data, 'list', 'webhooks', '--profile', 'Sandbox'], secrets)).stdout).toMatch(
      /^0 of 0 from the offline cache, synced/,
    );
  });

  it('starts the embedded sandbox for the "Local sandbox" profile, with a key kept in memory only', async () => {
    const synced = await ledger([...data, '--json', 'sync', 'webhooks', '--profile', 'Local sandbox'], secrets);
    expect(synced.stderr).toBe('');
    expect(JSON.parse(synced.stdout)).toMatchObject({ state: 'done', kind: 'webhooks' });
    expect(await secrets.has('profile:local-sandbox')).toBe(false);
    expect(readFileSync(join(temp.folder, 'data', 'sandbox.db')).length).toBeGreaterThan(0);
  });

  it('lists the audit log', async () => {
    await addSandboxProfile();
    const audit = await ledger([...data, '--json', 'audit'], secrets);
    const { rows } = JSON.parse(audit.stdout) as { rows: { action: string; result: string; who: string }[] };
    // Who acted, as the entry records it (issue 38): the reviewer is the OS login by default.
    expect(rows).toMatchObject([{ action: 'profile.add', result: 'ok', who: `${osUserName()} (ledger command line)` }]);
    const text = await ledger([...data, 'audit'], secrets);
    expect(text.stdout).toMatch(/^AT\s+WHO\s+PROFILE\s+ACTION\s+TARGET\s+RESULT\s+DETAIL\n/);
    expect(text.stdout).toContain(`${osUserName()} (ledger command line)`);
    const file = join(temp.folder, 'audit.csv');
    expect((await ledger([...data, 'export', 'audit', '--csv', file], secrets)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(
      /^at,profile,action,target,result,detail\r\n.*,Sandbox,profile\.add,prof_/,
    );
  });

  it('says to sync first when no account is cached yet (exit 1, no empty table)', async () => {
    await addSandboxProfile();
    const text = await ledger(
      [...data, 'list', 'pending-transactions', '--profile', 'Sandbox', '--account', account()],
      secrets,
    );
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toBe(
      `ledger: No account of Sandbox has cached pending transactions, so none is ${account()}: sync an account first (ledger sync pending-transactions --profile "Sandbox" --account ID).\n`,
    );
  });
});

describe('errors: one line, non-zero exit', () => {
  it('names a bad option value', async () => {
    await addSandboxProfile();
    const bad = await ledger(
      [...data, 'list', 'pending-transactions', '--profile', 'Sandbox', '--account', account(), '--from', '2025-02-30'],
      secrets,
    );
    expect(bad).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'ledger: --from: must be a real calendar date (YYYY-MM-DD)\n',
    });
    const limit = await ledger([...data, 'audit', '--limit', '5000'], secrets);
    expect(limit.stderr).toBe('ledger: --limit: must be from 1 to 1000\n');
    const status = await ledger(
      [...data, 'list', 'webhook-sends', '--profile', 'Sandbox', '--status', 'lost'],
      secrets,
    );
    expect(status.stderr).toBe('ledger: --status: must be one of sent, skipped, error\n');
  });

  it('says what is missing or unknown', async () => {
    expect((await ledger([...data, 'sync', 'pending-transactions', '--profile', 'Sandbox'], secrets)).stderr).toBe(
      'ledger: `sync pending-transactions` needs --account.\n',
    );
    expect((await ledger([...data, 'frobnicate'], secrets)).stderr).toBe(
      'ledger: Unknown command `frobnicate` (see --help).\n',
    );
    expect(
      (await ledger([...data, 'list', 'webhooks', '--profile', 'Sandbox', '--account', 'x'], secrets)).stderr,
    ).toBe('ledger: `list webhooks` has no option --account.\n');
  });

  it('says "check the API key" once on a wrong secret', async () => {
    await ledger(
      [...data, 'profile', 'add', 'Wrong', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId],
      secrets,
      'not-the-secret',
    );
    const failed = await ledger([...data, 'sync', 'webhooks', '--profile', 'Wrong'], secrets);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^ledger: GET \/webhook \(401\): .*Check the API key of profile Wrong\.\n$/);
    expect(failed.stderr.split('\n')).toHaveLength(2);
  });

  it('lists the bank’s accounts, and offline those with cached transactions', async () => {
    await addSandboxProfile();
    const text = await ledger([...data, 'accounts', '--profile', 'Sandbox'], secrets);
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(/^1 account at the bank\.\nID\s+NAME\s+NUMBER\s+STATUS\s+BALANCE\s+AVAILABLE\n/);
    expect(text.stdout).toContain(account());
    const json = await ledger([...data, '--json', 'accounts', '--profile', 'Sandbox'], secrets);
    const answer = JSON.parse(json.stdout) as { source: string; rows: { id: string; balance: string }[] };
    expect(answer.source).toBe('bank');
    expect(answer.rows.map((row) => row.id)).toEqual([account()]);
    expect(answer.rows[0]?.balance).toMatch(/^-?\d+\.\d\d$/);

    await ledger([...data, 'sync', 'pending-transactions', '--profile', 'Sandbox', '--account', account()], secrets);
    await sandbox.close();
    const offline = await ledger([...data, '--json', 'accounts', '--profile', 'Sandbox'], secrets);
    expect(offline.code).toBe(0);
    expect(offline.stderr).toMatch(
      /^ledger: GET \/account: the bank at .* cannot be reached .*Showing the accounts with cached transactions\.\n$/,
    );
    expect(JSON.parse(offline.stdout)).toEqual({ source: 'cache', rows: [{ id: account() }] });
    sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 1 });
  });

  it('says the bank cannot be reached when it is down', async () => {
    await addSandboxProfile();
    await sandbox.close();
    const failed = await ledger([...data, 'sync', 'webhooks', '--profile', 'Sandbox'], secrets);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      /^ledger: GET \/webhook: the bank at http:\/\/127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\)\. Check your network connection, or try later\.\n$/,
    );
    sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 1 });
  });

  it('prints the usage with --help', async () => {
    const help = await ledger(['--help'], secrets);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: ledger \[--data DIR\] \[--json\] <command>/);
  });
});
