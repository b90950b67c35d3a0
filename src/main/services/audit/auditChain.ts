/**
 * The audit log's hash chain: each entry's MAC is HMAC-SHA256(key, previous MAC || the entry's
 * canonical bytes), the first entry's "previous MAC" being 32 zero bytes. The key is a secret in
 * the keychain, so someone who can write the database file but not read the keychain cannot make
 * a MAC that verifies: an edited, deleted or moved entry breaks the chain at that point.
 *
 * The canonical bytes are a fixed, unambiguous encoding of every stored field (see
 * docs/decisions/16-audit-hash-chain.md): a version tag, then each field as a 4-byte big-endian
 * length and its UTF-8 bytes (a null field as the length 0xFFFFFFFF), in a fixed order, the id
 * first. Length prefixes
 * mean no two different entries encode to the same bytes, whatever characters the fields hold.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

const AUDIT_MAC_BYTES = 32;

/** The "previous MAC" of a chain's first entry. */
export const CHAIN_GENESIS: Buffer = Buffer.alloc(AUDIT_MAC_BYTES);

const VERSION_TAG = Buffer.from('ledgerdesk-audit-entry-v1\u0000', 'utf8');
/** Entries that name their actor: the same encoding with the actor as a ninth field. */
const VERSION_TAG_WITH_ACTOR = Buffer.from('ledgerdesk-audit-entry-v2\u0000', 'utf8');
const NULL_LENGTH = 0xffffffff;

/** The fields of an entry that its MAC covers: every column of the row but the MAC itself. */
export interface ChainedFields {
  id: number;
  /** Empty for the log's own entries (audit.chain.begin, audit.key.lost). */
  profileId: string;
  profileName: string;
  /** What was done, e.g. `document.create`, `webhook.update`, `profile.remove`. */
  action: string;
  /** What it was done to, e.g. `doc_123` or `cdpt_9/front`. */
  target: string;
  at: string;
  /** `ok`, `failed` or `refused`. */
  result: string;
  /** The error sentence when it failed or was refused. */
  detail: string | null;
  /**
   * Who acted (actor.ts): the app instance or the command line, the OS user and the reviewer.
   * Null (or absent) in entries written before actors were recorded.
   */
  actor?: string | null;
}

/** The audit_log columns that ChainedFields names, in its order (a SELECT list). */
export const CHAINED_COLUMNS =
  'id, profile_id AS profileId, profile_name AS profileName, action, target, at, result, detail, actor';

/** The entry's canonical bytes: the input of its MAC after the previous MAC. */
export function canonicalEntryBytes(entry: ChainedFields): Buffer {
  const fields = [
    String(entry.id),
    entry.profileId,
    entry.profileName,
    entry.action,
    entry.target,
    entry.at,
    entry.result,
    entry.detail,
  ];
  const actor = entry.actor ?? null;
  // An entry without an actor encodes as before (v1), so entries written earlier still verify.
  const tag = actor === null ? VERSION_TAG : VERSION_TAG_WITH_ACTOR;
  if (actor !== null) fields.push(actor);
  let size = tag.length;
  for (const field of fields) size += 4 + (field === null ? 0 : Buffer.byteLength(field, 'utf8'));
  const bytes = Buffer.allocUnsafe(size);
  let offset = tag.copy(bytes, 0);
  for (const field of fields) {
    if (field === null) {
      offset = bytes.writeUInt32BE(NULL_LENGTH, offset);
      continue;
    }
    const length = bytes.write(field, offset + 4, 'utf8');
    bytes.writeUInt32BE(length, offset);
    offset += 4 + length;
  }
  return bytes;
}

/**
 * canonicalEntryBytes for a long walk (`audit verify`): the same bytes, written in one pass into
 * one reused buffer (each field's UTF-8 written straight after room for its length, the length
 * filled in after), with no object, no byte-length pass and no allocation per entry. The view
 * returned is valid until the next call.
 */
export class CanonicalEncoder {
  #buffer = Buffer.allocUnsafe(64 * 1024);

  /** The entry's canonical bytes from its row values, in CHAINED_COLUMNS order. */
  encode(
    id: number,
    profileId: string,
    profileName: string,
    action: string,
    target: string,
    at: string,
    result: string,
    detail: string | null,
    actor: string | null,
  ): Buffer {
    // At most 3 bytes of UTF-8 per UTF-16 unit, 4 of length per field.
    const most =
      VERSION_TAG_WITH_ACTOR.length +
      9 * 4 +
      3 *
        (22 +
          profileId.length +
          profileName.length +
          action.length +
          target.length +
          at.length +
          result.length +
          (detail?.length ?? 0) +
          (actor?.length ?? 0));
    if (most > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(most * 2);
    const bytes = this.#buffer;
    let offset = (actor === null ? VERSION_TAG : VERSION_TAG_WITH_ACTOR).copy(bytes, 0);
    offset = this.#field(bytes, offset, String(id));
    offset = this.#field(bytes, offset, profileId);
    offset = this.#field(bytes, offset, profileName);
    offset = this.#field(bytes, offset, action);
    offset = this.#field(bytes, offset, target);
    offset = this.#field(bytes, offset, at);
    offset = this.#field(bytes, offset, result);
    offset = this.#field(bytes, offset, detail);
    if (actor !== null) offset = this.#field(bytes, offset, actor);
    return bytes.subarray(0, offset);
  }

  #field(bytes: Buffer, offset: number, field: string | null): number {
    if (field === null) return bytes.writeUInt32BE(NULL_LENGTH, offset);
    const length = field.length === 0 ? 0 : bytes.write(field, offset + 4, 'utf8');
    bytes.writeUInt32BE(length, offset);
    return offset + 4 + length;
  }
}

/** The chain's key as a KeyObject: it is never turned back into bytes outside node:crypto. */
export function chainKeyOf(key: Buffer): KeyObject {
  if (key.length !== AUDIT_MAC_BYTES) throw new Error('The audit chain key must be 32 bytes.');
  return createSecretKey(key);
}

/** HMAC-SHA256(key, previous || canonical bytes). */
export function entryMac(key: KeyObject, previous: Uint8Array, canonical: Uint8Array): Buffer {
  return createHmac('sha256', key).update(previous).update(canonical).digest();
}

/** How a MAC is shown (the chain head in the CLI, Settings and the review report). */
export function macText(mac: Uint8Array): string {
  return Buffer.from(mac.buffer, mac.byteOffset, mac.byteLength).toString('hex');
}
