/**
 * The cache's identity keys kept in the officer's record (issue 34). A review names its pending
 * transaction by the row key the cache made for it (a record digest) and knows "changed since
 * review" by keyed digests of the record: both are made with keys that, before this, were derived
 * from the cache's data key, so a lost or changed data key (or a deleted cache file) left every
 * review pointing at row keys no sync would make again — kept, but detached from its item.
 *
 * So those two keys (the keyed hashes' and the record digests' prefix, RecordSealer.identityKeys)
 * are sealed into record_meta under the record's own key the first time the record is attached,
 * and every later cache is made with them whatever its data key: the sealing key still comes from
 * the data key, so a new data key still opens nothing of the old one's. The keys are copied as
 * they are, not re-made, so the row keys of a folder that already has reviews do not change.
 */
import { SealBroken, type IdentityKeys, type RecordSealer } from '../cache/sealing.ts';
import { RecordError } from './recordError.ts';
import type { RecordStore } from './recordStore.ts';

const IDENTITY_META = 'cache_identity';
/** The seal's associated data: the sealed keys open only as this row of record_meta. */
const SEAL_IDENTITY = 'record_meta\u0000cache_identity';

interface SealedKeys {
  hashKey: string;
  digestPrefix: string;
}

/** The identity keys the record keeps, or null: none yet, no record, or a locked one (unreadable). */
export function keptCacheIdentity(record: RecordStore | null): IdentityKeys | null {
  if (record === null || record.state === 'locked') return null;
  const value = record.meta(IDENTITY_META);
  if (value === null) return null;
  try {
    const keys = record.sealer.openJson(Buffer.from(value, 'base64'), SEAL_IDENTITY) as SealedKeys;
    return { hashKey: Buffer.from(keys.hashKey, 'base64'), digestPrefix: keys.digestPrefix };
  } catch (error) {
    if (!(error instanceof SealBroken)) throw error;
    throw new RecordError(
      'unreadable',
      `The officer's record (${record.file}) holds cache keys that do not open with its key: it was changed outside Ledgerdesk. Nothing was changed; restore record.sqlite from a trusted copy.`,
    );
  }
}

/** Keeps `sealer`'s identity keys in the record, once; a record that cannot be written keeps none. */
export function keepCacheIdentity(record: RecordStore, sealer: RecordSealer): void {
  if (record.state !== 'open' || record.meta(IDENTITY_META) !== null) return;
  const keys = sealer.identityKeys;
  const sealed: SealedKeys = { hashKey: keys.hashKey.toString('base64'), digestPrefix: keys.digestPrefix };
  record.database
    .prepare('INSERT INTO record_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING')
    .run(IDENTITY_META, record.sealer.sealJson(sealed, SEAL_IDENTITY).toString('base64'));
}
