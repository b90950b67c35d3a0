/**
 * `ledger trigger` and `ledger events` as a user types them: the object and its events in
 * text and --json, a scenario's steps line by line, and every mistake as one clear line with
 * exit code 2 (usage) or 1 (refused, failed) — nothing sent to the bank when it is refused.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '../../../src/shared/eventCatalog/eventCatalog.ts';
import { ledger } from '../services/support/ledgerRun.ts';
import type { RunningSandbox } from '../services/support/sandboxBank.ts';
import { startLedgerOnBank, type LedgerOnBank } from '../services/support/ledgerOnBank.ts';

let bank: LedgerOnBank;
let sandbox: RunningSandbox;
let temp: LedgerOnBank['temp'];
let secrets: LedgerOnBank['secrets'];
let data: string[];

beforeEach(async () => {
  bank = await startLedgerOnBank('ledgerdesk-trigger-cli-');
  ({ sandbox, temp, secrets, data } = bank);
});

afterEach(() => bank.close());

const addProfile = (name: string, production = false): Promise<void> => bank.addProfile(name, production);

describe('ledger trigger', () => {
  it('needs --yes on a remote sandbox, then prints the object and the events it caused', async () => {
    await addProfile('Remote');
    const unconfirmed = await ledger([...data, 'trigger', 'ach.create', '--profile', 'Remote'], secrets);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toMatch(/^ledger: Profile Remote is a remote bank .* Confirm to go ahead\.\n$/);

    const text = await ledger(
      [
        ...data,
        'trigger',
        'ach.create',
        '--profile',
        'Remote',
        '--yes',
        '--amount',
        '3.21',
        '--account',
        sandbox.demo.accounts[0] ?? '',
      ],
      secrets,
    );
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Triggered ach\.create on profile Remote: ach_/);
    expect(text.stdout).toMatch(/ach\.create\s+ach_\w+\s+http:\/\/127\.0\.0\.1:\d+\/ach\/ach_/);
    expect(text.stdout).toContain('"amount": "3.21"');

    const json = await ledger(
      [...data, '--json', 'trigger', 'account.update', '--profile', 'Remote', '--yes'],
      secrets,
    );
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as { event: string; caused: { event: string; op: string; id: string }[] };
    expect(result.event).toBe('account.update');
    expect(result.caused).toEqual([
      expect.objectContaining({ event: 'account.update', op: 'update', id: sandbox.demo.accounts[0] }),
    ]);
  });

  it('refuses a production profile with exit code 1 and one line', async () => {
    await addProfile('Live', true);
    const refused = await ledger([...data, 'trigger', 'ach.create', '--profile', 'Live', '--yes'], secrets);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ledger: Profile Live is a production profile: trigger ach\.create is never run/);
    const audit = await ledger([...data, '--json', 'audit'], secrets);
    expect((JSON.parse(audit.stdout) as { rows: unknown[] }).rows[0]).toMatchObject({
      action: 'trigger',
      result: 'refused',
      profileName: 'Live',
    });
  });

  it('runs a scenario file step by step, and says what is wrong with a bad one before sending anything', async () => {
    await addProfile('Remote');
    const good = join(temp.folder, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        name: 'two moves',
        steps: [
          { id: 'ach', action: 'trigger', event: 'ach.create' },
          { action: 'trigger', event: 'ach.update', with: { achId: '{{ach.objectId}}' } },
        ],
      }),
    );
    const ran = await ledger([...data, 'trigger', '--scenario', good, '--profile', 'Remote', '--yes'], secrets);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.split('\n').filter((line) => line !== '')).toEqual([
      '[1/2] Trigger ach.create …',
      expect.stringMatching(
        /^\[1\/2\] ok: ACH ach_\w+ pending; account acct_\w+ updated \(caused ach\.create ach_\w+, account\.update acct_\w+\)$/,
      ),
      '[2/2] Trigger ach.update …',
      expect.stringMatching(/^\[2\/2\] ok: ACH ach_\w+ processing \(caused ach\.update ach_\w+\)$/),
      // Who receives each event caused: here nobody, said plainly with the command that subscribes a listener.
      '  ach.create: no webhook receives it',
      '  account.update: no webhook receives it',
      '  ach.update: no webhook receives it',
      'No webhook receives ach.create, account.update, ach.update: nothing was sent for them. Subscribe a listener with:',
      '  npm run listen -- --basic USER:SECRET --register --allow-http --profile Remote --event ach.create --event account.update --event ach.update',
      'Scenario "two moves" completed.',
    ]);

    const bad = join(temp.folder, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        name: 'bad',
        steps: [{ action: 'trigger', event: 'ach.update', with: { achId: '{{nope.objectId}}' } }],
      }),
    );
    const refused = await ledger([...data, 'trigger', '--scenario', bad, '--profile', 'Remote', '--yes'], secrets);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not valid: steps[0]: {{nope.objectId}} refers to step "nope"');

    const notJson = join(temp.folder, 'not.json');
    writeFileSync(notJson, '{ nope');
    expect((await ledger([...data, 'trigger', '--scenario', notJson, '--profile', 'Remote'], secrets)).stderr).toMatch(
      /not\.json is not JSON/,
    );
    expect(
      (await ledger([...data, 'trigger', '--scenario', 'no-such', '--profile', 'Remote'], secrets)).stderr,
    ).toMatch(/Scenario no-such: no such file, and no shipped scenario has that name \(ach-to-settlement, /);
  });

  it.each([
    [['trigger', 'ach.create'], /`trigger` needs --profile/],
    [['trigger', '--profile', 'X'], /`trigger` needs an EVENT \(ach\.create, .*\) or --scenario FILE/],
    [['trigger', 'wire.update', '--profile', 'X'], /EVENT wire\.update: must be one of ach\.create/],
    [['trigger', 'ach.create', '--profile', 'X', '--account', 'nope'], /--account: must be an id starting with acct_/],
    [['trigger', 'ach.create', '--profile', 'X', '--amount=-1.00'], /--amount: must be greater than 0\.00/],
    [['trigger', 'ach.update', '--profile', 'X', '--status', 'asleep'], /--status: must be one of processing, sent/],
    [['trigger', 'ach.create', '--profile', 'X', '--status', 'sent'], /--status: is not used by ach\.create/],
    [['trigger', 'ach.create', '--scenario', 'a', '--profile', 'X'], /either an EVENT or --scenario FILE, not both/],
    [
      ['trigger', 'file.create', '--profile', 'X', '--account', 'acct_1'],
      /^ledger: --account: is not used by file\.create \(it takes no parameter\)/,
    ],
    [
      ['trigger', 'ach.update', '--profile', 'X', '--status', 'approved'],
      /--status: must be one of processing, sent, returned, canceled for ach\.update/,
    ],
    [
      ['trigger', 'webhook.update', '--profile', 'X', '--application', 'aact_1', '--status', 'sent'],
      /--application: is not used by webhook\.update \(it reads webhookId, status\); --status: must be one of error, enabled/,
    ],
  ])('%j is a usage mistake', async (argv, message) => {
    const answer = await ledger([...data, ...argv], secrets);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toMatch(message);
  });
});

describe('ledger events', () => {
  it('lists every event with its cause and an example, in text and JSON from the one catalog', async () => {
    const text = await ledger(['events'], secrets);
    expect(text.code).toBe(0);
    for (const entry of EVENT_CATALOG) expect(text.stdout).toContain(JSON.stringify(entry.example));
    const json = JSON.parse((await ledger(['--json', 'events'], secrets)).stdout) as { events: unknown[] };
    expect(json.events).toEqual(JSON.parse(JSON.stringify(EVENT_CATALOG)));
  });
});
