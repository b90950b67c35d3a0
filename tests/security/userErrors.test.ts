/**
 * I4 of the security review of 3b75e6a: a user's mistake answers its own code, never
 * `internal` (which means a bug, and logs a stack). The review's three reproductions through
 * the real IPC router.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { refusal, startHarness, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

describe.skipIf(!secretServiceHere)('I4: user errors keep their own codes', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-i4-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let harness: Harness;
  let profileId: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-i4-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 1 });
    harness = await startHarness(temp.folder, sandbox, store);
    profileId = (await harness.api.profiles.list()).activeProfileId ?? '';
  });

  afterAll(async () => {
    await harness.stop();
    await sandbox.close();
    temp.remove();
  });

  it('registering before the listener runs, an unknown webhook, an unknown request, no forward address', async () => {
    const early = await refusal(harness.api.listener.register({ profileId, event: 'ach.update' }));
    expect(early.code).toBe('invalid_input');
    expect(early.message).toMatch(/Start the listener first/);
    await harness.api.listener.start({ port: 0 });
    const unknownWebhook = await refusal(harness.api.listener.unregister({ profileId, webhookId: 'wh_unknown' }));
    expect(unknownWebhook.code).toBe('not_found');
    const unknownRequest = await refusal(
      harness.api.listener.forward({ requestId: '999999', url: 'http://127.0.0.1:9/x' }),
    );
    expect(unknownRequest.code).toBe('not_found');
    const noAddress = await refusal(harness.api.listener.forward({ requestId: '999999' }));
    expect(noAddress.code).toBe('invalid_input');
  });
});
