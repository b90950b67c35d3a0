/**
 * Registrations' Basic secrets, sealed at rest (security review of 3b75e6a, I7). The bank
 * needs each secret to deliver, so it is kept, but as AES-256-GCM under a key derived from the
 * sandbox's API key secret, with the webhook's id as associated data (a sealed secret moved to
 * another webhook does not open). The embedded sandbox's key lives in the OS keychain and is
 * passed to the sandbox process, so its `sandbox.db` alone does not give the secrets away. A
 * standalone sandbox whose key was made for its data file keeps that key in the same file
 * (`meta.api_key`): there the seal only keeps the secret out of a casual read, and the file's
 * 0600 mode (N9) is what protects it; docs/security.md says so.
 *
 * A secret written by an earlier version (in clear) is sealed the first time the bank starts.
 * One sealed under another key (the keychain's key was lost and a new one made) does not open:
 * that webhook delivers without credentials, as one with none, until it is given them again.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Database } from './database.ts';

const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface WebhookSecrets {
  read(webhookId: string): string | null;
  write(webhookId: string, secret: string): void;
  drop(webhookId: string): void;
}

function sealingKeyOf(apiKeySecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', apiKeySecret, 'ledgerdesk sandbox', 'webhook basic secrets v1', 32));
}

function sealSecret(key: Buffer, webhookId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(webhookId, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function openSecret(key: Buffer, webhookId: string, stored: string): string | null {
  const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64');
  if (bytes.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(webhookId, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The store of the secrets, sealed under `apiKeySecret`; seals any secret an earlier version kept in clear. */
export function createWebhookSecrets(database: Database, apiKeySecret: string): WebhookSecrets {
  const key = sealingKeyOf(apiKeySecret);
  const readOne = database.prepare('SELECT basic_secret FROM webhook_credential WHERE webhook_id = ?');
  const writeOne = database.prepare(
    'INSERT INTO webhook_credential (webhook_id, basic_secret) VALUES (?, ?) ON CONFLICT (webhook_id) DO UPDATE SET basic_secret = excluded.basic_secret',
  );
  const dropOne = database.prepare('DELETE FROM webhook_credential WHERE webhook_id = ?');
  const inClear = database
    .prepare('SELECT webhook_id, basic_secret FROM webhook_credential WHERE basic_secret NOT LIKE ?')
    .all(`${PREFIX}%`) as { webhook_id: string; basic_secret: string }[];
  for (const row of inClear) writeOne.run(row.webhook_id, sealSecret(key, row.webhook_id, row.basic_secret));
  return {
    read(webhookId) {
      const row = readOne.get(webhookId) as { basic_secret: string } | undefined;
      if (row === undefined) return null;
      return openSecret(key, webhookId, row.basic_secret);
    },
    write(webhookId, secret) {
      writeOne.run(webhookId, sealSecret(key, webhookId, secret));
    },
    drop(webhookId) {
      dropOne.run(webhookId);
    },
  };
}
