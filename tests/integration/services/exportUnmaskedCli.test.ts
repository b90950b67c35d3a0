/**
 * `ledger export unmasked` (issue 24, item 4): the profile setting for what exports and review
 * reports print unmasked, from the command line, against the real sandbox with a real cache
 * file. Without options it prints the setting (default: everything masked); `--show` sets it
 * and `--none` masks everything again, each change written to the audit chain with its actor
 * and the classes before and after; the CLI's own CSV export then follows it; a class it does
 * not know, `--show` with `--none`, or an unknown profile change nothing and say why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { ledger } from './support/ledgerRun.ts';
import { basicOf, startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
let secrets: InMemorySecretStore;
let data: string[];

beforeEach(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 10 });
  temp = makeTempFolder();
  secrets = new InMemorySecretStore();
  data = ['--data', join(temp.folder, 'data')];
  const added = await ledger(
    [...data, 'profile', 'add', 'Sandbox', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId],
    secrets,
    sandbox.keySecret + '\n',
  );
  expect(added).toMatchObject({ code: 0, stderr: '' });
});

afterEach(async () => {
  await sandbox.close();
  temp.remove();
});

interface AuditRow {
  action: string;
  result: string;
  detail: string | null;
  actor?: string | null;
}

async function auditRows(): Promise<AuditRow[]> {
  const audit = await ledger([...data, '--json', 'audit', '--profile', 'Sandbox'], secrets);
  expect(audit.code).toBe(0);
  return (JSON.parse(audit.stdout) as { rows: AuditRow[] }).rows;
}

function changes(rows: readonly AuditRow[]): AuditRow[] {
  return rows.filter((row) => row.action === 'profile.export-unmasked');
}

describe('ledger export unmasked', () => {
  it('prints the setting, masked by default', async () => {
    const shown = await ledger([...data, 'export', 'unmasked', '--profile', 'Sandbox'], secrets);
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toContain('Exports and review reports of Sandbox show every personal field masked.');
    expect(shown.stdout).toContain('date_of_birth (date of birth)');
    const json = await ledger([...data, '--json', 'export', 'unmasked', '--profile', 'Sandbox'], secrets);
    expect(JSON.parse(json.stdout)).toEqual({ profile: 'Sandbox', unmasked: [] });
    // Reading it is not a change: nothing audited.
    expect(changes(await auditRows())).toEqual([]);
  });

  it('sets it, audits each change with its actor, and the CLI export follows it', async () => {
    const set = await ledger(
      [...data, 'export', 'unmasked', '--profile', 'Sandbox', '--show', 'email,date-of-birth'],
      secrets,
    );
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toBe(
      'Exports and review reports of Sandbox show unmasked: date of birth, email; every other personal field masked. (was: nothing; written to the audit log)\n',
    );
    const json = await ledger([...data, '--json', 'export', 'unmasked', '--profile', 'Sandbox'], secrets);
    expect(JSON.parse(json.stdout)).toEqual({ profile: 'Sandbox', unmasked: ['date_of_birth', 'email'] });
    let audited = changes(await auditRows());
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      result: 'ok',
      detail: 'exports and reports show unmasked: date of birth, email (was: nothing)',
    });

    // The book synced, the CLI's CSV prints a date of birth in clear, and the phone still masked.
    expect((await ledger([...data, 'sync', 'applications', '--profile', 'Sandbox'], secrets)).code).toBe(0);
    const people = (await (
      await fetch(`${sandbox.baseUrl}/apply/person_application?page_size=1000`, {
        headers: { authorization: basicOf(sandbox) },
      })
    ).json()) as { data: { date_of_birth: string; phone_number: string }[] };
    const file = join(temp.folder, 'applications.csv');
    const exported = await ledger([...data, 'export', 'applications', '--profile', 'Sandbox', '--csv', file], secrets);
    expect(exported.code).toBe(0);
    const csv = readFileSync(file, 'utf8');
    expect(people.data.some((person) => csv.includes(person.date_of_birth))).toBe(true);
    expect(people.data.some((person) => csv.includes(person.phone_number))).toBe(false);

    const none = await ledger([...data, 'export', 'unmasked', '--profile', 'Sandbox', '--none'], secrets);
    expect(none.stdout).toBe(
      'Exports and review reports of Sandbox show every personal field masked. (was: date of birth, email; written to the audit log)\n',
    );
    audited = changes(await auditRows());
    expect(audited.map((row) => row.detail)).toEqual([
      'exports and reports show unmasked: nothing (was: date of birth, email)',
      'exports and reports show unmasked: date of birth, email (was: nothing)',
    ]);
    expect(
      (await ledger([...data, 'export', 'applications', '--profile', 'Sandbox', '--csv', file], secrets)).code,
    ).toBe(0);
    const masked = readFileSync(file, 'utf8');
    expect(people.data.some((person) => masked.includes(person.date_of_birth))).toBe(false);
  });

  it('refuses a class it does not know, --show with --none, and an unknown profile, changing nothing', async () => {
    const unknown = await ledger(
      [...data, 'export', 'unmasked', '--profile', 'Sandbox', '--show', 'birthday'],
      secrets,
    );
    expect(unknown).toMatchObject({
      code: 2,
      stderr:
        'ledger: `export unmasked` knows no class "birthday": one of date_of_birth, tax_id, phone, email, street_lines (or --none).\n',
    });
    const both = await ledger(
      [...data, 'export', 'unmasked', '--profile', 'Sandbox', '--show', 'email', '--none'],
      secrets,
    );
    expect(both).toMatchObject({
      code: 2,
      stderr: 'ledger: `export unmasked` takes --show CLASS… or --none, not both.\n',
    });
    const empty = await ledger([...data, 'export', 'unmasked', '--profile', 'Sandbox', '--show', ' , '], secrets);
    expect(empty.code).toBe(2);
    expect((await ledger([...data, 'export', 'unmasked', '--show', 'email'], secrets)).stderr).toBe(
      'ledger: `export unmasked` needs --profile.\n',
    );
    const nobody = await ledger([...data, 'export', 'unmasked', '--profile', 'Nobody', '--show', 'email'], secrets);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/no profile named Nobody/);
    const json = await ledger([...data, '--json', 'export', 'unmasked', '--profile', 'Sandbox'], secrets);
    expect(JSON.parse(json.stdout)).toEqual({ profile: 'Sandbox', unmasked: [] });
    expect(changes(await auditRows())).toEqual([]);
  });

  it('is listed by ledger --help', async () => {
    const help = await ledger(['--help'], secrets);
    expect(help.stdout).toContain('export unmasked --profile NAME [--show CLASS[,CLASS…] | --none]');
  });
});
