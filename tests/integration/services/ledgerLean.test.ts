/**
 * `ledger` end to end against `npm run sandbox -- --lean` (the sandbox answering in the real
 * service's shapes, in a process of its own): a profile, its accounts, a sync of pending
 * transactions whose list has no page_next, lean applications and webhooks read and exported
 * with what the bank left out, and `ledger drift` saying what it was. Then the embedded
 * sandbox, made lean by its profile.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { NOT_SENT_TEXT } from '../../../src/shared/bank/index.ts';
import { ledger } from './support/ledgerRun.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const SANDBOX_CLI = join(import.meta.dirname, '../../../src/sandbox/cli.ts');
const PENDING = 120;

interface LeanSandbox {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  accounts: string[];
  accountApplications: string[];
  lean: boolean;
}

let child: ChildProcessWithoutNullStreams;
let sandbox: LeanSandbox;
let temp: { folder: string; remove: () => void };
const secrets = new InMemorySecretStore();
let data: string[];

beforeAll(async () => {
  temp = makeTempFolder();
  data = ['--data', join(temp.folder, 'data')];
  child = spawn(
    process.execPath,
    [SANDBOX_CLI, '--lean', '--json', '--accounts', '1', '--pending-per-account', String(PENDING)],
    { stdio: 'pipe' },
  );
  sandbox = await new Promise<LeanSandbox>((resolve, reject) => {
    let output = '';
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n') && line !== undefined) resolve(JSON.parse(line) as LeanSandbox);
    });
    child.on('exit', (code) => {
      reject(new Error(`npm run sandbox -- --lean exited (${String(code)}): ${errors}`));
    });
  });
});

afterAll(async () => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  temp.remove();
});

async function ok(argv: string[], stdin = ''): Promise<string> {
  const result = await ledger([...data, ...argv], secrets, stdin);
  expect(result.stderr, argv.join(' ')).toBe('');
  expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

describe('ledger against the sandbox in its lean (real) shapes', () => {
  it('is the lean sandbox', () => {
    expect(sandbox.lean).toBe(true);
  });

  it('syncs, lists, exports and tells the drift', async () => {
    await ok(['profile', 'add', 'Lean', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId], sandbox.keySecret);
    const [account] = sandbox.accounts;
    if (account === undefined) throw new Error('no account');
    expect(await ok(['accounts', '--profile', 'Lean'])).toContain(account);

    await ok(['sync', 'pending-transactions', '--profile', 'Lean', '--account', account, '--page-size', '25']);
    const pending = JSON.parse(
      await ok([
        '--json',
        'list',
        'pending-transactions',
        '--profile',
        'Lean',
        '--account',
        account,
        '--limit',
        '1000',
      ]),
    ) as { rows: Record<string, unknown>[]; total: number };
    expect(pending.total).toBe(PENDING);
    expect(pending.rows.some((row) => 'partner_deposit_id' in row)).toBe(false);

    for (const id of sandbox.accountApplications.slice(0, 3)) {
      await ok(['sync', 'application', '--profile', 'Lean', '--id', id]);
    }
    const applications = await ok(['list', 'applications', '--profile', 'Lean']);
    expect(applications).toContain(NOT_SENT_TEXT);
    const csv = join(temp.folder, 'applications.csv');
    await ok(['export', 'applications', '--profile', 'Lean', '--csv', csv]);
    const [header, ...rows] = readFileSync(csv, 'utf8').trim().split('\r\n');
    const ownership = header?.split(',').indexOf('ownership_type') ?? -1;
    expect(rows.map((row) => row.split(',')[ownership])).toEqual([NOT_SENT_TEXT, NOT_SENT_TEXT, NOT_SENT_TEXT]);

    await ok(['sync', 'webhooks', '--profile', 'Lean']);

    const text = await ok(['drift', '--profile', 'Lean']);
    expect(text).toMatch(/^Bank compatibility of Lean, since /);
    expect(text).toMatch(/account_application\s+3\s+ownership_type\s+left out\s+3/);
    expect(text).toMatch(/pending_transaction list\s+\d+\s+page_next\s+left out/);
    const report = JSON.parse(await ok(['--json', 'drift', '--profile', 'Lean'])) as {
      profile: string;
      resources: { resource: string; records: number; missing: { field: string; count: number }[] }[];
    };
    expect(report.profile).toBe('Lean');
    const application = report.resources.find((resource) => resource.resource === 'account_application');
    expect(application?.missing.map((field) => field.field).sort()).toEqual([
      'account_number',
      'ownership_type',
      'product',
    ]);
    // Every record read counts, the sync's single-record probes of the bank included.
    const transactions = report.resources.find((resource) => resource.resource === 'pending_transaction');
    expect(transactions?.records).toBeGreaterThanOrEqual(PENDING);
    expect(transactions?.missing).toEqual([{ field: 'partner_deposit_id', count: transactions?.records }]);
    // Names and counts only: no value the bank sent.
    expect(JSON.stringify(report)).not.toMatch(/acct_|aact_|apsn_/);

    expect(await ok(['drift', 'reset', '--profile', 'Lean'])).toMatch(/start over/);
    expect(await ok(['drift', '--profile', 'Lean'])).toMatch(/^Nothing read from Lean's bank yet/);
  });

  it('makes the embedded sandbox lean through its profile', async () => {
    expect(await ok(['profile', 'update', 'Local sandbox', '--lean'])).toMatch(/lean shapes from its next start/);
    await ok(['sync', 'webhooks', '--profile', 'Local sandbox']);
    const report = JSON.parse(await ok(['--json', 'drift', '--profile', 'Local sandbox'])) as {
      resources: { resource: string; missing: { field: string }[] }[];
    };
    expect(report.resources.find((resource) => resource.resource === 'webhook list')?.missing).toEqual([
      { field: 'page_next', count: 1 },
    ]);
    const refused = await ledger([...data, 'profile', 'update', 'Lean', '--lean'], secrets);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Only the embedded sandbox answers lean/);
  });
});
