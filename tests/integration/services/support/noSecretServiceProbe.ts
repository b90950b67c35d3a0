/**
 * Run as a child process inside a D-Bus session that has no Secret Service: tries every use
 * of the keychain and prints, as JSON, what each one did, plus whether a kernel keyring now
 * holds a key of the test's service (the fallback that must never happen).
 */
import { readFileSync } from 'node:fs';
import { detectKeychain } from '../../../../src/main/services/credentials/keychainStatus.ts';
import { KeyringSecretStore } from '../../../../src/main/services/credentials/keyringSecretStore.ts';

const service = process.argv[2] ?? 'Ledgerdesk-no-secret-service-test';
const store = new KeyringSecretStore(service);

async function outcome(use: () => Promise<unknown>): Promise<string> {
  try {
    return `done: ${JSON.stringify(await use())}`;
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** Keys this process can see in the kernel's keyrings (session, user, process), by description. */
function kernelKeys(): string | null {
  try {
    return readFileSync('/proc/keys', 'utf8');
  } catch {
    return null;
  }
}

const result = {
  status: await detectKeychain(),
  set: await outcome(() => store.set('probe', 'value-never-kept-1')),
  get: await outcome(() => store.get('probe')),
  has: await outcome(() => store.has('probe')),
  delete: await outcome(() => store.delete('probe')),
  kernelKeys: kernelKeys(),
};
process.stdout.write(JSON.stringify(result) + '\n');
