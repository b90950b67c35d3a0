/**
 * `ledger webhooks list|add|update|remove` against the real sandbox: one webhook per event,
 * grouped by address; the Basic secret read from standard input and never printed; every
 * write in the audit log; production needs --yes; bad input is one line. And `ledger trigger`
 * saying, per event caused, how many webhooks receive it, and the command when none does.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openListenerBank } from '../../../src/main/cli/listen/cliBank.ts';
import { ledger } from './support/ledgerRun.ts';
import { basicOf, type RunningSandbox } from './support/sandboxBank.ts';
import { startLedgerOnBank, type LedgerOnBank } from './support/ledgerOnBank.ts';

let bank: LedgerOnBank;
let sandbox: RunningSandbox;
let temp: LedgerOnBank['temp'];
let secrets: LedgerOnBank['secrets'];
let data: string[];

beforeEach(async () => {
  bank = await startLedgerOnBank('ledgerdesk-webhooks-cli-');
  ({ sandbox, temp, secrets, data } = bank);
});

afterEach(() => bank.close());

const addProfile = (name: string, production = false): Promise<void> => bank.addProfile(name, production);

interface BankWebhook {
  id: string;
  event: string;
  url: string;
  status: string;
  basic_user: string | null;
}

async function bankWebhooks(): Promise<BankWebhook[]> {
  const answer = await fetch(`${sandbox.baseUrl}/webhook?page_size=100`, {
    headers: { authorization: basicOf(sandbox) },
  });
  return ((await answer.json()) as { data: BankWebhook[] }).data;
}

describe('ledger webhooks', () => {
  it('adds one webhook per event with the secret from standard input, lists them grouped, updates and removes', async () => {
    await addProfile('Remote');
    const url = 'http://127.0.0.1:4999/hooks';
    const added = await ledger(
      [
        ...data,
        'webhooks',
        'add',
        // A loopback address: the sandbox says it delivers there (GET /sandbox/webhook_url_policy).
        '--allow-http',
        '--profile',
        'Remote',
        '--url',
        url,
        '--event',
        'ach.update',
        '--event',
        'account.update',
        '--basic',
        'bank',
      ],
      secrets,
      'hook-secret-123\n',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^Added 2 webhooks on Remote \(one per event\):\n/);
    expect(added.stdout).toContain(`${url} (Basic user bank)\n`);
    expect(added.stdout).not.toContain('hook-secret-123');
    const atBank = await bankWebhooks();
    expect(atBank.map((webhook) => webhook.event).sort()).toEqual(['account.update', 'ach.update']);
    expect(atBank.every((webhook) => webhook.url === url && webhook.basic_user === 'bank')).toBe(true);

    // A second address: the listing groups per address, events sorted within.
    const other = await ledger(
      [
        ...data,
        'webhooks',
        'add',
        '--allow-http',
        '--profile',
        'Remote',
        '--url',
        'http://127.0.0.1:4998/',
        '--event',
        'file.create',
      ],
      secrets,
    );
    expect(other.code).toBe(0);
    const listed = await ledger([...data, 'webhooks', 'list', '--profile', 'Remote'], secrets);
    const achId = atBank.find((webhook) => webhook.event === 'ach.update')?.id ?? '';
    expect(listed.stdout).toMatch(/^3 webhooks at 2 addresses \(Remote\):\n/);
    expect(listed.stdout).toMatch(
      new RegExp(
        `http://127\\.0\\.0\\.1:4998/ \\(no Basic credentials\\)\\n  file\\.create  enabled   wh_\\w+\\n` +
          `http://127\\.0\\.0\\.1:4999/hooks \\(Basic user bank\\)\\n  account\\.update  enabled   wh_\\w+\\n  ach\\.update      enabled   ${achId}\\n`,
      ),
    );
    const json = JSON.parse(
      (await ledger([...data, '--json', 'webhooks', 'list', '--profile', 'Remote', '--event', 'file.create'], secrets))
        .stdout,
    ) as {
      groups: { url: string; webhooks: { event: string }[] }[];
    };
    expect(json.groups).toHaveLength(1);
    expect(json.groups[0]?.webhooks.map((webhook) => webhook.event)).toEqual(['file.create']);

    const disabled = await ledger(
      [...data, 'webhooks', 'update', achId, '--profile', 'Remote', '--status', 'disabled'],
      secrets,
    );
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toContain(`ach.update  disabled  ${achId}`);
    expect((await bankWebhooks()).find((webhook) => webhook.id === achId)?.status).toBe('disabled');

    const removedOne = await ledger([...data, 'webhooks', 'remove', achId, '--profile', 'Remote'], secrets);
    expect(removedOne.stdout).toBe(`Removed 1 webhook from Remote: ${achId}.\n`);
    const removedAtUrl = await ledger([...data, 'webhooks', 'remove', '--url', url, '--profile', 'Remote'], secrets);
    expect(removedAtUrl.stdout).toMatch(/^Removed 1 webhook from Remote: wh_\w+\.\n$/);
    expect((await bankWebhooks()).map((webhook) => webhook.event)).toEqual(['file.create']);

    const audit = await ledger([...data, '--json', 'audit', '--profile', 'Remote'], secrets);
    const actions = (JSON.parse(audit.stdout) as { rows: { action: string; result: string }[] }).rows.map(
      (row) => `${row.action} ${row.result}`,
    );
    expect(actions.filter((action) => action === 'webhook.create ok')).toHaveLength(3);
    expect(actions).toContain('webhook.update ok');
    expect(actions.filter((action) => action === 'webhook.delete ok')).toHaveLength(2);
  });

  it('audits listen --register and its removal at stop as the listen command, with its actor', async () => {
    await addProfile('Remote');
    const bank = await openListenerBank(join(temp.folder, 'data'), 'Remote', secrets);
    try {
      const registered = await bank.register(
        ['ach.update', 'file.create'],
        'http://127.0.0.1:4880',
        { user: 'bank', secret: 's3cret-listen' },
        // The sandbox says it delivers to plain http:// and loopback (GET /sandbox/webhook_url_policy).
        { allowHttp: true },
      );
      expect(registered.map((webhook) => webhook.event)).toEqual(['ach.update', 'file.create']);
      const { removed, failed } = await bank.unregister();
      expect(failed).toEqual([]);
      expect(removed).toHaveLength(2);
    } finally {
      await bank.close();
    }
    expect(await bankWebhooks()).toEqual([]);
    const audit = await ledger([...data, '--json', 'audit', '--profile', 'Remote'], secrets);
    expect(audit.stdout).not.toContain('s3cret-listen');
    const rows = (JSON.parse(audit.stdout) as { rows: { action: string; result: string; actor: string | null }[] })
      .rows;
    const writes = rows.filter((row) => row.action.startsWith('webhook.'));
    expect(writes.map((row) => `${row.action} ${row.result}`).sort()).toEqual([
      'webhook.create ok',
      'webhook.create ok',
      'webhook.delete ok',
      'webhook.delete ok',
    ]);
    for (const row of writes) expect(row.actor).toMatch(/^listen command line \d+-\w+; OS user \S+; reviewer /);
    // And `ledger webhooks` writes name the ledger command line.
    const added = await ledger(
      [
        ...data,
        'webhooks',
        'add',
        '--allow-http',
        '--profile',
        'Remote',
        '--url',
        'http://127.0.0.1:4881',
        '--event',
        'ach.create',
      ],
      secrets,
    );
    expect(added.code, added.stderr).toBe(0);
    const after = (
      JSON.parse((await ledger([...data, '--json', 'audit', '--profile', 'Remote'], secrets)).stdout) as {
        rows: { action: string; actor: string | null }[];
      }
    ).rows;
    expect(
      after.find((row) => row.action === 'webhook.create' && row.actor?.startsWith('ledger command line')),
    ).toBeDefined();
  });

  it('refuses bad input in one line, and production without --yes', async () => {
    await addProfile('Remote');
    await addProfile('Live', true);
    const noEvent = await ledger(
      [...data, 'webhooks', 'add', '--profile', 'Remote', '--url', 'http://x.test/'],
      secrets,
    );
    expect(noEvent).toMatchObject({ code: 2, stderr: 'ledger: `webhooks add` needs --event.\n' });
    const badEvent = await ledger(
      [...data, 'webhooks', 'add', '--profile', 'Remote', '--url', 'http://x.test/', '--event', 'ach'],
      secrets,
    );
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toMatch(/^ledger: --event ach: must be an event name like ach\.update/);
    const badUrl = await ledger(
      [...data, 'webhooks', 'add', '--profile', 'Remote', '--url', 'ftp://x.test/', '--event', 'ach.update'],
      secrets,
    );
    expect(badUrl).toMatchObject({ code: 2, stderr: 'ledger: --url: must be an absolute http:// or https:// URL.\n' });
    const noSecret = await ledger(
      [
        ...data,
        'webhooks',
        'add',
        '--profile',
        'Remote',
        '--url',
        'http://x.test/',
        '--event',
        'ach.update',
        '--basic',
        'bank',
      ],
      secrets,
      '',
    );
    expect(noSecret.code).toBe(1);
    expect(noSecret.stderr).toMatch(/^ledger: No Basic secret for bank on standard input/);
    const nothingToChange = await ledger([...data, 'webhooks', 'update', 'wh_x', '--profile', 'Remote'], secrets);
    expect(nothingToChange.code).toBe(2);
    expect(nothingToChange.stderr).toMatch(/Say what to change/);
    const unknown = await ledger(
      [...data, 'webhooks', 'update', 'wh_missing', '--profile', 'Remote', '--status', 'enabled'],
      secrets,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^ledger: .*not found|^ledger: .*no webhook/i);
    const both = await ledger(
      [...data, 'webhooks', 'remove', 'wh_x', '--url', 'http://x.test/', '--profile', 'Remote'],
      secrets,
    );
    expect(both.code).toBe(2);
    const production = await ledger(
      [...data, 'webhooks', 'add', '--profile', 'Live', '--url', 'http://x.test/', '--event', 'ach.update'],
      secrets,
    );
    expect(production.code).toBe(1);
    expect(production.stderr).toMatch(/production/);
    expect(await bankWebhooks()).toEqual([]);
    const confirmed = await ledger(
      [
        ...data,
        'webhooks',
        'add',
        '--allow-http',
        '--profile',
        'Live',
        '--url',
        'http://x.test/',
        '--event',
        'ach.update',
        '--yes',
      ],
      secrets,
    );
    expect(confirmed.code).toBe(0);
    expect(await bankWebhooks()).toHaveLength(1);
  });
});

describe('ledger trigger says who receives each event', () => {
  it('counts the enabled webhooks per event caused, and gives the command when none does', async () => {
    await addProfile('Remote');
    await ledger(
      [
        ...data,
        'webhooks',
        'add',
        '--allow-http',
        '--profile',
        'Remote',
        '--url',
        'http://127.0.0.1:4997/',
        '--event',
        'ach.create',
      ],
      secrets,
    );
    const ran = await ledger([...data, 'trigger', 'ach.create', '--profile', 'Remote', '--yes'], secrets);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/ {2}ach\.create +ach_\w+ +http\S+ {2}\(1 webhook subscribed\)\n/);
    expect(ran.stdout).toMatch(/ {2}account\.update +acct_\w+ +http\S+ {2}\(no webhook receives it\)\n/);
    expect(ran.stdout).toContain(
      'No webhook receives account.update: nothing was sent for it. Subscribe a listener with:\n' +
        '  npm run listen -- --basic USER:SECRET --register --allow-http --profile Remote --event account.update\n',
    );
    const json = JSON.parse(
      (await ledger([...data, '--json', 'trigger', 'ach.create', '--profile', 'Remote', '--yes'], secrets)).stdout,
    ) as { subscribers: { event: string; enabled: number; idle: number }[] };
    expect(json.subscribers).toEqual([
      { event: 'ach.create', enabled: 1, idle: 0 },
      { event: 'account.update', enabled: 0, idle: 0 },
    ]);
  });

  it('says it per event at the end of a scenario', async () => {
    await addProfile('Remote');
    const ran = await ledger(
      [...data, 'trigger', '--scenario', 'ach-to-settlement', '--profile', 'Remote', '--yes'],
      secrets,
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('  ach.update: no webhook receives it\n');
    expect(ran.stdout).toMatch(
      /No webhook receives ach\.create, account\.update, ach\.update: nothing was sent for them/,
    );
    expect(ran.stdout).toMatch(/Scenario "[^"]+" completed\.\n$/);
  });
});
