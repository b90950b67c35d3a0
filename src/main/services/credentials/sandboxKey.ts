/**
 * The embedded sandbox bank's API key: random, made on the app's first run and kept in the
 * OS keychain (`sandbox:api-key`), so the sandbox's data file and webhooks keep answering to
 * the same key across restarts while nothing on disk or in the source holds it. Without a
 * working keychain the sandbox still gets a random key, for this run only: never a constant.
 */
import { randomBytes } from 'node:crypto';
import type { SecretStore } from './secretStore.ts';

export const EMBEDDED_SANDBOX_KEY_ACCOUNT = 'sandbox:api-key';

export interface EmbeddedSandboxKey {
  keyId: string;
  keySecret: string;
  /** False when the keychain could not keep it: it lives for this run only. */
  kept: boolean;
}

function randomKey(): { keyId: string; keySecret: string } {
  return { keyId: `key_embedded_${randomBytes(6).toString('hex')}`, keySecret: randomBytes(32).toString('base64url') };
}

function parsed(stored: string): { keyId: string; keySecret: string } | null {
  try {
    const value = JSON.parse(stored) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { keyId, keySecret } = value as Record<string, unknown>;
    return typeof keyId === 'string' && typeof keySecret === 'string' && keySecret.length >= 32
      ? { keyId, keySecret }
      : null;
  } catch {
    return null;
  }
}

export async function embeddedSandboxKey(store: SecretStore): Promise<EmbeddedSandboxKey> {
  try {
    const stored = await store.get(EMBEDDED_SANDBOX_KEY_ACCOUNT);
    const known = stored === null ? null : parsed(stored);
    if (known !== null) return { ...known, kept: true };
    const made = randomKey();
    await store.set(EMBEDDED_SANDBOX_KEY_ACCOUNT, JSON.stringify(made));
    return { ...made, kept: true };
  } catch {
    return { ...randomKey(), kept: false };
  }
}
