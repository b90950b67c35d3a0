/**
 * The key file: where a data folder keeps its secrets when the machine has no keychain (a
 * server, a container). One JSON file in the data folder, `keys.json`, 0600:
 *
 * - a random 32-byte master key, sealed (AES-256-GCM) under a key derived from the officer's
 *   passphrase with scrypt at OWASP's recommended cost (N = 2^17, r = 8, p = 1);
 * - each secret sealed under the master key, with its account name as associated data, so an
 *   entry copied under another name fails to open instead of being handed out as that name.
 *
 * The passphrase never reaches the disk; the master key lives only in the process that
 * unlocked it. The file is replaced whole (written beside, then renamed), so a crash leaves the
 * old file or the new one, never half of one.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { z } from 'zod';

export const KEY_FILE = 'keys.json';

/** OWASP Password Storage Cheat Sheet, scrypt: N = 2^17 (128 MiB), r = 8, p = 1. */
export const SCRYPT_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
/** The least a key file may ask for: a file edited to a cheaper derivation is refused, not used. */
const LEAST_SCRYPT_N = 2 ** 14;
const MASTER_KEY_BYTES = 32;
const MASTER_KEY_PURPOSE = 'ledgerdesk-key-file:master-key:v1';
const ENTRY_PURPOSE = 'ledgerdesk-key-file:entry:v1:';

const sealedValue = z.object({ iv: z.string(), tag: z.string(), sealed: z.string() });
export type SealedValue = z.infer<typeof sealedValue>;

const keyFileContent = z.object({
  format: z.literal('ledgerdesk-key-file'),
  version: z.literal(1),
  kdf: z.object({
    name: z.literal('scrypt'),
    N: z.number().int().min(LEAST_SCRYPT_N),
    r: z.number().int().min(8),
    p: z.number().int().min(1),
    salt: z.string(),
  }),
  masterKey: sealedValue,
  entries: z.record(z.string(), sealedValue),
});
export type KeyFileContent = z.infer<typeof keyFileContent>;

/** The passphrase does not open this key file: nothing was changed. */
export class WrongPassphrase extends Error {
  constructor(file: string) {
    super(
      `That passphrase does not open ${file}: nothing was changed. Try again with the passphrase it was made with.`,
    );
    this.name = 'WrongPassphrase';
  }
}

/** The key file is not one Ledgerdesk can read (damaged, or edited by hand). */
export class KeyFileUnreadable extends Error {
  constructor(file: string, reason: string) {
    super(`The key file ${file} cannot be read (${reason}); it was left as it is.`);
    this.name = 'KeyFileUnreadable';
  }
}

/** A new passphrase that would be too easy to guess for a file anyone with the folder can try offline. */
export class WeakPassphrase extends Error {
  constructor(reason: string) {
    super(`That passphrase cannot protect the key file: ${reason}.`);
    this.name = 'WeakPassphrase';
  }
}

export const LEAST_PASSPHRASE_LENGTH = 12;

export function checkNewPassphrase(passphrase: string): void {
  // Counted as a person counts characters, not as UTF-16 code units.
  if ([...new Intl.Segmenter().segment(passphrase)].length < LEAST_PASSPHRASE_LENGTH) {
    throw new WeakPassphrase(`it has fewer than ${String(LEAST_PASSPHRASE_LENGTH)} characters`);
  }
}

export function seal(key: Buffer, plain: Buffer, associated: string): SealedValue {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associated, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), sealed: sealed.toString('base64') };
}

/** The plain bytes, or null when the key or the associated data is not the one it was sealed with. */
export function unseal(key: Buffer, value: SealedValue, associated: string): Buffer | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(value.iv, 'base64'));
    decipher.setAAD(Buffer.from(associated, 'utf8'));
    decipher.setAuthTag(Buffer.from(value.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(value.sealed, 'base64')), decipher.final()]);
  } catch {
    return null;
  }
}

function passphraseKey(passphrase: string, kdf: KeyFileContent['kdf']): Buffer {
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is below OWASP's cost.
  return scryptSync(passphrase.normalize('NFC'), Buffer.from(kdf.salt, 'base64'), 32, {
    N: kdf.N,
    r: kdf.r,
    p: kdf.p,
    maxmem: 256 * kdf.N * kdf.r,
  });
}

export function entryPurpose(account: string): string {
  return `${ENTRY_PURPOSE}${account}`;
}

/** A new key file's content and its master key, for a passphrase already checked. */
export function newKeyFile(passphrase: string): { content: KeyFileContent; masterKey: Buffer } {
  checkNewPassphrase(passphrase);
  const kdf = { name: 'scrypt' as const, ...SCRYPT_COST, salt: randomBytes(16).toString('base64') };
  const masterKey = randomBytes(MASTER_KEY_BYTES);
  const content: KeyFileContent = {
    format: 'ledgerdesk-key-file',
    version: 1,
    kdf,
    masterKey: seal(passphraseKey(passphrase, kdf), masterKey, MASTER_KEY_PURPOSE),
    entries: {},
  };
  return { content, masterKey };
}

export function readKeyFile(file: string): KeyFileContent {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new KeyFileUnreadable(file, (error as NodeJS.ErrnoException).code ?? 'not readable');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeyFileUnreadable(file, 'it is not JSON');
  }
  const checked = keyFileContent.safeParse(parsed);
  if (!checked.success) throw new KeyFileUnreadable(file, 'it is not a Ledgerdesk key file of this version');
  return checked.data;
}

/** The master key the passphrase opens, or WrongPassphrase. */
export function openMasterKey(file: string, content: KeyFileContent, passphrase: string): Buffer {
  const masterKey = unseal(passphraseKey(passphrase, content.kdf), content.masterKey, MASTER_KEY_PURPOSE);
  if (masterKey === null || masterKey.length !== MASTER_KEY_BYTES) throw new WrongPassphrase(file);
  return masterKey;
}

export function writeKeyFile(file: string, content: KeyFileContent): void {
  writeWhole(file, content);
}

/** Replaces the file whole with `content` as JSON: written and flushed beside it (0600), then renamed over it. */
export function writeWhole(file: string, content: unknown): void {
  const partial = `${file}.${String(process.pid)}.partial`;
  const handle = openSync(partial, 'w', 0o600);
  try {
    writeSync(handle, JSON.stringify(content, null, 2) + '\n');
    fsyncSync(handle);
  } catch (error) {
    closeSync(handle);
    rmSync(partial, { force: true });
    throw error;
  }
  closeSync(handle);
  renameSync(partial, file);
}
