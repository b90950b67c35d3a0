/**
 * Item 3 of issue 23: every write to a bank is audited with its actor. Each kind of write the
 * app and the command line can make (webhooks from the webhooks screen and `ledger webhooks`,
 * triggers and scenario steps with their simulations, profile and credential changes) is made
 * against a real sandbox bank, and each leaves its audit entry naming who acted: the app
 * instance or the `ledger` command line, and the OS user. (Registration from the listener and
 * its security settings: listenerAudit.test.ts, N13.) Real cache file and Secret Service.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { osUserName } from '../../src/main/services/review/reviewer.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { ledger } from '../integration/services/support/ledgerRun.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { startHarness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

interface Entry {
  id: number;
  action: string;
  target: string;
  result: string;
  actor: string | null;
}

describe.skipIf(!secretServiceHere)('every write to a bank is audited with its actor', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-writes-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-writes-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 2 });
  });

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  function entriesAfter(id: number): Entry[] {
    const raw = new DatabaseSync(join(temp.folder, 'record.sqlite'), { readOnly: true });
    try {
      return raw
        .prepare('SELECT id, action, target, result, actor FROM audit_log WHERE id > ? ORDER BY id')
        .all(id) as unknown as Entry[];
    } finally {
      raw.close();
    }
  }

  function lastId(): number {
    return entriesAfter(0).at(-1)?.id ?? 0;
  }

  it('from the app: webhooks, a trigger, a scenario’s steps, profile and credential changes', async () => {
    const harness = await startHarness(temp.folder, sandbox, store);
    const before = lastId();
    try {
      const { api } = harness;
      const profileId = (await api.profiles.list()).activeProfileId ?? '';
      const accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
      const made = await api.webhooks.create({
        profileId,
        request: { event: 'file.create', url: 'http://127.0.0.1:4998/in' },
      });
      await api.webhooks.delete({ profileId, id: made.id });
      await api.trigger.run({ profileId, request: { event: 'ach.create', accountId } });
      const scenario = (await api.trigger.scenarios())[0];
      expect(scenario).toBeDefined();
      await api.trigger.runScenario({
        profileId,
        runId: randomUUID(),
        source: { kind: 'shipped', id: scenario?.id ?? '' },
      });
      const remote = await api.profiles.create({
        name: 'Remote bank',
        baseUrl: 'https://bank.example',
        authScheme: 'basic',
        keyId: 'key_1',
      });
      await api.credentials.set({ profileId: remote.id, secret: 'a-secret-for-the-remote-bank' });
      await api.profiles.update({ id: remote.id, name: 'Remote bank (renamed)' });
    } finally {
      await harness.stop();
    }
    const entries = entriesAfter(before);
    const actions = entries.map((entry) => entry.action);
    for (const action of ['webhook.create', 'webhook.delete', 'trigger.scenario', 'profile.add', 'credentials.set']) {
      expect(actions).toContain(action);
    }
    // The trigger and each scenario step record their own bank calls (simulations, webhooks).
    expect(
      actions.filter((action) => action.startsWith('trigger.') && action !== 'trigger.scenario').length,
    ).toBeGreaterThan(1);
    expect(actions.some((action) => action.startsWith('profile.') && action !== 'profile.add')).toBe(true);
    for (const entry of entries) {
      expect(entry.actor, `${entry.action} names who acted`).toMatch(/^app instance /);
      expect(entry.actor).toContain(osUserName());
    }
  });

  it('from the command line: ledger webhooks add and remove, ledger trigger', async () => {
    const added = await ledger(
      ['--data', temp.folder, 'profile', 'add', 'Sandbox', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId],
      store,
      sandbox.keySecret + '\n',
    );
    expect(added.code).toBe(0);
    const before = lastId();
    const data = ['--data', temp.folder];
    const made = await ledger(
      [
        ...data,
        '--json',
        'webhooks',
        'add',
        // A loopback address: the sandbox says it delivers there (GET /sandbox/webhook_url_policy).
        '--allow-http',
        '--profile',
        'Sandbox',
        '--url',
        'http://127.0.0.1:4998/',
        '--event',
        'file.create',
      ],
      store,
    );
    expect(made.code).toBe(0);
    const id = (JSON.parse(made.stdout) as { created: string[] }).created[0] ?? '';
    expect((await ledger([...data, 'webhooks', 'remove', id, '--profile', 'Sandbox'], store)).code).toBe(0);
    expect((await ledger([...data, 'trigger', 'ach.create', '--profile', 'Sandbox', '--yes'], store)).code).toBe(0);
    const entries = entriesAfter(before);
    const actions = entries.map((entry) => `${entry.action} ${entry.result}`);
    expect(actions).toContain('webhook.create ok');
    expect(actions).toContain('webhook.delete ok');
    expect(actions.some((action) => action.startsWith('trigger.') && action.endsWith(' ok'))).toBe(true);
    for (const entry of entries) {
      expect(entry.actor, `${entry.action} names who acted`).toMatch(/^ledger command line /);
      expect(entry.actor).toContain(osUserName());
    }
  });
});
