/**
 * The SecretStore of a machine without a keychain: the data folder's key file (keyFile.ts),
 * unlocked once per start with the officer's passphrase. What the keychain keeps elsewhere
 * (profile secrets, the cache's data key, the audit chain's key and head) is kept here sealed,
 * so it survives a restart and a reboot instead of living in one process's memory.
 *
 * Only the process that holds the data folder's lock writes the file (one writer per folder),
 * so each change is read-modify-write of the whole file without a race.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  entryPurpose,
  KEY_FILE,
  newKeyFile,
  openMasterKey,
  readKeyFile,
  seal,
  unseal,
  writeKeyFile,
  type KeyFileContent,
} from './keyFile.ts';
import type { SecretStore } from './secretStore.ts';

export function keyFileOf(dataFolder: string): string {
  return join(dataFolder, KEY_FILE);
}

export function hasKeyFile(dataFolder: string): boolean {
  return existsSync(keyFileOf(dataFolder));
}

export class PassphraseSecretStore implements SecretStore {
  readonly file: string;
  readonly #masterKey: Buffer;
  #content: KeyFileContent;

  private constructor(file: string, content: KeyFileContent, masterKey: Buffer) {
    this.file = file;
    this.#content = content;
    this.#masterKey = masterKey;
  }

  /** Opens the folder's key file with its passphrase: WrongPassphrase (and no change) when it does not fit. */
  static unlock(dataFolder: string, passphrase: string): PassphraseSecretStore {
    const file = keyFileOf(dataFolder);
    const content = readKeyFile(file);
    return new PassphraseSecretStore(file, content, openMasterKey(file, content, passphrase));
  }

  /** Makes the folder's key file under a new passphrase; refuses to replace one that is there. */
  static create(dataFolder: string, passphrase: string): PassphraseSecretStore {
    const file = keyFileOf(dataFolder);
    if (existsSync(file))
      throw new Error(`${file} already exists: it is unlocked with its passphrase, never replaced.`);
    const { content, masterKey } = newKeyFile(passphrase);
    writeKeyFile(file, content);
    return new PassphraseSecretStore(file, content, masterKey);
  }

  get(account: string): Promise<string | null> {
    const sealed = this.#content.entries[account];
    if (sealed === undefined) return Promise.resolve(null);
    const plain = unseal(this.#masterKey, sealed, entryPurpose(account));
    // An entry that does not open under its own name was moved or altered: as good as absent.
    return Promise.resolve(plain === null ? null : plain.toString('utf8'));
  }

  set(account: string, secret: string): Promise<void> {
    if (secret === '') return Promise.reject(new Error('A secret cannot be empty.'));
    const entries = {
      ...this.#content.entries,
      [account]: seal(this.#masterKey, Buffer.from(secret, 'utf8'), entryPurpose(account)),
    };
    this.#replace({ ...this.#content, entries });
    return Promise.resolve();
  }

  delete(account: string): Promise<boolean> {
    if (!(account in this.#content.entries)) return Promise.resolve(false);
    const entries = Object.fromEntries(Object.entries(this.#content.entries).filter(([name]) => name !== account));
    this.#replace({ ...this.#content, entries });
    return Promise.resolve(true);
  }

  has(account: string): Promise<boolean> {
    return Promise.resolve(account in this.#content.entries);
  }

  /** Written first, kept in memory after: a failed write leaves both as they were. */
  #replace(next: KeyFileContent): void {
    writeKeyFile(this.file, next);
    this.#content = next;
  }
}
