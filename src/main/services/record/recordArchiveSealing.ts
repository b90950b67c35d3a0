/**
 * The sealed part of a record archive: a fresh 32-byte archive key per archive seals the notes,
 * the records as reviewed and the keys an import needs (the audit chain's key, the cache's
 * identity keys). The archive key itself travels in the header twice wrapped:
 *
 * - to the data folder's recovery key (X25519 with an ephemeral key, HKDF-SHA256, AES-256-GCM,
 *   as the recovery escrow seals the record's keys), so the recovery key file opens it;
 * - optionally under an archive passphrase (scrypt at OWASP's cost, N = 2^17, r = 8, p = 1, as
 *   the key file), for an auditor who is given the passphrase and not the recovery key.
 *
 * Each wrap names the archive's id as associated data, so a wrap copied into another archive does
 * not open there.
 */
import {
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  scryptSync,
  type KeyObject,
} from 'node:crypto';
import { seal, unseal, type SealedValue } from '../credentials/keyFile.ts';

const RECOVERY_PURPOSE = 'ledgerdesk-record-archive:recovery-wrap:v1:';
const PASSPHRASE_PURPOSE = 'ledgerdesk-record-archive:passphrase-wrap:v1:';
const KEYS_PURPOSE = 'ledgerdesk-record-archive:keys:v1:';
/** OWASP Password Storage Cheat Sheet, scrypt: N = 2^17 (128 MiB), r = 8, p = 1. */
const SCRYPT_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
/** The least an archive may ask for: one edited to a cheaper derivation is refused. */
const LEAST_SCRYPT_N = 2 ** 14;
const LEAST_PASSPHRASE_CHARACTERS = 12;

interface RecoveryWrap extends SealedValue {
  /** The ephemeral X25519 public key (SPKI, base64). */
  ephemeral: string;
}

interface PassphraseWrap extends SealedValue {
  /** Read from a file: any name may stand there, and only scrypt is taken. */
  kdf: { name: string; N: number; r: number; p: number; salt: string };
}

export interface KeyWraps {
  recovery: RecoveryWrap | null;
  passphrase: PassphraseWrap | null;
}

/** What opens the sealed part: the recovery key, or the archive's passphrase. */
export interface ArchiveOpener {
  recoveryKey?: KeyObject;
  passphrase?: string;
}

/** The sealed part cannot be opened with what was given: one sentence, nothing changed. */
export class ArchiveKeyProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveKeyProblem';
  }
}

/** The keys an import needs, sealed in the archive. */
export interface ArchiveKeys {
  /** The audit log's chain key (base64), or null when the record had none to give. */
  auditChainKey: string | null;
  /** The cache identity keys the record keeps (record/cacheIdentity.ts), or null. */
  cacheIdentity: { hashKey: string; digestPrefix: string } | null;
}

function recoveryKeyOf(shared: Buffer, archiveId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), `${RECOVERY_PURPOSE}${archiveId}`, 32));
}

function passphraseKeyOf(passphrase: string, kdf: PassphraseWrap['kdf']): Buffer {
  return scryptSync(passphrase.normalize('NFC'), Buffer.from(kdf.salt, 'base64'), 32, {
    N: kdf.N,
    r: kdf.r,
    p: kdf.p,
    maxmem: 256 * kdf.N * kdf.r,
  });
}

/** Wraps a new archive's key: to the recovery public key (SPKI base64) and/or under a passphrase. */
export function wrapArchiveKey(
  archiveKey: Buffer,
  archiveId: string,
  recoveryPublicKey: string | null,
  passphrase: string | null,
): KeyWraps {
  let recovery: RecoveryWrap | null = null;
  if (recoveryPublicKey !== null) {
    const ephemeral = generateKeyPairSync('x25519');
    const publicKey = createPublicKey({ key: Buffer.from(recoveryPublicKey, 'base64'), format: 'der', type: 'spki' });
    const key = recoveryKeyOf(diffieHellman({ privateKey: ephemeral.privateKey, publicKey }), archiveId);
    recovery = {
      ephemeral: ephemeral.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
      ...seal(key, archiveKey, `${RECOVERY_PURPOSE}${archiveId}`),
    };
  }
  let wrappedUnderPassphrase: PassphraseWrap | null = null;
  if (passphrase !== null) {
    if ([...new Intl.Segmenter().segment(passphrase)].length < LEAST_PASSPHRASE_CHARACTERS) {
      throw new ArchiveKeyProblem(
        `That archive passphrase is too short to protect an archive anyone holding it can try offline: it needs at least ${String(LEAST_PASSPHRASE_CHARACTERS)} characters. Nothing was written.`,
      );
    }
    const kdf = { name: 'scrypt' as const, ...SCRYPT_COST, salt: randomBytes(16).toString('base64') };
    wrappedUnderPassphrase = {
      kdf,
      ...seal(passphraseKeyOf(passphrase, kdf), archiveKey, `${PASSPHRASE_PURPOSE}${archiveId}`),
    };
  }
  return { recovery, passphrase: wrappedUnderPassphrase };
}

/** The archive key, opened with the recovery key or the passphrase; ArchiveKeyProblem otherwise. */
export function openArchiveKey(wraps: KeyWraps, archiveId: string, opener: ArchiveOpener): Buffer {
  if (opener.recoveryKey !== undefined) {
    if (wraps.recovery === null) {
      throw new ArchiveKeyProblem(
        'This archive was made without a recovery key: its sealed notes open only with its archive passphrase (--passphrase-file). Nothing was changed.',
      );
    }
    let opened: Buffer | null;
    try {
      const publicKey = createPublicKey({
        key: Buffer.from(wraps.recovery.ephemeral, 'base64'),
        format: 'der',
        type: 'spki',
      });
      const key = recoveryKeyOf(diffieHellman({ privateKey: opener.recoveryKey, publicKey }), archiveId);
      opened = unseal(key, wraps.recovery, `${RECOVERY_PURPOSE}${archiveId}`);
    } catch {
      opened = null;
    }
    if (opened === null || opened.length !== 32) {
      throw new ArchiveKeyProblem(
        "That recovery key does not open this archive's sealed notes: it is another data folder's. Nothing was changed.",
      );
    }
    return opened;
  }
  if (opener.passphrase !== undefined) {
    const wrap = wraps.passphrase;
    if (wrap === null) {
      throw new ArchiveKeyProblem(
        "This archive was made without an archive passphrase: its sealed notes open only with the data folder's recovery key (--recovery-key FILE). Nothing was changed.",
      );
    }
    if (wrap.kdf.name !== 'scrypt' || wrap.kdf.N < LEAST_SCRYPT_N || wrap.kdf.r < 8 || wrap.kdf.p < 1) {
      throw new ArchiveKeyProblem(
        "This archive's passphrase wrap asks for a weaker derivation than Ledgerdesk makes: it was altered. Nothing was changed.",
      );
    }
    const opened = unseal(passphraseKeyOf(opener.passphrase, wrap.kdf), wrap, `${PASSPHRASE_PURPOSE}${archiveId}`);
    if (opened === null || opened.length !== 32) {
      throw new ArchiveKeyProblem(
        "That passphrase does not open this archive's sealed notes: nothing was changed. Try again with the passphrase it was exported with.",
      );
    }
    return opened;
  }
  throw new ArchiveKeyProblem(
    "The archive's sealed notes need the data folder's recovery key (--recovery-key FILE) or the archive's passphrase (--passphrase-file FILE). Nothing was changed.",
  );
}

export function sealArchiveKeys(archiveKey: Buffer, archiveId: string, keys: ArchiveKeys): SealedValue {
  return seal(archiveKey, Buffer.from(JSON.stringify(keys), 'utf8'), `${KEYS_PURPOSE}${archiveId}`);
}

/** The keys, or null when the sealed value does not open under this archive key (altered). */
export function openArchiveKeys(archiveKey: Buffer, archiveId: string, sealed: SealedValue): ArchiveKeys | null {
  const plain = unseal(archiveKey, sealed, `${KEYS_PURPOSE}${archiveId}`);
  if (plain === null) return null;
  return JSON.parse(plain.toString('utf8')) as ArchiveKeys;
}
