/**
 * Sealing records at rest: AES-256-GCM, a fresh random 96-bit IV for every write, and the
 * row's identity as associated data, so a sealed body moved to another row does not open.
 * Layout: version (1 byte) | IV (12) | tag (16) | ciphertext.
 *
 * From the data key (32 random bytes in the keychain) HKDF derives separate keys: one seals,
 * one makes keyed hashes (search tokens, change digests), one makes record digests (the row
 * keys of pending transactions). The last two may come from the officer's record instead, so
 * they outlive the data key (record/cacheIdentity.ts). Nothing is derived from a constant:
 * without the keychain's keys no body opens and no hash can be recomputed.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hash,
  hkdfSync,
  randomFillSync,
  type DecipherGCM,
  type KeyObject,
} from 'node:crypto';

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;
const IV_POOL_SIZE = 1024;

export class SealBroken extends Error {
  constructor(identity: string) {
    super(`A cached record (${identity}) does not open with the cache's data key.`);
    this.name = 'SealBroken';
  }
}

/** The keys of the keyed hashes (HMAC) and of the record digests (a secret prefix, hex). */
export interface IdentityKeys {
  hashKey: Buffer;
  digestPrefix: string;
}

export class RecordSealer {
  // KeyObjects, not Buffers: OpenSSL 3 imports a raw key on every cipher made from a Buffer,
  // which costs ~7x the whole seal of a small record.
  readonly #sealingKey: KeyObject;
  readonly #hashKey: KeyObject;
  /** The secret prefix of record digests (hex of its own derived key). */
  readonly #digestPrefix: string;
  /** The secret prefix of row MACs (rowMacs.ts), a key of its own. */
  readonly #rowMacPrefix: string;

  /**
   * `identity`: the keys of the keyed hashes and record digests to use instead of those derived
   * from this data key (record/cacheIdentity.ts): kept in the officer's record, they outlive the
   * data key, so the row keys and digests the reviews refer to stay the same across a key reset.
   */
  constructor(dataKey: Buffer, cacheId: string, identity?: IdentityKeys) {
    if (dataKey.length !== 32) throw new Error('The cache data key must be 32 bytes.');
    this.#sealingKey = createSecretKey(
      Buffer.from(hkdfSync('sha256', dataKey, cacheId, 'ledgerdesk cache: sealing v1', 32)),
    );
    this.#hashKey = createSecretKey(
      identity?.hashKey ?? Buffer.from(hkdfSync('sha256', dataKey, cacheId, 'ledgerdesk cache: keyed hashes v1', 32)),
    );
    this.#digestPrefix =
      identity?.digestPrefix ??
      Buffer.from(hkdfSync('sha256', dataKey, cacheId, 'ledgerdesk cache: record digests v1', 32)).toString('hex');
    this.#rowMacPrefix = Buffer.from(
      hkdfSync('sha256', dataKey, cacheId, 'ledgerdesk cache: row macs v1', 32),
    ).toString('hex');
  }

  /** The keys the row keys and keyed digests are made with, to keep them in the record. */
  get identityKeys(): IdentityKeys {
    return { hashKey: this.#hashKey.export(), digestPrefix: this.#digestPrefix };
  }

  seal(plaintext: string | Buffer, identity: string): Buffer {
    return sealWith(this.#sealingKey, plaintext, identity);
  }

  /**
   * The sealing key, for the cache writer's thread (same process), so it can seal the rows of
   * a write plan there and share the CPU work with this thread. Never leaves the process.
   */
  get sealingKey(): KeyObject {
    return this.#sealingKey;
  }

  open(sealed: Uint8Array, identity: string): Buffer {
    return this.#opened(sealed, identity, (decipher, body) => Buffer.concat([decipher.update(body), decipher.final()]));
  }

  sealJson(value: unknown, identity: string): Buffer {
    return this.seal(JSON.stringify(value), identity);
  }

  openJson(sealed: Uint8Array, identity: string): unknown {
    return JSON.parse(this.#openText(sealed, identity)) as unknown;
  }

  /** open() straight to text: no intermediate buffers (a page read opens 100 of these). */
  #openText(sealed: Uint8Array, identity: string): string {
    // final() checks the tag: nothing is returned unless the record is authentic.
    return this.#opened(
      sealed,
      identity,
      (decipher, body) => decipher.update(body, undefined, 'utf8') + decipher.final('utf8'),
    );
  }

  /**
   * Checks the format, sets up the decipher with the IV, the identity as associated data and
   * the tag, and lets `read` take the plaintext; anything wrong is SealBroken, never a detail.
   */
  #opened<Plain>(sealed: Uint8Array, identity: string, read: (decipher: DecipherGCM, body: Buffer) => Plain): Plain {
    const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
    if (bytes.length < HEADER_BYTES || bytes[0] !== FORMAT_VERSION) throw new SealBroken(identity);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#sealingKey, bytes.subarray(1, 1 + IV_BYTES));
      decipher.setAAD(Buffer.from(identity, 'utf8'));
      decipher.setAuthTag(bytes.subarray(1 + IV_BYTES, HEADER_BYTES));
      return read(decipher, bytes.subarray(HEADER_BYTES));
    } catch {
      throw new SealBroken(identity);
    }
  }

  /**
   * A keyed digest of a whole record, 132 bits in base64url (22 characters): the row key of
   * a record that has no id. It runs once per record of a bulk sync, on the thread that bounds
   * the sync's speed, so it is one native call (SHA-256 over a secret prefix and the text,
   * ~0.9 µs for a 700-byte record with the CPU's SHA extensions) where an HMAC costs three
   * round trips through Node's crypto objects (~3.6 µs) and SHA-512/256 ~1.6 µs. The
   * secret-prefix construction is sound because only 132 of the 256 bits are kept: extending a
   * digest to that of a longer text needs the whole internal state, and 124 bits of it are
   * never shown (the length-extension flaw concerns untruncated SHA-256 outputs).
   */
  recordDigest(text: string): string {
    return hash('sha256', this.#digestPrefix + text, 'base64url').slice(0, 22);
  }

  /**
   * A row's MAC (rowMacs.ts): the same construction as recordDigest (secret prefix, SHA-256,
   * 132 bits kept) under its own derived key. One native call, so authenticating the clear
   * columns of a page of rows costs about a microsecond a row.
   */
  rowMac(canonical: string): string {
    return hash('sha256', this.#rowMacPrefix + canonical, 'base64url').slice(0, 22);
  }

  /** A keyed hash (HMAC-SHA-256), base64url, truncated to `bytes`. */
  keyedHash(text: string, bytes = 16): string {
    return createHmac('sha256', this.#hashKey).update(text, 'utf8').digest().subarray(0, bytes).toString('base64url');
  }
}

/** IVs are drawn from the CSPRNG in batches: one system call per 1,024 writes, each IV used once. */
let ivPool = Buffer.alloc(0);
let ivOffset = 0;

function nextIv(): Buffer {
  if (ivOffset + IV_BYTES > ivPool.length) {
    ivPool = randomFillSync(Buffer.allocUnsafe(IV_BYTES * IV_POOL_SIZE));
    ivOffset = 0;
  }
  const iv = ivPool.subarray(ivOffset, ivOffset + IV_BYTES);
  ivOffset += IV_BYTES;
  return iv;
}

/** Seals with a fresh IV under `key` (the sealing key of a RecordSealer), the identity as associated data. */
export function sealWith(key: KeyObject, plaintext: string | Buffer, identity: string): Buffer {
  const iv = nextIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(identity, 'utf8'));
  const body = cipher.update(plaintext);
  cipher.final(); // GCM is a stream mode: all the ciphertext came from update()
  const sealed = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  sealed[0] = FORMAT_VERSION;
  iv.copy(sealed, 1);
  cipher.getAuthTag().copy(sealed, 1 + IV_BYTES);
  body.copy(sealed, HEADER_BYTES);
  return sealed;
}
