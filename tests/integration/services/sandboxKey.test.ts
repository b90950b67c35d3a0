/**
 * Issue 15 item 5: the embedded sandbox's key is random, made on first run and kept in the
 * real Secret Service (a throwaway gnome-keyring: scripts/with-keyring.sh), and the sandbox
 * answers to it and to nothing else. Without a keychain it is still random, for one run.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { EMBEDDED_SANDBOX_KEY_ACCOUNT, embeddedSandboxKey } from '../../../src/main/services/credentials/sandboxKey.ts';
import type { SecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { startSandbox } from '../../../src/sandbox/index.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

function basic(keyId: string, secret: string): string {
  return `Basic ${Buffer.from(`${keyId}:${secret}`).toString('base64')}`;
}

/** A keychain that refuses everything, as a locked one does. */
const lockedKeychain: SecretStore = {
  get: () => Promise.reject(new Error('locked')),
  set: () => Promise.reject(new Error('locked')),
  delete: () => Promise.reject(new Error('locked')),
  has: () => Promise.reject(new Error('locked')),
};

describe.skipIf(!secretServiceHere)('the embedded sandbox key in the Secret Service', () => {
  // Its own service name, so a developer's real Ledgerdesk entries are never touched.
  const store = new KeyringSecretStore('Ledgerdesk-test-sandbox-key');
  afterAll(async () => {
    await store.delete(EMBEDDED_SANDBOX_KEY_ACCOUNT);
  });

  it('is made once, kept in the keychain, and the same on the next start', async () => {
    await store.delete(EMBEDDED_SANDBOX_KEY_ACCOUNT);
    const first = await embeddedSandboxKey(store);
    expect(first.kept).toBe(true);
    expect(first.keyId).toMatch(/^key_embedded_[0-9a-f]{12}$/);
    expect(first.keySecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await store.has(EMBEDDED_SANDBOX_KEY_ACCOUNT)).toBe(true);
    const again = await embeddedSandboxKey(store);
    expect(again).toEqual(first);
  });

  it('is what the sandbox answers to, and it is never written to the sandbox data file', async () => {
    const key = await embeddedSandboxKey(store);
    const temp = makeTempFolder();
    const dataFile = join(temp.folder, 'sandbox.db');
    const sandbox = await startSandbox({
      dataFile,
      keyId: key.keyId,
      keySecret: key.keySecret,
      pendingTransactionsPerAccount: 1,
    });
    try {
      expect(sandbox.keyGenerated).toBe(false);
      const ok = await fetch(`${sandbox.baseUrl}/account`, {
        headers: { authorization: basic(key.keyId, key.keySecret) },
      });
      expect(ok.status).toBe(200);
      const other = await fetch(`${sandbox.baseUrl}/account`, {
        headers: { authorization: basic(key.keyId, 'x'.repeat(43)) },
      });
      expect(other.status).toBe(401);
    } finally {
      await sandbox.close();
    }
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(dataFile).includes(Buffer.from(key.keySecret))).toBe(false);
    temp.remove();
  });

  it('replaces an unreadable entry with a fresh random key', async () => {
    await store.set(EMBEDDED_SANDBOX_KEY_ACCOUNT, 'not json');
    const key = await embeddedSandboxKey(store);
    expect(key.kept).toBe(true);
    expect(JSON.parse((await store.get(EMBEDDED_SANDBOX_KEY_ACCOUNT)) ?? '{}')).toEqual({
      keyId: key.keyId,
      keySecret: key.keySecret,
    });
  });
});

describe('the embedded sandbox key without a keychain', () => {
  it('is still random, for this run only, never a constant', async () => {
    const first = await embeddedSandboxKey(lockedKeychain);
    const second = await embeddedSandboxKey(lockedKeychain);
    expect(first.kept).toBe(false);
    expect(second.kept).toBe(false);
    expect(first.keySecret).not.toBe(second.keySecret);
    expect(first.keyId).not.toBe(second.keyId);
  });
});
