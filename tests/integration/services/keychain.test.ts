/**
 * The keychain through a real Secret Service: a throwaway gnome-keyring in its own D-Bus
 * session (scripts/with-keyring.sh sets LEDGERDESK_TEST_SECRET_SERVICE=1), so a developer's
 * own keychain is never touched. Without it these tests skip and say why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
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

/**
 * A session bus of its own with no service directories: nothing can be activated on it, so
 * no Secret Service answers (the system's org.freedesktop.secrets.service would otherwise
 * start gnome-keyring on first use).
 */
const BARE_SESSION_BUS = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
const busHere = existsSync('/usr/bin/dbus-run-session') && existsSync('/proc/keys');
if (!busHere) process.stderr.write('bare-bus keychain test skipped: needs dbus-run-session and /proc/keys\n');

function inBareSession(script: string, service: string): unknown {
  const temp = makeTempFolder('ledgerdesk-bare-bus-');
  try {
    const config = join(temp.folder, 'session.conf');
    writeFileSync(config, BARE_SESSION_BUS);
    const env = { ...process.env };
    delete env['DBUS_SESSION_BUS_ADDRESS'];
    const run = spawnSync(
      'dbus-run-session',
      [`--config-file=${config}`, '--', node, join(import.meta.dirname, 'support', script), service],
      { env, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as unknown;
  } finally {
    temp.remove();
  }
}

describe.skipIf(!busHere)('a session bus with no Secret Service (review L9)', () => {
  it('gives KeychainUnavailable for every use, never a kernel-keyring fallback', () => {
    const service = `Ledgerdesk-test-${randomUUID()}`;
    const result = inBareSession('noSecretServiceProbe.ts', service) as Record<string, unknown>;
    expect(result['status']).toMatchObject({ available: false, problem: 'no-secret-service' });
    for (const use of ['set', 'get', 'has', 'delete']) {
      expect(result[use], use).toMatch(/^KeychainUnavailable: No keychain: no Secret Service is running/);
    }
    expect(JSON.stringify(result)).not.toContain('value-never-kept-1');
    expect(result['kernelKeys']).toEqual(expect.any(String));
    expect(result['kernelKeys']).not.toContain(`@${service}`);
  });

  it('would see a fallback: the library default, unpinned, lands in the kernel keyring on the same bus', () => {
    const service = `Ledgerdesk-control-${randomUUID()}`;
    expect(inBareSession('defaultKeyringControl.ts', service)).toEqual({ fellBackToKernelKeyring: true });
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
    await credentials.setProfileSecret(
      { id: profileId, authScheme: 'basic', baseUrl: 'https://bank.example' },
      'keychain-secret-1',
    );
    const { header } = await credentials.authorizationFor({
      id: profileId,
      name: 'K',
      authScheme: 'basic',
      keyId: 'key_k',
      baseUrl: 'https://bank.example/v1',
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
