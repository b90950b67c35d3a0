/**
 * The audit log read for `audit verify` in batches of flat arrays: each entry's canonical bytes
 * (auditChain.ts) one after the other in one buffer, its id, its MAC and whether it restarts the
 * chain, with no object per entry. The arrays own their memory, so a batch read on the cache
 * writer's thread (cacheWriterWorker.ts) moves to the main thread without a copy: one thread
 * reads and encodes the next batch while the other hashes this one (auditVerify.ts).
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { CanonicalEncoder, CHAINED_COLUMNS } from './auditChain.ts';

/** The action of the entry that starts a new chain after the chain key was lost. */
export const KEY_LOST_ACTION = 'audit.key.lost';

/** Entries a batch: small enough that the app's main thread answers other calls between batches. */
export const AUDIT_BATCH = 5_000;

export interface AuditBatch {
  count: number;
  ids: Float64Array;
  /** Entry i's canonical bytes are bytes[offsets[i], offsets[i + 1]). */
  offsets: Uint32Array;
  bytes: Uint8Array;
  /** Entry i's MAC is macs[macOffsets[i], macOffsets[i + 1]) when hasMac[i] is 1. */
  macOffsets: Uint32Array;
  macs: Uint8Array;
  hasMac: Uint8Array;
  /** 1 where the entry is an `audit.key.lost` (a chain restarted from the genesis). */
  keyLost: Uint8Array;
}

/** What a batch's arrays own: handed over, not copied, when it goes to another thread. */
export function transferListOf(batch: AuditBatch): ArrayBuffer[] {
  return [batch.ids, batch.offsets, batch.bytes, batch.macOffsets, batch.macs, batch.hasMac, batch.keyLost].map(
    (array) => array.buffer as ArrayBuffer,
  );
}

type Row = [
  id: number,
  profileId: string,
  profileName: string,
  action: string,
  target: string,
  at: string,
  result: string,
  detail: string | null,
  actor: string | null,
  mac: Uint8Array | null,
];

function grown(array: Uint8Array, needed: number): Uint8Array {
  if (needed <= array.length) return array;
  const bigger = new Uint8Array(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}

export class AuditBatchReader {
  readonly #statement: StatementSync;
  readonly #encoder = new CanonicalEncoder();
  readonly #limit: number;

  constructor(database: DatabaseSync, limit = AUDIT_BATCH) {
    this.#limit = limit;
    this.#statement = database.prepare(
      `SELECT ${CHAINED_COLUMNS}, mac FROM audit_log WHERE id > ? ORDER BY id LIMIT ${String(limit)}`,
    );
    this.#statement.setReturnArrays(true);
  }

  /** Whether a batch of `count` entries may have more behind it. */
  full(count: number): boolean {
    return count >= this.#limit;
  }

  /** The entries after id `after`, in id order, at most one batch. */
  read(after: number): AuditBatch {
    const rows = this.#statement.all(after) as unknown as Row[];
    const count = rows.length;
    const ids = new Float64Array(count);
    const offsets = new Uint32Array(count + 1);
    const macOffsets = new Uint32Array(count + 1);
    const hasMac = new Uint8Array(count);
    const keyLost = new Uint8Array(count);
    let bytes: Uint8Array = new Uint8Array(count * 192 + 1024);
    let macs: Uint8Array = new Uint8Array(count * 32);
    let used = 0;
    let macsUsed = 0;
    for (let index = 0; index < count; index += 1) {
      const row = rows[index] as Row;
      const canonical = this.#encoder.encode(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8]);
      bytes = grown(bytes, used + canonical.length);
      bytes.set(canonical, used);
      used += canonical.length;
      offsets[index + 1] = used;
      const mac = row[9];
      if (mac !== null) {
        macs = grown(macs, macsUsed + mac.length);
        macs.set(mac, macsUsed);
        macsUsed += mac.length;
        hasMac[index] = 1;
      }
      macOffsets[index + 1] = macsUsed;
      ids[index] = row[0];
      if (row[3] === KEY_LOST_ACTION) keyLost[index] = 1;
    }
    return { count, ids, offsets, bytes, macOffsets, macs, hasMac, keyLost };
  }
}
