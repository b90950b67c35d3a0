/**
 * "Test connection" must prove the credentials, not just that the bank answers: GET /ping
 * needs no credentials, so a revoked key would otherwise look connected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import { servicesOn, startBank, type RunningSandbox, type ServicesOnBank } from './support/sandboxBank.ts';

let sandbox: RunningSandbox;
let folder: string;
let bank: ServicesOnBank;

beforeAll(async () => {
  sandbox = await startBank();
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-connection-'));
  bank = await servicesOn(sandbox, folder);
});

afterAll(async () => {
  await bank.services.close();
  await sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('checkConnection', () => {
  it('succeeds with the right key', async () => {
    await expect(bank.services.clients.clientFor(bank.profile.id).checkConnection()).resolves.toBeUndefined();
  });

  it('fails with "check the API key" when the secret is wrong, although /ping answers', async () => {
    await bank.services.setProfileSecret(bank.profile.id, 'revoked-secret');
    const fresh = bank.services.clients.clientFor(bank.profile.id);
    await expect(fresh.ping()).resolves.toBeUndefined();
    const failure = await fresh.checkConnection().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(BankError);
    expect((failure as BankError).status).toBe(401);
    expect((failure as BankError).remedy).toBe('Check the API key of profile Sandbox.');
    await bank.services.setProfileSecret(bank.profile.id, sandbox.keySecret);
  });
});
