/**
 * `ledger review list` as the officer's queue, against the real sandbox (two accounts synced)
 * and a real cache file: without --account it lists across accounts, each row with its
 * account and the columns a person reads (date, time, amount formatted, description); the
 * parts of the queue and its filters; `--next` continues where the last page stopped and
 * says when there is nothing more; every bad input is one line and the right exit code.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import { accountLabel } from '../../../src/shared/review/itemNames.ts';
import { ledger } from './support/ledgerRun.ts';
import { startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
const secrets = new InMemorySecretStore();
let services: LedgerServices;
let profile: Profile;
let data: string[];

interface Row {
  kind: string;
  ref: string;
  accountId: string | null;
  state: string;
  record: { amount?: string; desc?: string; date?: string };
}

beforeAll(async () => {
  sandbox = await startBank({ accounts: 2, pendingTransactionsPerAccount: 40 });
  temp = makeTempFolder();
  const folder = join(temp.folder, 'data');
  data = ['--data', folder];
  services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: secrets,
    profileStorage: new FileProfileStorage(folder),
    cacheWriter: 'inline',
  });
  profile = await services.addProfile(
    { name: 'Sandbox', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
    sandbox.keySecret,
  );
  for (const accountId of sandbox.demo.accounts) {
    const outcome = await services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId }).done;
    expect(outcome.state).toBe('done');
  }
});

afterAll(async () => {
  await services.close();
  await sandbox.close();
  temp.remove();
});

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return ledger([...data, ...argv], secrets);
}

async function rowsOf(...argv: string[]): Promise<{ rows: Row[]; nextCursor: string | null }> {
  const answer = await cli('review', 'list', '--profile', 'Sandbox', ...argv, '--json');
  expect(answer.stderr).toBe('');
  expect(answer.code).toBe(0);
  return JSON.parse(answer.stdout) as { rows: Row[]; nextCursor: string | null };
}

describe('ledger review list, the queue across accounts', () => {
  it('lists the unreviewed of every account without --account, each with its account, newest first', async () => {
    const accounts = sandbox.demo.accounts;
    expect(accounts).toHaveLength(2);
    const { rows } = await rowsOf('--status', 'unreviewed', '--kind', 'pending-transaction', '--limit', '1000');
    expect(rows).toHaveLength(80);
    expect(new Set(rows.map((row) => row.accountId))).toEqual(new Set(accounts));
    for (const row of rows) expect(row).toMatchObject({ kind: 'pending-transaction', state: 'unreviewed' });
    // Newest first across both accounts.
    const times = rows.map((row) => (row.record as { extended_timestamp?: string }).extended_timestamp ?? '');
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('shows a person the columns they read, money formatted, and the next page with --next', async () => {
    const all = await rowsOf('--status', 'unreviewed', '--limit', '1000');
    const first = await cli('review', 'list', '--profile', 'Sandbox', '--status', 'unreviewed', '--limit', '30');
    expect(first.code).toBe(0);
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^30 items unreviewed across 2 accounts, from the offline cache, synced /);
    expect(lines[1]).toMatch(/^STATE\s+KIND\s+ACCOUNT\s+DATE\s+TIME \(UTC\)\s+AMOUNT\s+ITEM\s+BY\s+NOTE\s+REF$/);
    expect(lines.at(-1)).toBe('More: run the same command with --next.');
    const { rows } = await rowsOf('--status', 'unreviewed', '--limit', '30');
    const shown = rows[0];
    const record = shown?.record ?? {};
    // Names first (issue 38): the account by the name the bank gives it, its id not in the row.
    const naming = services.cache.accounts.names(profile.id).get(shown?.accountId ?? '');
    expect(naming).toBeDefined();
    expect(lines[2]).toContain(naming === undefined ? 'no account name' : accountLabel(naming).slice(0, 20));
    expect(lines[2]).not.toContain(shown?.accountId ?? 'no account');
    expect(lines[2]).toContain(shown?.ref ?? 'no ref');
    expect(lines[2]).toContain(record.date ?? 'no date');
    // The bank's "-1234.5" reads "-1,234.50".
    const amount = record.amount ?? '0';
    const [whole = '0', fraction = ''] = amount.replace('-', '').split('.');
    const formatted = `${amount.startsWith('-') ? '-' : ''}${Number(whole).toLocaleString('en-US')}.${fraction.padEnd(2, '0')}`;
    expect(lines[2]).toContain(formatted);

    const second = await cli(
      'review',
      'list',
      '--profile',
      'Sandbox',
      '--status',
      'unreviewed',
      '--limit',
      '30',
      '--next',
    );
    expect(second.code).toBe(0);
    const secondRefs = second.stdout.split('\n').slice(2).join('\n');
    // Page two holds rows 31..60, none of page one.
    for (const row of all.rows.slice(30, 60)) expect(secondRefs).toContain(row.ref);
    for (const row of all.rows.slice(0, 30)) expect(secondRefs).not.toContain(row.ref);
    const third = await cli(
      'review',
      'list',
      '--profile',
      'Sandbox',
      '--status',
      'unreviewed',
      '--limit',
      '30',
      '--next',
    );
    expect(third.stdout).toMatch(/^20 items unreviewed across 2 accounts/);
    expect(third.stdout).not.toContain('--next');
    const fourth = await cli(
      'review',
      'list',
      '--profile',
      'Sandbox',
      '--status',
      'unreviewed',
      '--limit',
      '30',
      '--next',
    );
    expect(fourth).toMatchObject({ code: 2, stdout: '' });
    expect(fourth.stderr).toMatch(/^ledger: --next: the last page of this list was already shown/);
    // Another list (another filter) has its own place: --next there has nothing to continue.
    const other = await cli('review', 'list', '--profile', 'Sandbox', '--status', 'changed', '--next');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/no earlier page to continue/);
    // --json keeps the cursor.
    const json = await rowsOf('--status', 'unreviewed', '--limit', '10');
    expect(typeof json.nextCursor).toBe('string');
  });

  it('puts flagged items first in their parts, narrows by account and amount, and reads every review', async () => {
    const [accountA = '', accountB = ''] = sandbox.demo.accounts;
    const { rows } = await rowsOf('--status', 'unreviewed', '--account', accountB, '--limit', '3');
    const refs = rows.map((row) => row.ref);
    const flag = await cli(
      'review',
      'set',
      '--profile',
      'Sandbox',
      '--kind',
      'pending-transaction',
      ...refs.flatMap((ref) => ['--ref', ref]),
      '--disposition',
      'flagged',
      '--note',
      'Same card, three shops',
    );
    expect(flag.code).toBe(0);
    const flagged = await rowsOf('--status', 'flagged-by-person');
    expect(flagged.rows.map((row) => row.ref).sort()).toEqual([...refs].sort());
    expect(flagged.rows.every((row) => row.accountId === accountB)).toBe(true);
    expect((await rowsOf('--status', 'flagged', '--account', accountA)).rows).toEqual([]);
    const everything = await rowsOf();
    expect(everything.rows).toHaveLength(3);
    const text = await cli('review', 'list', '--profile', 'Sandbox', '--status', 'flagged');
    // Named as a person reads the account (names first, issue 38), never by its id.
    const named = accountLabel(services.cache.accounts.names(profile.id).get(accountB));
    expect(text.stdout.split('\n')[0]).toBe(`3 items flagged of ${named}.`);
    expect(named).not.toContain('acct_');
    expect(text.stdout).toContain('Same card, three shops');
    const big = await rowsOf(
      '--status',
      'unreviewed',
      '--kind',
      'pending-transaction',
      '--min-amount',
      '100',
      '--limit',
      '1000',
    );
    for (const row of big.rows) expect(Math.abs(Number(row.record.amount))).toBeGreaterThanOrEqual(100);
  });

  it('shows REVIEW and REF in the list tables, money formatted', async () => {
    const [, accountB = ''] = sandbox.demo.accounts;
    const flagged = await rowsOf('--status', 'flagged-by-person', '--account', accountB);
    const listed = await cli(
      'list',
      'pending-transactions',
      '--profile',
      'Sandbox',
      '--account',
      accountB,
      '--limit',
      '100',
    );
    expect(listed.code).toBe(0);
    const lines = listed.stdout.split('\n');
    expect(lines[1]).toMatch(/^DATE\s+AMOUNT\s+TYPE\s+DESCRIPTION\s+SUMMARY\s+REVIEW\s+REF$/);
    for (const row of flagged.rows) {
      const line = lines.find((candidate) => candidate.endsWith(row.ref));
      expect(line, row.ref).toMatch(/\sflagged\s/);
    }
    expect(lines.filter((line) => /\sunreviewed\s/.test(line)).length).toBeGreaterThan(0);
    expect(listed.stdout).not.toMatch(/\s-?\d{4,}\.\d\d\s/);
  });

  it('refuses bad input with one line: unknown accounts name the cached ones (exit 1), usage mistakes exit 2', async () => {
    const cases: [string[], number, RegExp][] = [
      [['--account', 'acct_nobody'], 1, /Cached accounts: acct_.*, acct_/],
      [['--status', 'pending'], 2, /--status: must be one of unreviewed, changed, flagged/],
      [['--min-amount', 'ten'], 2, /--min-amount: must be an amount such as 1000/],
      [['--min-amount', '500', '--max-amount', '100'], 2, /swap them/],
      [['--from', '2026-02-01', '--to', '2026-01-01'], 2, /--to \(2026-01-01\) must be after --from/],
      [['--next', '--cursor', 'abc'], 2, /--next and --cursor: give one/],
      [['--status', 'unreviewed', '--cursor', 'made-up'], 1, /cursor/],
    ];
    for (const [argv, code, message] of cases) {
      const answer = await cli('review', 'list', '--profile', 'Sandbox', ...argv);
      expect({ argv: argv.join(' '), code: answer.code }).toEqual({ argv: argv.join(' '), code });
      expect(answer.stderr).toMatch(message);
      expect(answer.stderr.split('\n')).toHaveLength(2);
    }
  });

  it('refuses an unknown --account in list and export too, naming the cached accounts (exit 1), and writes no file', async () => {
    const [accountA = '', accountB = ''] = sandbox.demo.accounts;
    const listed = await cli('list', 'pending-transactions', '--profile', 'Sandbox', '--account', 'acct_nobody');
    expect(listed.code).toBe(1);
    expect(listed.stdout).toBe('');
    expect(listed.stderr).toContain('No pending transactions of account acct_nobody are cached for Sandbox.');
    expect(listed.stderr).toContain(accountA);
    expect(listed.stderr).toContain(accountB);
    expect(listed.stderr.split('\n')).toHaveLength(2);
    const file = join(temp.folder, 'nobody.csv');
    const exported = await cli(
      'export',
      'pending-transactions',
      '--profile',
      'Sandbox',
      '--account',
      'acct_nobody',
      '--csv',
      file,
    );
    expect(exported.code).toBe(1);
    expect(exported.stderr).toMatch(/Cached accounts: acct_.*, acct_/);
    expect(existsSync(file)).toBe(false);
    // A cached account still lists and exports.
    const good = await cli(
      'export',
      'pending-transactions',
      '--profile',
      'Sandbox',
      '--account',
      accountA,
      '--csv',
      file,
    );
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^Wrote 40 rows to /);
  });

  it('pages list tables with --next (per list and filters) and says when the last page was shown', async () => {
    const [accountA = '', accountB = ''] = sandbox.demo.accounts;
    const page = (account: string, ...more: string[]) =>
      cli('list', 'pending-transactions', '--profile', 'Sandbox', '--account', account, '--limit', '15', ...more);
    const refsOf = (stdout: string): string[] =>
      stdout
        .split('\n')
        .slice(2)
        .filter((line) => line.trim() !== '' && !line.startsWith('More:'))
        .map((line) => line.trim().split(/\s+/).at(-1) ?? '');
    const first = await page(accountA);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('More: run the same command with --next.');
    // Another list in between keeps its own cursor.
    expect((await page(accountB)).code).toBe(0);
    const second = await page(accountA, '--next');
    const third = await page(accountA, '--next');
    expect(second.code).toBe(0);
    expect(third.code).toBe(0);
    const seen = [...refsOf(first.stdout), ...refsOf(second.stdout), ...refsOf(third.stdout)];
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBe(40);
    expect(third.stdout).not.toContain('More:');
    const past = await page(accountA, '--next');
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/--next: the last page of this list was already shown/);
    const both = await page(accountA, '--next', '--cursor', 'abc');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--next and --cursor: give one/);
    // --json keeps the cursor in its answer.
    const json = await page(accountA, '--json');
    expect((JSON.parse(json.stdout) as { nextCursor: string | null }).nextCursor).toEqual(expect.any(String));
  });
});
