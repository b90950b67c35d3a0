/**
 * N13 of the security review of 3b75e6a, and "every write to a bank is audited": the listener's
 * exposure, allow-list, forward target and expected credentials, and webhook registration and
 * removal from the listener screen, each leave an audit entry with its actor, never the secret.
 * The review's reproduction through the real IPC router, a real sandbox bank and listener, the
 * real cache file and Secret Service.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { refusal, startHarness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
const EXPECTED_SECRET = `ListenerExpected-${randomUUID()}`;

describe.skipIf(!secretServiceHere)('N13: listener security settings and registrations are audited', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n13-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-n13-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 2 });
  });

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  it('writes an entry for each change, with its actor and without the secret', async () => {
    const harness = await startHarness(temp.folder, sandbox, store);
    const { api } = harness;
    try {
      const profileId = (await api.profiles.list()).activeProfileId ?? '';
      await api.listener.start({ port: 0 });
      harness.confirmAnswer.value = true;
      await api.listener.allowTarget({ url: 'https://hooks.example.com/' });
      harness.confirmAnswer.value = false;
      expect((await refusal(api.listener.allowTarget({ url: 'https://declined.example.com/' }))).code).toBe(
        'cancelled',
      );
      await api.listener.configure({ host: '0.0.0.0', allowNonLoopback: true });
      await api.listener.configure({ host: '127.0.0.1' });
      await api.listener.configure({ forwardTo: 'https://hooks.example.com/in' });
      await api.listener.configure({ expectedBasicUser: 'bank', expectedBasicSecret: EXPECTED_SECRET });
      const registered = await api.listener.register({ profileId, event: 'ach.update' });
      await api.listener.unregister({ profileId, webhookId: registered.webhook.id });
      await api.listener.forgetTarget({ origin: 'https://hooks.example.com' });
    } finally {
      await harness.stop();
    }
    // The audit log is in the officer's record since the cut-over (issue 34).
    const raw = new DatabaseSync(join(temp.folder, 'record.sqlite'), { readOnly: true });
    const entries = raw
      .prepare(
        "SELECT action, target, result, detail, actor FROM audit_log WHERE action LIKE 'listener.%' OR action LIKE 'webhook.%' ORDER BY id",
      )
      .all() as { action: string; target: string; result: string; detail: string | null; actor: string | null }[];
    raw.close();
    expect(entries.map((entry) => [entry.action, entry.result])).toEqual([
      ['listener.allow-target', 'ok'],
      ['listener.allow-target', 'refused'],
      ['listener.configure', 'ok'],
      ['listener.configure', 'ok'],
      ['listener.configure', 'ok'],
      ['listener.configure', 'ok'],
      ['webhook.register', 'ok'],
      ['webhook.unregister', 'ok'],
      ['listener.forget-target', 'ok'],
    ]);
    expect(entries[2]?.detail).toBe('host 0.0.0.0; non-loopback allowed');
    expect(entries[4]?.detail).toBe('forward to https://hooks.example.com/in');
    expect(entries[5]?.detail).toMatch(/^expected credentials set \(user bank/);
    expect(entries.every((entry) => entry.actor?.startsWith('app instance') === true)).toBe(true);
    for (const path of ['cache.db', 'cache.db-wal', 'record.sqlite', 'record.sqlite-wal'].map((name) =>
      join(temp.folder, name),
    )) {
      if (!existsSync(path)) continue;
      expect(readFileSync(path).toString('latin1')).not.toContain(EXPECTED_SECRET);
    }
  });
});
