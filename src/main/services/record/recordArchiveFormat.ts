/**
 * The record archive's layout (docs/decisions/34-record-archive-format.md): one UTF-8 file of
 * JSON lines, so it can be read with any tool and checked on any machine without Ledgerdesk's
 * keychain. Every line but the last is `{"h":"<64 hex>","e":<entry>}`, where `h` chains the
 * entry's exact bytes to the line before it:
 *
 *     h(1) = SHA-256(GENESIS || bytes of entry 1),  h(k) = SHA-256(h(k-1) || bytes of entry k)
 *
 * (GENESIS = SHA-256 of the format's name). A changed byte in a line breaks that line's hash, so
 * the first damaged line is named; whoever rewrites every hash after it still cannot make the
 * last line, the manifest, whose Ed25519 signature covers the last hash and the number of lines.
 * The first line is the header (what the archive holds, its signing key, the sealed archive key).
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { fingerprint } from '../team/crypto/officerKeys.ts';

export const ARCHIVE_FORMAT = 'ledgerdesk-record-archive';
export const ARCHIVE_VERSION = 1;

const GENESIS = createHash('sha256')
  .update(`${ARCHIVE_FORMAT}-v${String(ARCHIVE_VERSION)}`, 'utf8')
  .digest();
const LINE_START = '{"h":"';
const LINE_MIDDLE = '","e":';
const LINE_END = '}';
const HASH_HEX = 64;
/** Where an entry's bytes start in its line. */
const ENTRY_OFFSET = LINE_START.length + HASH_HEX + LINE_MIDDLE.length;
const SIGNED_PURPOSE = `${ARCHIVE_FORMAT}-v${String(ARCHIVE_VERSION)} manifest\u0000`;
/** PKCS#8 of an Ed25519 private key is this prefix and the 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The hash that starts the chain. */
export function chainStart(): Buffer {
  return Buffer.from(GENESIS);
}

/** The chained hash of an entry's bytes after `previous`. */
export function chainNext(previous: Uint8Array, entry: Uint8Array): Buffer {
  return createHash('sha256').update(previous).update(entry).digest();
}

/** One line of the archive, without its newline: the entry's JSON and its chained hash. */
export function archiveLine(hash: Uint8Array, entryJson: string): string {
  return `${LINE_START}${Buffer.from(hash).toString('hex')}${LINE_MIDDLE}${entryJson}${LINE_END}`;
}

/** A line split into its hash and entry bytes; null when it is not laid out as an archive line. */
export function splitLine(line: Buffer): { hash: string; entry: Buffer } | null {
  if (line.length < ENTRY_OFFSET + 2 || line[line.length - 1] !== LINE_END.charCodeAt(0)) return null;
  if (line.toString('latin1', 0, LINE_START.length) !== LINE_START) return null;
  if (line.toString('latin1', LINE_START.length + HASH_HEX, ENTRY_OFFSET) !== LINE_MIDDLE) return null;
  const hash = line.toString('latin1', LINE_START.length, LINE_START.length + HASH_HEX);
  return { hash, entry: line.subarray(ENTRY_OFFSET, line.length - 1) };
}

/** The manifest, the archive's last line. */
export interface ArchiveManifest {
  /** Lines before the manifest. */
  lines: number;
  /** The last line's hash (hex). */
  head: string;
  /** Ed25519 over the purpose, the head and the number of lines (base64). */
  signature: string;
}

function signedBytes(head: string, lines: number): Buffer {
  return Buffer.from(`${SIGNED_PURPOSE}${head}\u0000${String(lines)}`, 'utf8');
}

export function manifestLine(signingKey: KeyObject, head: Uint8Array, lines: number): string {
  const headHex = Buffer.from(head).toString('hex');
  const signature = sign(null, signedBytes(headHex, lines), signingKey).toString('base64');
  const manifest: ArchiveManifest = { lines, head: headHex, signature };
  return JSON.stringify({ manifest });
}

export function signatureHolds(publicKey: KeyObject, manifest: ArchiveManifest): boolean {
  const signature = Buffer.from(manifest.signature, 'base64');
  if (signature.length !== 64) return false;
  return verify(null, signedBytes(manifest.head, manifest.lines), publicKey, signature);
}

/** The record's signing key from its 32-byte seed (kept in the keychain like the record's key). */
export function signingKeyOfSeed(seed: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The public half as the archive carries it: SPKI DER in base64. */
export function publicKeyText(key: KeyObject): string {
  return (key.type === 'public' ? key : createPublicKey(key))
    .export({ format: 'der', type: 'spki' })
    .toString('base64');
}

export function publicKeyOfText(text: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
  return key;
}

/** The key as people compare it (Settings → Record and `audit verify --archive`): as team keys are shown. */
export function signingFingerprint(key: KeyObject): string {
  const publicKey = key.type === 'public' ? key : createPublicKey(key);
  const raw = publicKey.export({ format: 'jwk' }).x ?? '';
  return fingerprint(Buffer.from(raw, 'base64url'));
}
