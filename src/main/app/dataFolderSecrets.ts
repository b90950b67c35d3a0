/**
 * Where a data folder's secrets are kept, decided the same way by every entry point (the
 * desktop app, web mode, `ledger`, `npm run listen`):
 *
 * - a folder that has a key file (keys.json) keeps using it, whatever the machine has now:
 *   switching to a keychain that appeared later would lose every secret sealed in the file;
 * - otherwise the OS keychain, where there is one;
 * - otherwise a new key file under a passphrase. Never only memory: a restart must not lose the
 *   cache's key and with it the officer's reviews (issue 34).
 *
 * The passphrase comes from `--passphrase-file FILE`, else `LEDGERDESK_PASSPHRASE_FILE`, else is
 * typed on the terminal without echo (twice when the file is made). With none of them, the
 * caller decides: web mode shows its unlock page, a command line stops with one sentence.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { detectKeychain, type KeychainStatus } from '../services/credentials/keychainStatus.ts';
import { KeyringSecretStore } from '../services/credentials/keyringSecretStore.ts';
import { hasKeyFile, keyFileOf, PassphraseSecretStore } from '../services/credentials/passphraseSecretStore.ts';
import type { SecretStore } from '../services/credentials/secretStore.ts';
import { readOptionalSecret, type SecretInput } from '../cli/ledger/readSecret.ts';

const PASSPHRASE_FILE_VARIABLE = 'LEDGERDESK_PASSPHRASE_FILE';
const MAX_PASSPHRASE_FILE_BYTES = 4096;

/** No way to learn the passphrase here: no file given and no terminal to ask on. */
export class PassphraseNeeded extends Error {
  constructor(dataFolder: string, creating: boolean) {
    super(
      `This machine has no keychain, so ${dataFolder}'s secrets are kept in ${creating ? 'a key file (to be made)' : 'its key file'} ` +
        `under a passphrase, and there is no terminal to ask for it: give it with --passphrase-file FILE ` +
        `or ${PASSPHRASE_FILE_VARIABLE}=FILE (the file holds only the passphrase, mode 0600).`,
    );
    this.name = 'PassphraseNeeded';
  }
}

/** The passphrase file cannot be used (missing, empty, too big), or two typed passphrases differ. */
export class PassphraseProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PassphraseProblem';
  }
}

export interface PassphraseSource {
  /** `--passphrase-file`, or null to fall back to LEDGERDESK_PASSPHRASE_FILE. */
  file: string | null;
  env: NodeJS.ProcessEnv;
  /** A terminal to ask on without echo; null (or not a TTY): never asked. */
  terminal: SecretInput | null;
}

export interface DataFolderSecrets {
  store: SecretStore;
  /** The keychain, or the folder's key file (its path). */
  where: { kind: 'keychain' } | { kind: 'key-file'; file: string; created: boolean };
}

function passphraseFileOf(source: Pick<PassphraseSource, 'file' | 'env'>): string | null {
  const named = source.file ?? source.env[PASSPHRASE_FILE_VARIABLE] ?? null;
  return named === null || named === '' ? null : resolve(named);
}

/** The passphrase a file holds: its whole text minus one trailing line break. */
export function readPassphraseFile(file: string): string {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw new PassphraseProblem(
      `The passphrase file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'not readable'}).`,
    );
  }
  if (size > MAX_PASSPHRASE_FILE_BYTES)
    throw new PassphraseProblem(`The passphrase file ${file} is too big to hold a passphrase.`);
  const passphrase = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  if (passphrase === '') throw new PassphraseProblem(`The passphrase file ${file} is empty.`);
  return passphrase;
}

function askable(terminal: SecretInput | null): terminal is SecretInput {
  return terminal !== null && terminal.stdin.isTTY === true;
}

/** Unlocks the folder's key file, or makes it: the passphrase from the file, else asked (twice to make one). */
export async function openKeyFile(dataFolder: string, source: PassphraseSource): Promise<PassphraseSecretStore> {
  const creating = !hasKeyFile(dataFolder);
  const file = passphraseFileOf(source);
  if (file !== null) {
    const passphrase = readPassphraseFile(file);
    return creating
      ? PassphraseSecretStore.create(dataFolder, passphrase)
      : PassphraseSecretStore.unlock(dataFolder, passphrase);
  }
  const { terminal } = source;
  if (!askable(terminal)) throw new PassphraseNeeded(dataFolder, creating);
  if (!creating) {
    return PassphraseSecretStore.unlock(
      dataFolder,
      await readOptionalSecret(terminal, `Passphrase of ${keyFileOf(dataFolder)}`),
    );
  }
  terminal.prompt.write(
    `No keychain on this machine: Ledgerdesk keeps this data folder's secrets in ${keyFileOf(dataFolder)}, ` +
      'under a passphrase you choose now. It is asked at each start; keep it safe.\n',
  );
  const first = await readOptionalSecret(terminal, 'New passphrase');
  const second = await readOptionalSecret(terminal, 'The same passphrase again');
  if (first !== second) throw new PassphraseProblem('The two passphrases differ: nothing was made. Start again.');
  return PassphraseSecretStore.create(dataFolder, first);
}

/** The keychain or the key file, as the header says; the key file's passphrase as `source` gives it. */
export async function openDataFolderSecrets(
  dataFolder: string,
  source: PassphraseSource,
  keychain: () => Promise<KeychainStatus> = detectKeychain,
): Promise<DataFolderSecrets> {
  if (!hasKeyFile(dataFolder) && (await keychain()).available) {
    return { store: new KeyringSecretStore(), where: { kind: 'keychain' } };
  }
  const created = !hasKeyFile(dataFolder);
  const store = await openKeyFile(dataFolder, source);
  return { store, where: { kind: 'key-file', file: store.file, created } };
}
