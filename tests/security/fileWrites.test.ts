/**
 * N6 of the security review of 3b75e6a: a file written on the user's behalf never follows a
 * link. A symlink planted at `<file>.partial` is not written through (the victim keeps its
 * content) for the review report in HTML, CSV and PDF and for an export; a chosen file that is
 * itself a link is refused. The review's reproduction through the real IPC router.
 */
import { randomUUID } from 'node:crypto';
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { refusal, startHarness, syncPending, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
const ORIGINAL = 'ORIGINAL CONTENT OF A FILE THE USER OWNS\n';

describe.skipIf(!secretServiceHere)('N6: files written for the user never follow a link', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n6-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let harness: Harness;
  let profileId: string;
  let accountId: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-n6-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 5 });
    harness = await startHarness(temp.folder, sandbox, store);
    profileId = (await harness.api.profiles.list()).activeProfileId ?? '';
    accountId = (await harness.api.accounts.list({ profileId })).rows[0]?.id ?? '';
    await syncPending(harness.api, profileId, accountId);
  });

  afterAll(async () => {
    await harness.stop();
    await sandbox.close();
    temp.remove();
  });

  function plant(name: string): { victim: string; chosen: string } {
    const victim = join(temp.folder, `victim-${name}.txt`);
    writeFileSync(victim, ORIGINAL);
    const chosen = join(temp.folder, `chosen-${name}`);
    symlinkSync(victim, `${chosen}.partial`);
    return { victim, chosen };
  }

  it.each(['html', 'csv', 'pdf'] as const)(
    'the review report as %s leaves a planted link’s target alone',
    async (format) => {
      const { victim, chosen } = plant(`report.${format}`);
      harness.nextSavePath.value = chosen;
      const saved = await harness.api.reviews.saveReport({ profileId, format });
      expect(saved).toMatchObject({ saved: true, path: chosen });
      expect(readFileSync(victim, 'utf8')).toBe(ORIGINAL);
      expect(lstatSync(chosen).isSymbolicLink()).toBe(false);
      expect(lstatSync(chosen).mode & 0o777).toBe(0o600);
    },
  );

  it('an export leaves a planted link’s target alone', async () => {
    const { victim, chosen } = plant('export.csv');
    harness.nextSavePath.value = chosen;
    await harness.api.exports.pendingTransactions({ profileId, accountId, format: 'csv' });
    expect(readFileSync(victim, 'utf8')).toBe(ORIGINAL);
  });

  it('a chosen file that is itself a link is refused, for the report and an export', async () => {
    const victim = join(temp.folder, 'victim-target.txt');
    writeFileSync(victim, ORIGINAL);
    const chosen = join(temp.folder, 'chosen-link.html');
    symlinkSync(victim, chosen);
    harness.nextSavePath.value = chosen;
    const report = await refusal(harness.api.reviews.saveReport({ profileId, format: 'html' }));
    expect(report).toMatchObject({ code: 'invalid_input' });
    expect(report.message).toMatch(/is a symbolic link/);
    const exported = await refusal(harness.api.exports.pendingTransactions({ profileId, accountId, format: 'csv' }));
    expect(exported.code).toBe('invalid_input');
    expect(readFileSync(victim, 'utf8')).toBe(ORIGINAL);
  });
});
