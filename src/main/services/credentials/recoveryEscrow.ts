/**
 * The recovery key: a way back to the officer's record after the keychain entry or the key
 * file's passphrase is lost (issue 34). On first use of a data folder Ledgerdesk makes an X25519
 * key pair; the private half is the recovery key, written once (0600) to a file outside the data
 * folder and shown once, for the officer to move offline; the public half stays in the data
 * folder's `recovery-escrow.json`. Every key the record depends on (the record's key, the audit
 * chain's key, the cache's data key) is also sealed to that public key there, as it is made:
 * sealing needs no secret, so a key made months later (after a data-key reset) is escrowed too,
 * while only the holder of the recovery key can open any of them (`ledger record recover`).
 *
 * Each entry: an ephemeral X25519 key, agreed with the recovery public key, HKDF-SHA256 to an
 * AES-256-GCM key, the entry's account name as associated data.
 */
import {
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  type KeyObject,
} from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { seal, unseal, writeWhole } from './keyFile.ts';

const ESCROW_FILE = 'recovery-escrow.json';
const RECOVERY_KEY_FOLDER_VARIABLE = 'LEDGERDESK_RECOVERY_KEY_FOLDER';
const RECOVERY_KEY_PREFIX = 'ledgerdesk-recovery-key-v1:';
const ESCROW_PURPOSE = 'ledgerdesk-recovery-escrow:v1:';

const escrowEntry = z.object({ ephemeral: z.string(), iv: z.string(), tag: z.string(), sealed: z.string() });
const escrowContent = z.object({
  format: z.literal('ledgerdesk-recovery-escrow'),
  version: z.literal(1),
  publicKey: z.string(),
  entries: z.record(z.string(), escrowEntry),
});
type EscrowContent = z.infer<typeof escrowContent>;

/** The recovery key cannot be used here: a clear sentence, nothing changed. */
export class RecoveryProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecoveryProblem';
  }
}

/**
 * A key the record needs is missing from the keychain (or key file), and the recovery key can
 * bring it back: nothing is reset in its place (a new key would drop what the old one sealed).
 */
export class KeyLostButRecoverable extends RecoveryProblem {
  constructor(account: string, dataFolder: string) {
    super(
      `The key ${account} of ${dataFolder} is missing from this machine's keychain (or key file), and nothing was reset: ` +
        'bring it back with `ledger record recover --recovery-key FILE` (the file written when the folder was first used).',
    );
    this.name = 'KeyLostButRecoverable';
  }
}

/** What a new recovery key's maker is told, to show once. */
export interface RecoveryKeyMade {
  file: string;
  key: string;
}

/** What Credentials needs of the escrow (credentials.ts). */
export interface KeyEscrow {
  readonly dataFolder: string;
  /** Seals `value` (base64 key) for `account` to the recovery key; makes the recovery key on first use. */
  keep(account: string, value: string): void;
  holds(account: string): boolean;
}

function escrowPurpose(account: string): string {
  return `${ESCROW_PURPOSE}${account}`;
}

function agreedKey(privateKey: KeyObject, publicKey: KeyObject, account: string): Buffer {
  const shared = diffieHellman({ privateKey, publicKey });
  return Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), escrowPurpose(account), 32));
}

function publicKeyOf(text: string): KeyObject {
  return createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
}

/** Where the recovery key file goes: the given folder or the home folder, never inside the data folder. */
function recoveryKeyFolder(dataFolder: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = resolve(env[RECOVERY_KEY_FOLDER_VARIABLE] ?? homedir());
  const inside = relative(resolve(dataFolder), chosen);
  return inside === '' || (!inside.startsWith('..') && !inside.startsWith('/')) ? dirname(resolve(dataFolder)) : chosen;
}

export class RecoveryEscrow implements KeyEscrow {
  readonly dataFolder: string;
  readonly #file: string;
  readonly #announce: (made: RecoveryKeyMade) => void;
  readonly #env: NodeJS.ProcessEnv;
  readonly #mayMake: boolean;

  /**
   * `announce` null: this entry point never makes the recovery key (a `ledger` command, whose
   * output scripts read); it seals to one the app made, and the app escrows what it finds.
   */
  constructor(
    dataFolder: string,
    announce: ((made: RecoveryKeyMade) => void) | null,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.dataFolder = dataFolder;
    this.#file = join(dataFolder, ESCROW_FILE);
    this.#announce = announce ?? (() => undefined);
    this.#mayMake = announce !== null;
    this.#env = env;
  }

  holds(account: string): boolean {
    return this.#read()?.entries[account] !== undefined;
  }

  keep(account: string, value: string): void {
    const content = this.#read() ?? (this.#mayMake ? this.#makeRecoveryKey() : null);
    if (content === null) return;
    const ephemeral = generateKeyPairSync('x25519');
    const key = agreedKey(ephemeral.privateKey, publicKeyOf(content.publicKey), account);
    const sealed = seal(key, Buffer.from(value, 'utf8'), escrowPurpose(account));
    const entries = {
      ...content.entries,
      [account]: {
        ephemeral: ephemeral.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
        ...sealed,
      },
    };
    writeWhole(this.#file, { ...content, entries });
  }

  #read(): EscrowContent | null {
    if (!existsSync(this.#file)) return null;
    return readEscrow(this.#file);
  }

  /** First use: the key pair; the private half to a file of its own outside the data folder, shown once. */
  #makeRecoveryKey(): EscrowContent {
    const pair = generateKeyPairSync('x25519');
    const key = `${RECOVERY_KEY_PREFIX}${pair.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url')}`;
    const folder = recoveryKeyFolder(this.dataFolder, this.#env);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    const file = join(folder, `ledgerdesk-recovery-key-${basename(this.dataFolder)}-${stamp}.txt`);
    writeFileSync(
      file,
      `Ledgerdesk recovery key of the data folder ${resolve(this.dataFolder)}\n` +
        `Made ${new Date().toISOString()}. Move this file offline (a USB stick in a safe, or print it and delete it):\n` +
        "whoever holds it can open the officer's record. `ledger record recover --recovery-key FILE` uses it.\n" +
        `${key}\n`,
      { flag: 'wx', mode: 0o600 },
    );
    const content: EscrowContent = {
      format: 'ledgerdesk-recovery-escrow',
      version: 1,
      publicKey: pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
      entries: {},
    };
    writeWhole(this.#file, content);
    this.#announce({ file, key });
    return content;
  }
}

function readEscrow(file: string): EscrowContent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new RecoveryProblem(`${file} cannot be read: the recovery escrow is damaged.`);
  }
  const checked = escrowContent.safeParse(parsed);
  if (!checked.success) throw new RecoveryProblem(`${file} is not a recovery escrow of this version.`);
  return checked.data;
}

/** The recovery key's public half of a data folder (SPKI, base64), or null when the folder has no recovery key yet. */
export function recoveryPublicKeyOf(dataFolder: string): string | null {
  const file = join(dataFolder, ESCROW_FILE);
  return existsSync(file) ? readEscrow(file).publicKey : null;
}

/** The recovery key a file holds (the line starting with its prefix). */
export function readRecoveryKeyFile(file: string): KeyObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RecoveryProblem(
      `The recovery key file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'not readable'}).`,
    );
  }
  const line = text.split(/\r?\n/).find((each) => each.trim().startsWith(RECOVERY_KEY_PREFIX));
  if (line === undefined) throw new RecoveryProblem(`${file} holds no Ledgerdesk recovery key.`);
  try {
    return createPrivateKey({
      key: Buffer.from(line.trim().slice(RECOVERY_KEY_PREFIX.length), 'base64url'),
      format: 'der',
      type: 'pkcs8',
    });
  } catch {
    throw new RecoveryProblem(`The recovery key in ${file} is damaged.`);
  }
}

/** Every escrowed key of the data folder, opened with the recovery key; RecoveryProblem when it is not this folder's. */
export function openEscrow(dataFolder: string, recoveryKey: KeyObject): Map<string, string> {
  const file = join(dataFolder, ESCROW_FILE);
  if (!existsSync(file))
    throw new RecoveryProblem(`${dataFolder} has no recovery escrow (${ESCROW_FILE}): nothing to recover.`);
  const content = readEscrow(file);
  const own = createPublicKey(recoveryKey).export({ format: 'der', type: 'spki' }).toString('base64');
  if (own !== content.publicKey) {
    throw new RecoveryProblem(`That recovery key is not the one of ${dataFolder}: nothing was changed.`);
  }
  const keys = new Map<string, string>();
  for (const [account, entry] of Object.entries(content.entries)) {
    const key = agreedKey(recoveryKey, publicKeyOf(entry.ephemeral), account);
    const plain = unseal(key, entry, escrowPurpose(account));
    if (plain === null) throw new RecoveryProblem(`The escrowed key ${account} does not open: ${file} was altered.`);
    keys.set(account, plain.toString('utf8'));
  }
  return keys;
}
