/**
 * The canonical bytes of a team event, byte for byte what the server's team.canonical()
 * computes (teamSchemaSql.ts): a version tag, then each field length-prefixed (4-byte
 * big-endian length, then its bytes; NULL is 0xFFFFFFFF), in a fixed order. Length prefixes
 * mean no two different events encode alike, whatever their fields hold.
 *
 * Two encodings: the *event* (every column but the hashes: what the chain covers) and the
 * *intent* (what the officer decided, known before the server sees it: what they sign).
 */
import { createHash } from 'node:crypto';

const EVENT_TAG = Buffer.from('ledgerdesk-team-event-v1\n', 'utf8');
const INTENT_TAG = Buffer.from('ledgerdesk-team-intent-v1\n', 'utf8');

const HASH_BYTES = 32;
export const TEAM_GENESIS: Buffer = Buffer.alloc(HASH_BYTES);

export type Field = string | number | Uint8Array | null;

/**
 * One buffer, sized first and written in place: the encoding runs for every event a laptop
 * verifies (twice: the chain and the signature), and a Buffer per field cost more than the hash.
 */
function encode(tag: Buffer, fields: readonly Field[]): Buffer {
  let size = tag.length;
  for (const field of fields) {
    size += 4;
    if (field === null) continue;
    size +=
      typeof field === 'string'
        ? Buffer.byteLength(field, 'utf8')
        : typeof field === 'number'
          ? String(field).length
          : field.length;
  }
  const out = Buffer.allocUnsafe(size);
  let at = tag.copy(out, 0);
  for (const field of fields) {
    if (field === null) {
      at = out.writeUInt32BE(0xffffffff, at);
      continue;
    }
    if (typeof field === 'string' || typeof field === 'number') {
      const text = String(field);
      const length = Buffer.byteLength(text, 'utf8');
      at = out.writeUInt32BE(length, at);
      at += out.write(text, at, length, 'utf8');
    } else {
      at = out.writeUInt32BE(field.length, at);
      out.set(field, at);
      at += field.length;
    }
  }
  return out;
}

/** What an officer decides: signed with their Ed25519 key before it leaves the laptop. */
export interface TeamIntent {
  id: string;
  workspace: string;
  kind: string;
  ref: string;
  action: string;
  disposition: string | null;
  assignee: string | null;
  baseVersion: number | null;
  keyVersion: number | null;
  clientAt: string;
  sealed: Uint8Array | null;
}

export function intentBytes(intent: TeamIntent): Buffer {
  return encode(INTENT_TAG, [
    intent.id,
    intent.workspace,
    intent.kind,
    intent.ref,
    intent.action,
    intent.disposition,
    intent.assignee,
    intent.baseVersion,
    intent.keyVersion,
    intent.clientAt,
    intent.sealed,
  ]);
}

/** An event as the server recorded it (a row of team.events). */
export interface TeamEventRow extends TeamIntent {
  seq: number;
  officer: string;
  /** The server's clock, as UTC text with microseconds. */
  at: string;
  result: 'ok' | 'conflict' | 'refused';
  detail: string | null;
  newVersion: number | null;
  newState: string | null;
  signature: Uint8Array;
  prevHash: Uint8Array;
  hash: Uint8Array;
}

/**
 * The fields of an event in the order its canonical bytes encode them, each with its column
 * name in team.events (server) and team_events (laptop). One list for the signed/chained
 * encoding and for the laptop's insert, so the two cannot drift apart. Changing this order
 * changes every hash: the server's team.canonical() encodes the same order.
 */
export const EVENT_FIELDS = [
  ['workspace', 'workspace'],
  ['seq', 'seq'],
  ['id', 'event_id'],
  ['officer', 'officer'],
  ['at', 'at'],
  ['clientAt', 'client_at'],
  ['kind', 'kind'],
  ['ref', 'ref'],
  ['action', 'action'],
  ['disposition', 'disposition'],
  ['assignee', 'assignee'],
  ['baseVersion', 'base_version'],
  ['keyVersion', 'key_version'],
  ['result', 'result'],
  ['detail', 'detail'],
  ['newVersion', 'new_version'],
  ['newState', 'new_state'],
  ['sealed', 'sealed'],
  ['signature', 'signature'],
] as const satisfies readonly (readonly [keyof TeamEventRow, string])[];

/** An event's canonical fields, in EVENT_FIELDS order. */
export function eventFieldValues(event: Omit<TeamEventRow, 'prevHash' | 'hash'>): Field[] {
  return EVENT_FIELDS.map(([field]) => event[field]);
}

export function eventBytes(event: Omit<TeamEventRow, 'prevHash' | 'hash'>): Buffer {
  return encode(EVENT_TAG, eventFieldValues(event));
}

/**
 * Length-prefixed bytes under a tag of their own, for what else an officer's key signs (a join's
 * proof that it holds its invite, rules/memberTerms.ts): never one of the two tags above.
 */
export function taggedBytes(tag: string, fields: readonly Field[]): Buffer {
  if (tag === EVENT_TAG.toString('utf8') || tag === INTENT_TAG.toString('utf8'))
    throw new Error('That tag is the event or the intent encoding.');
  return encode(Buffer.from(tag, 'utf8'), fields);
}

/** sha256(previous hash || canonical event bytes). */
export function chainHash(previous: Uint8Array, event: Omit<TeamEventRow, 'prevHash' | 'hash'>): Buffer {
  return createHash('sha256').update(previous).update(eventBytes(event)).digest();
}
