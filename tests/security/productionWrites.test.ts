/**
 * I1 of the security review of 3b75e6a: a write to a Production bank is confirmed in main, not
 * by a flag the renderer sets. The services get a WriteConfirmer (here a real implementation that
 * answers as the user would and records each question; a native dialog in the app); the window's
 * `confirmProduction: true` alone sends nothing. Through the real IPC router to a real sandbox.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import type { WriteConfirmer, WriteToConfirm } from '../../src/main/services/writes/writeConfirmer.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { refusal, startHarness, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

/** What the user answers main's question, and every question asked. */
class AnsweringConfirmer implements WriteConfirmer {
  answer = false;
  readonly asked: WriteToConfirm[] = [];
  confirm(write: WriteToConfirm): Promise<boolean> {
    this.asked.push(write);
    return Promise.resolve(this.answer);
  }
}

describe.skipIf(!secretServiceHere)('I1: Production writes are confirmed in main', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-i1-${randomUUID()}`);
  const confirmer = new AnsweringConfirmer();
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let harness: Harness;
  let productionId: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-i1-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 1 });
    harness = await startHarness(temp.folder, sandbox, store, confirmer);
    const production = await harness.api.profiles.create({
      name: 'Acme Production',
      baseUrl: sandbox.baseUrl,
      authScheme: 'basic',
      keyId: sandbox.keyId,
      production: true,
    });
    productionId = production.id;
    await harness.api.credentials.set({ profileId: productionId, secret: sandbox.keySecret });
  });

  afterAll(async () => {
    await harness.stop();
    await sandbox.close();
    temp.remove();
  });

  async function bankWebhooks(): Promise<string[]> {
    const answer = await fetch(`${sandbox.baseUrl}/webhook`, {
      headers: { authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}` },
    });
    const body = (await answer.json()) as { data?: { url: string }[] } | { url: string }[];
    return (Array.isArray(body) ? body : (body.data ?? [])).map((webhook) => webhook.url);
  }

  it('the renderer’s flag with the user declining in main sends nothing, and is audited refused', async () => {
    confirmer.answer = false;
    const refused = await refusal(
      harness.api.webhooks.create({
        profileId: productionId,
        request: { event: 'ach.update', url: 'https://hooks.example/declined' },
        confirmProduction: true,
      }),
    );
    expect(refused.code).toBe('confirmation_required');
    expect(confirmer.asked.at(-1)).toMatchObject({ profileName: 'Acme Production', action: 'webhook.create' });
    expect(await bankWebhooks()).not.toContain('https://hooks.example/declined');
    const [latest] = (await harness.api.audit.list({ profileId: productionId, limit: 1 })).rows;
    expect(latest).toMatchObject({ action: 'webhook.create', result: 'refused' });
  });

  it('is sent once the user says yes in main; without the window’s flag main is not even asked', async () => {
    confirmer.answer = true;
    const before = confirmer.asked.length;
    const unflagged = await refusal(
      harness.api.webhooks.create({
        profileId: productionId,
        request: { event: 'ach.update', url: 'https://hooks.example/x' },
      }),
    );
    expect(unflagged.code).toBe('confirmation_required');
    expect(confirmer.asked.length).toBe(before);
    const created = await harness.api.webhooks.create({
      profileId: productionId,
      request: { event: 'ach.update', url: 'https://hooks.example/confirmed' },
      confirmProduction: true,
    });
    expect(created.id).toMatch(/^wh_/);
    expect(confirmer.asked.length).toBe(before + 1);
    expect(await bankWebhooks()).toContain('https://hooks.example/confirmed');
  });

  it('registering the listener with a Production bank asks main too', async () => {
    await harness.api.listener.start({ port: 0 });
    confirmer.answer = false;
    const refused = await refusal(
      harness.api.listener.register({ profileId: productionId, event: 'ach.update', confirmProduction: true }),
    );
    expect(refused.code).toBe('confirmation_required');
    expect(confirmer.asked.at(-1)).toMatchObject({ action: 'listener.register' });
  });

  it('switching the Production guard off asks main too: declined, the profile stays Production', async () => {
    confirmer.answer = false;
    const refused = await refusal(
      harness.api.profiles.update({ id: productionId, production: false, confirmProduction: true }),
    );
    expect(refused.code).toBe('confirmation_required');
    expect(confirmer.asked.at(-1)).toMatchObject({
      profileName: 'Acme Production',
      action: 'profile.update (Production guard off)',
    });
    const listed = await harness.api.profiles.list();
    expect(listed.profiles.find((profile) => profile.id === productionId)?.production).toBe(true);
    // Last: with the user's yes it goes (the other tests need the guard on).
    confirmer.answer = true;
    const updated = await harness.api.profiles.update({ id: productionId, production: false, confirmProduction: true });
    expect(updated.production).toBe(false);
  });
});
