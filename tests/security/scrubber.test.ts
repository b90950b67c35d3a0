/**
 * N11 of the security review of 3b75e6a: the IPC scrubber removes secrets by where they come
 * from (the keys main holds, secret-named fields, credentials echoed in error texts), never by
 * matching words in bank data or in names the user typed. The review's reproduction through the
 * real IPC router, the sandbox bank's /simulation and a real sync.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubSecrets } from '../../src/main/ipc/secretScrubber.ts';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { simulatePending, startHarness, syncPending, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
const DESCRIPTIONS = ['Basic Checking monthly fee', 'Bearer bonds purchase 2026', 'Plain control row'];

describe.skipIf(!secretServiceHere)('N11: bank text and typed names reach the window unaltered', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n11-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let harness: Harness;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-n11-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 1 });
    harness = await startHarness(temp.folder, sandbox, store);
  });

  afterAll(async () => {
    await harness.stop();
    await sandbox.close();
    temp.remove();
  });

  it('transaction descriptions and a profile named "Basic Bank Inc" arrive as they are', async () => {
    const { api } = harness;
    const profileId = (await api.profiles.list()).activeProfileId ?? '';
    const accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
    for (const desc of DESCRIPTIONS) await simulatePending(sandbox, accountId, desc);
    await syncPending(api, profileId, accountId);
    const text = JSON.stringify(await api.pendingTransactions.list({ profileId, accountId, limit: 50 }));
    for (const desc of DESCRIPTIONS) expect(text).toContain(desc);
    expect(text).not.toContain('[redacted]');
    await api.profiles.create({ name: 'Basic Bank Inc', baseUrl: 'https://basic.bank.example', authScheme: 'bearer' });
    expect((await api.profiles.list()).profiles.map((profile) => profile.name)).toContain('Basic Bank Inc');
  });

  it('still withholds a credential echoed in an error text, a secret-named field and a known secret', () => {
    const { value, redactions } = scrubSecrets(
      {
        description: 'Basic Checking monthly fee',
        error: 'GET /ping (401): the key Basic a2V5OnNlY3JldC12YWx1ZQ== is not valid',
        headers: { authorization: 'Basic a2V5OnNlY3JldC12YWx1ZQ==' },
        note: 'mentions known-secret-123456',
      },
      ['known-secret-123456'],
    );
    expect(value.description).toBe('Basic Checking monthly fee');
    expect(value.error).toBe('GET /ping (401): the key Basic [redacted] is not valid');
    expect(value.headers.authorization).toBe('[redacted]');
    expect(value.note).toBe('mentions [redacted]');
    expect(redactions).toBe(3);
  });
});
