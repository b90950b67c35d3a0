/**
 * The keychain through a real Secret Service: a throwaway gnome-keyring in its own D-Bus
 * session (scripts/with-keyring.sh sets LEDGERDESK_TEST_SECRET_SERVICE=1), so a developer's
 * own keychain is never touched. Without it these tests skip and say why.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { detectKeychain } from '../../../src/main/services/credentials/keychainStatus.ts';
import { KeychainUnavailable, KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere) {
  process.stderr.write(
    'keychain tests skipped: no throwaway Secret Service. Run them with: sh scripts/with-keyring.sh npx vitest run --project integration tests/integration/services (needs gnome-keyring and dbus-run-session)\n',
  );
}

const node = process.execPath;
const probe = join(import.meta.dirname, 'support', 'keychainProbe.ts');

describe('keychain status', () => {
  it('reports no keychain, with what to do, when there is no session bus', () => {
    const output = execFileSync(node, [probe], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/ledgerdesk-test-bus' },
      encoding: 'utf8',
    });
    const status = JSON.parse(output) as { available: boolean; problem: string; remedy: string };
    expect(status).toMatchObject({ available: false, problem: 'no-session-bus' });
    expect(status.remedy).toMatch(/desktop session|dbus-run-session/);
  });

  it('refuses to store a secret rather than fall back to a store that forgets', async () => {
    const output = execFileSync(
      node,
      [
        '--input-type=module',
        '--eval',
        `import { KeyringSecretStore } from ${JSON.stringify(join(process.cwd(), 'src/main/services/credentials/keyringSecretStore.ts'))};
         try { await new KeyringSecretStore('Ledgerdesk-test').set('probe', 'value-1'); console.log('stored'); }
         catch (error) { console.log(error.name + ': ' + error.message); }`,
      ],
      {
        env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/ledgerdesk-test-bus' },
        encoding: 'utf8',
      },
    );
    expect(output.trim()).toMatch(/^KeychainUnavailable: No keychain: there is no D-Bus session bus/);
    expect(output).not.toContain('value-1');
    await Promise.resolve();
  });
});

describe.skipIf(!secretServiceHere)('the Secret Service (throwaway gnome-keyring)', () => {
  const store = new KeyringSecretStore();
  const accounts: string[] = [];
  const account = (name: string): string => {
    const full = `test:${name}:${randomUUID()}`;
    accounts.push(full);
    return full;
  };

  afterAll(async () => {
    for (const name of accounts) await store.delete(name);
  });

  it('is detected as available', async () => {
    expect(await detectKeychain()).toEqual({ available: true, backend: 'Secret Service' });
  });

  it('sets, reads, replaces and deletes a secret under the service Ledgerdesk', async () => {
    const name = account('profile');
    expect(await store.has(name)).toBe(false);
    await store.set(name, 'first-secret');
    expect(await store.get(name)).toBe('first-secret');
    await store.set(name, 'second-secret');
    expect(await store.get(name)).toBe('second-secret');
    expect(await store.has(name)).toBe(true);
    expect(await store.delete(name)).toBe(true);
    expect(await store.delete(name)).toBe(false);
    expect(await store.get(name)).toBeNull();
    expect(store.service).toBe('Ledgerdesk');
  });

  it('gives a profile secret out only inside an Authorization header', async () => {
    const credentials = new Credentials(store);
    const profileId = `prof_${randomUUID()}`;
    accounts.push(`profile:${profileId}`);
    await credentials.setProfileSecret(profileId, 'keychain-secret-1');
    const { header } = await credentials.authorizationFor({
      id: profileId,
      name: 'K',
      authScheme: 'basic',
      keyId: 'key_k',
    });
    expect(header).toBe(`Basic ${Buffer.from('key_k:keychain-secret-1').toString('base64')}`);
    expect(await credentials.deleteProfileSecret(profileId)).toBe(true);
  });

  it('keeps the cache data key in the keychain: lose it and the cache is dropped, never readable again', async () => {
    const temp = makeTempFolder();
    try {
      const credentials = new Credentials(store);
      const cache = await OfflineCache.open({ folder: temp.folder, credentials });
      const cacheId = (
        cache.database.prepare("SELECT value FROM cache_meta WHERE key = 'cache_id'").get() as { value: string }
      ).value;
      accounts.push(`cache:data-key:${cacheId}`);
      expect(await store.has(`cache:data-key:${cacheId}`)).toBe(true);
      await cache.close();
      const again = await OfflineCache.open({ folder: temp.folder, credentials });
      expect(again.opened.dataKeyReset).toBeNull();
      await again.close();
      await store.delete(`cache:data-key:${cacheId}`);
      const reset = await OfflineCache.open({ folder: temp.folder, credentials });
      expect(reset.opened.dataKeyReset).toBe('data-key-lost');
      await reset.close();
    } finally {
      temp.remove();
    }
  });

  it('reports failures as KeychainUnavailable without the secret in the message', () => {
    const error = new KeychainUnavailable({
      available: false,
      problem: 'locked',
      message: 'The keychain is locked.',
      remedy: 'Unlock it.',
    });
    expect(error.message).toBe('The keychain is locked. Unlock it.');
  });
});
