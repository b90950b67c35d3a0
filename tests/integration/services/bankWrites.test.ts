/**
 * The user's writes against the real sandbox: documents, files, card art and webhooks, each
 * audited whatever its result, kept in the cache, and refused on a production profile
 * without an explicit confirmation. Also the real bank's answers to bad credentials.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BankClient } from '../../../src/main/services/bank/bankClient.ts';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { ProductionWriteNotConfirmed } from '../../../src/main/services/profiles/profiles.ts';
import { basicOf, servicesOn, startBank, type RunningSandbox, type ServicesOnBank } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

/** The smallest valid PNG: one transparent pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
let bank: ServicesOnBank;

beforeEach(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 10 });
  temp = makeTempFolder();
  bank = await servicesOn(sandbox, temp.folder);
});

afterEach(async () => {
  await bank.services.close();
  await sandbox.close();
  temp.remove();
});

describe('writes', () => {
  it('creates a document on an uploaded file, keeps it in the cache and audits both', async () => {
    const writes = bank.services.writes;
    const file = await writes.uploadFile(bank.profile.id, Buffer.from('%PDF-1.4 passport scan'), 'application/pdf');
    const document = await writes.createDocument(bank.profile.id, {
      type: 'passport',
      name: 'Passport of the primary applicant',
      file_id: file.id,
      fields: { date_of_birth: '1990-01-31' },
    });
    expect(document).toMatchObject({ type: 'passport', file_id: file.id, bankdata: {}, userdata: {} });
    expect(bank.services.cache.uploads.documents({ profileId: bank.profile.id }).rows.map((row) => row.id)).toEqual([
      document.id,
    ]);
    const audit = bank.services.cache.audit.list({ profileId: bank.profile.id }).rows;
    expect(audit.map((entry) => [entry.action, entry.target, entry.result])).toEqual([
      ['document.create', document.id, 'ok'],
      ['file.create', file.id, 'ok'],
      ['profile.add', bank.profile.id, 'ok'],
    ]);
  });

  it('uploads card art, and audits a refused upload with the bank’s sentence', async () => {
    const [cardProductId] = sandbox.demo.cardProducts;
    if (cardProductId === undefined) throw new Error('no demo card product');
    const png = await bank.services.writes.uploadFile(bank.profile.id, PNG, 'image/png');
    await bank.services.writes.uploadCardArt(bank.profile.id, cardProductId, { asset_type: 'front', file_id: png.id });
    expect(bank.services.cache.uploads.cardArtUploads({ profileId: bank.profile.id }).rows).toMatchObject([
      { cardProductId, assetType: 'front', fileId: png.id },
    ]);
    const text = await bank.services.writes.uploadFile(bank.profile.id, Buffer.from('not an image'), 'text/plain');
    const error = await bank.services.writes
      .uploadCardArt(bank.profile.id, cardProductId, { asset_type: 'back', file_id: text.id })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankError);
    expect((error as BankError).serverMessage).toMatch(/card art must be a PNG image/);
    const [latest] = bank.services.cache.audit.list({ profileId: bank.profile.id }).rows;
    expect(latest).toMatchObject({ action: 'card_art.upload', target: `${cardProductId}/back`, result: 'failed' });
    expect(latest?.detail).toMatch(/must be a PNG/);
  });

  it('refuses a write against a production profile unless confirmed, and audits the refusal', async () => {
    await bank.services.close();
    const production = await servicesOn(sandbox, makeTempFolder().folder, { production: true });
    bank = production;
    const request = { event: 'ach.update', url: 'http://127.0.0.1:9/hook' };
    await expect(
      production.services.writes.createWebhook(production.profile.id, request, { allowHttp: true }),
    ).rejects.toThrow(ProductionWriteNotConfirmed);
    const webhook = await production.services.writes.createWebhook(production.profile.id, request, {
      confirmProduction: true,
      allowHttp: true,
    });
    expect(webhook.status).toBe('enabled');
    const results = production.services.cache.audit
      .list({ profileId: production.profile.id })
      .rows.map((entry) => entry.result);
    expect(results).toEqual(['ok', 'refused', 'ok']);
  });

  it('changes and deletes a webhook, keeping the cache in step', async () => {
    const webhook = await bank.services.writes.createWebhook(
      bank.profile.id,
      { event: 'ach.update', url: 'http://127.0.0.1:9/hook' },
      { allowHttp: true },
    );
    const disabled = await bank.services.writes.updateWebhook(bank.profile.id, webhook.id, { status: 'disabled' });
    expect(disabled.status).toBe('disabled');
    expect(bank.services.cache.webhooks.list({ profileId: bank.profile.id }).rows[0]?.status).toBe('disabled');
    await bank.services.writes.deleteWebhook(bank.profile.id, webhook.id);
    expect(bank.services.cache.webhooks.list({ profileId: bank.profile.id }).rows).toEqual([]);
  });

  it('removes a profile with its secret and cached data, keeping the audit trail', async () => {
    await bank.services.writes.createWebhook(
      bank.profile.id,
      { event: 'ach.update', url: 'http://127.0.0.1:9/hook' },
      { allowHttp: true },
    );
    await bank.services.removeProfile('Sandbox');
    expect(await bank.secrets.has(`profile:${bank.profile.id}`)).toBe(false);
    expect(bank.services.cache.webhooks.list({ profileId: bank.profile.id }).rows).toEqual([]);
    expect(bank.services.cache.audit.list({ profileId: bank.profile.id }).rows[0]?.action).toBe('profile.remove');
  });
});

describe('credentials at the real bank', () => {
  it('says "check your API key" on a wrong secret, with one request and no retry loop', async () => {
    const credentials = new Credentials(new InMemorySecretStore());
    await credentials.setProfileSecret({ id: 'p', authScheme: 'basic', baseUrl: sandbox.baseUrl }, 'wrong-secret-123');
    let requests = 0;
    const client = new BankClient({
      profileName: 'Sandbox',
      authScheme: 'basic',
      baseUrl: sandbox.baseUrl,
      authorization: async () => {
        requests += 1;
        return credentials.authorizationFor({
          id: 'p',
          name: 'Sandbox',
          authScheme: 'basic',
          keyId: sandbox.keyId,
          baseUrl: sandbox.baseUrl,
        });
      },
    });
    const error = await client.listAccounts().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BankError);
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, attempts: 1 });
    expect((error as BankError).message).toMatch(/Check the API key of profile Sandbox\.$/);
    expect(requests).toBe(1);
  });

  it('says the bearer token expired when the bank refuses an expired one', async () => {
    const minted = await fetch(`${sandbox.baseUrl}/auth/token`, {
      method: 'POST',
      headers: { authorization: basicOf(sandbox), 'content-type': 'application/json' },
      body: JSON.stringify({ expires_in: 1 }),
    });
    const { access_token: token } = (await minted.json()) as { access_token: string };
    const credentials = new Credentials(new InMemorySecretStore());
    await credentials.setProfileSecret({ id: 'b', authScheme: 'bearer', baseUrl: sandbox.baseUrl }, token);
    const profile = { id: 'b', name: 'Bearer', authScheme: 'bearer' as const, keyId: null, baseUrl: sandbox.baseUrl };
    const client = new BankClient({
      profileName: 'Bearer',
      authScheme: 'bearer',
      baseUrl: sandbox.baseUrl,
      authorization: () => credentials.authorizationFor(profile),
    });
    await client.listAccounts();
    // Bounded wait for the one-second token to expire (the bank's clock decides).
    let error: unknown = null;
    for (let round = 0; round < 40 && error === null; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      error = await client.listAccounts().then(
        () => null,
        (caught: unknown) => caught,
      );
    }
    expect(error).toBeInstanceOf(BankError);
    expect((error as BankError).status).toBe(401);
    expect((error as BankError).remedy).toMatch(/^The bearer token of profile Bearer expired at .*: replace it\.$/);
  });
});
