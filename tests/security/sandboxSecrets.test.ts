/**
 * I7 of the security review of 3b75e6a: the sandbox's webhook secrets sealed at rest, its file
 * 0600. A registration's Basic secret is given to a real sandbox bank on a data file; the file
 * holds it in no byte (raw or as the base64 `user:secret` the bank sends), yet the bank still
 * delivers with it, after a restart too. A secret kept in clear by an earlier version is sealed
 * on the next start. A sealed secret moved to another webhook does not open there.
 */
import { statSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/shared/bank/index.ts';
import { eventually, startClient, type SandboxClient } from '../integration/sandbox/sandboxClient.ts';
import { startReceiver, type WebhookReceiver } from '../integration/sandbox/webhookReceiver.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';

const KEY = { keyId: 'key_i7_test', keySecret: 'kept-in-the-keychain-7f3a9c' };
const SECRET = 'RegistrationSecret-5be81f0d';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function bankOn(dataFile: string): Promise<SandboxClient> {
  const client = await startClient({
    dataFile,
    keyId: KEY.keyId,
    keySecret: KEY.keySecret,
    accounts: 1,
    pendingTransactionsPerAccount: 0,
  });
  return client;
}

async function receiver(): Promise<WebhookReceiver> {
  const started = await startReceiver(() => 200);
  cleanups.push(() => started.close());
  return started;
}

async function subscribe(client: SandboxClient, url: string, user: string, secret: string): Promise<Webhook> {
  const reply = await client.call('POST', '/webhook', {
    body: { event: 'ach.create', url, basic_user: user, basic_secret: secret },
  });
  expect(reply.status).toBe(200);
  return reply.body as Webhook;
}

async function deliveredAuthorization(client: SandboxClient, caught: WebhookReceiver): Promise<string | undefined> {
  const reply = await client.call('POST', '/simulation', {
    body: {
      type: 'ach.create',
      simulation: { account_id: client.sandbox.demo.accounts[0], amount: '10.00', direction: 'credit' },
    },
  });
  expect(reply.status).toBe(202);
  const achId = (reply.body as { object_id: string }).object_id;
  const delivered = await eventually(
    () => Promise.resolve(caught.received.find((entry) => entry.body.id === achId)),
    'the notification',
  );
  return delivered.authorization;
}

function fileBytes(dataFile: string): Buffer {
  return Buffer.concat(
    [dataFile, `${dataFile}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)),
  );
}

function holds(bytes: Buffer, secret: string, user = 'bank'): boolean {
  return (
    bytes.includes(Buffer.from(secret)) ||
    bytes.includes(Buffer.from(Buffer.from(`${user}:${secret}`).toString('base64')))
  );
}

describe('I7: the sandbox keeps registration secrets sealed', () => {
  it('holds the secret in no byte of its 0600 file, and still delivers with it, after a restart too', async () => {
    const temp = makeTempFolder('ledgerdesk-i7-');
    cleanups.push(() => {
      temp.remove();
    });
    const dataFile = join(temp.folder, 'sandbox', 'sandbox.db');
    const caught = await receiver();
    let client = await bankOn(dataFile);
    await subscribe(client, caught.url, 'bank', SECRET);
    const expected = `Basic ${Buffer.from(`bank:${SECRET}`).toString('base64')}`;
    expect(await deliveredAuthorization(client, caught)).toBe(expected);
    await client.sandbox.close();
    expect(statSync(dataFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(temp.folder, 'sandbox')).mode & 0o777).toBe(0o700);
    expect(holds(fileBytes(dataFile), SECRET)).toBe(false);
    client = await bankOn(dataFile);
    cleanups.push(async () => {
      await client.sandbox.close();
    });
    expect(await deliveredAuthorization(client, caught)).toBe(expected);
  });

  it('seals a secret an earlier version kept in clear, on the next start', async () => {
    const temp = makeTempFolder('ledgerdesk-i7-');
    cleanups.push(() => {
      temp.remove();
    });
    const dataFile = join(temp.folder, 'sandbox.db');
    const caught = await receiver();
    const first = await bankOn(dataFile);
    const hook = await subscribe(first, caught.url, 'bank', 'placeholder-secret');
    await first.sandbox.close();
    const raw = new DatabaseSync(dataFile);
    raw.prepare('UPDATE webhook_credential SET basic_secret = ? WHERE webhook_id = ?').run(SECRET, hook.id);
    raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    raw.close();
    expect(holds(fileBytes(dataFile), SECRET)).toBe(true);
    const client = await bankOn(dataFile);
    cleanups.push(async () => {
      await client.sandbox.close();
    });
    expect(await deliveredAuthorization(client, caught)).toBe(
      `Basic ${Buffer.from(`bank:${SECRET}`).toString('base64')}`,
    );
    const stored = new DatabaseSync(dataFile, { readOnly: true });
    const row = stored.prepare('SELECT basic_secret FROM webhook_credential WHERE webhook_id = ?').get(hook.id) as {
      basic_secret: string;
    };
    stored.close();
    expect(row.basic_secret).toMatch(/^sealed:v1:/);
    expect(row.basic_secret).not.toContain(SECRET);
  });

  it('a sealed secret moved to another webhook does not open there: that one delivers without credentials', async () => {
    const temp = makeTempFolder('ledgerdesk-i7-');
    cleanups.push(() => {
      temp.remove();
    });
    const dataFile = join(temp.folder, 'sandbox.db');
    const victimReceiver = await receiver();
    const caught = await receiver();
    const first = await bankOn(dataFile);
    const victim = await subscribe(first, victimReceiver.url, 'bank', SECRET);
    const other = await subscribe(first, caught.url, 'bank', 'the-other-secret');
    await first.sandbox.close();
    const raw = new DatabaseSync(dataFile);
    raw
      .prepare(
        'UPDATE webhook_credential SET basic_secret = (SELECT basic_secret FROM webhook_credential WHERE webhook_id = ?) WHERE webhook_id = ?',
      )
      .run(victim.id, other.id);
    raw.close();
    const client = await bankOn(dataFile);
    cleanups.push(async () => {
      await client.sandbox.close();
    });
    const delivered = { authorization: await deliveredAuthorization(client, caught) };
    expect(await deliveredAuthorization(client, victimReceiver)).toBe(
      `Basic ${Buffer.from(`bank:${SECRET}`).toString('base64')}`,
    );
    expect(delivered.authorization).toBeUndefined();
  });
});
