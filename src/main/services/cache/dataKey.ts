/**
 * The cache's data key: 32 random bytes in the keychain, one per cache file (named by the
 * file's random cache id). A sealed "key check" in the database tells whether the keychain's
 * key is the one that sealed the rows. When the key is lost (the keychain forgot it) or
 * changed, the sealed rows can never be opened again: they are dropped and re-synced, and a
 * new key is made. There is no fallback key.
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { Credentials } from '../credentials/credentials.ts';
import { SEALED_TABLES } from './cacheMigrations.ts';
import { CacheError } from './cacheError.ts';
import { RecordSealer, SealBroken, type IdentityKeys } from './sealing.ts';

export type DataKeyReset = 'data-key-lost' | 'data-key-changed';

const KEY_CHECK_TEXT = 'Ledgerdesk cache key check';
const KEY_CHECK_IDENTITY = 'cache_meta\u0000key_check';
/** What the identity check digests: it tells which identity keys the cached rows were made with. */
const IDENTITY_CHECK_TEXT = 'Ledgerdesk cache identity check';

/** A keyed digest under both identity keys (never the keys themselves). */
function identityCheckOf(sealer: RecordSealer): string {
  return `${sealer.recordDigest(IDENTITY_CHECK_TEXT)}.${sealer.keyedHash(IDENTITY_CHECK_TEXT)}`;
}

function metaOf(database: DatabaseSync, key: string): string | null {
  const row = database.prepare('SELECT value FROM cache_meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

function setMeta(database: DatabaseSync, key: string, value: string): void {
  database
    .prepare('INSERT INTO cache_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
    .run(key, value);
}

/**
 * Empties every sealed table of the cache file and the sync checkpoints (so everything re-syncs).
 * Only tables of `main`, named so: after the cut-over the record's tables are in the attached
 * record, under its own key, and nothing of the cache's key reaching them may empty them.
 */
export function dropSealedData(database: DatabaseSync, extraTables: readonly string[] = []): void {
  const present = new Set(
    (database.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (row) => row.name,
    ),
  );
  database.exec('BEGIN IMMEDIATE');
  try {
    for (const table of [...SEALED_TABLES, ...extraTables]) {
      if (present.has(table)) database.exec(`DELETE FROM main.${table}`);
    }
    database.exec('DELETE FROM main.sync_state');
    database.exec('COMMIT');
  } catch (error) {
    database.exec('ROLLBACK');
    throw error;
  }
}

export interface ResolvedDataKey {
  cacheId: string;
  sealer: RecordSealer;
  reset: DataKeyReset | null;
  /** The file had no cache id and got back the one the keychain names for its folder. */
  restored: boolean;
}

/**
 * `folderCacheId`: the cache id the keychain records for this data folder (audit/folderLogs.ts),
 * given back to a file that has lost its own; a new id is made only when the keychain has none.
 */
export async function resolveDataKey(
  database: DatabaseSync,
  credentials: Credentials,
  folderCacheId: string | null = null,
  /** Why the cache is read-only, or null: a read-only cache is never reset or re-keyed. */
  readOnly: string | null = null,
  /** The identity keys the officer's record keeps (record/cacheIdentity.ts), or null: derived. */
  identity: IdentityKeys | null = null,
): Promise<ResolvedDataKey> {
  if (readOnly !== null) return readOnlyDataKey(database, credentials, readOnly, identity);
  let cacheId = metaOf(database, 'cache_id');
  const restored = cacheId === null && folderCacheId !== null;
  if (cacheId === null) {
    cacheId = folderCacheId ?? randomUUID();
    setMeta(database, 'cache_id', cacheId);
  }
  const keyCheck = metaOf(database, 'key_check');
  let key = await credentials.readCacheDataKey(cacheId);
  let reset: DataKeyReset | null = null;
  if (key === null) {
    if (keyCheck !== null) reset = 'data-key-lost';
    key = await credentials.createCacheDataKey(cacheId);
  } else if (keyCheck !== null) {
    try {
      new RecordSealer(key, cacheId).open(Buffer.from(keyCheck, 'base64'), KEY_CHECK_IDENTITY);
    } catch (error) {
      if (!(error instanceof SealBroken)) throw error;
      reset = 'data-key-changed';
    }
  }
  const sealer = new RecordSealer(key, cacheId, identity ?? undefined);
  // Rows made under other identity keys (the record was locked when they were synced, or is
  // another record) have row keys no review refers to: dropped like a reset's, and synced again.
  const identityCheck = identityCheckOf(sealer);
  const madeUnder = metaOf(database, 'identity_check');
  if (reset !== null || keyCheck === null || (madeUnder !== null && madeUnder !== identityCheck)) {
    // A missing key check with rows present means rows of an unknown key: drop them too.
    dropSealedData(database);
    setMeta(database, 'key_check', sealer.seal(KEY_CHECK_TEXT, KEY_CHECK_IDENTITY).toString('base64'));
  }
  if (madeUnder !== identityCheck) setMeta(database, 'identity_check', identityCheck);
  return { cacheId, sealer, reset, restored };
}

/**
 * The key of a cache open read-only: the one its rows were sealed with, or a clear error. Nothing
 * is dropped, made or written: the file belongs to a build that knows its schema.
 */
async function readOnlyDataKey(
  database: DatabaseSync,
  credentials: Credentials,
  readOnly: string,
  identity: IdentityKeys | null,
): Promise<ResolvedDataKey> {
  const cacheId = metaOf(database, 'cache_id');
  const keyCheck = metaOf(database, 'key_check');
  const key = cacheId === null ? null : await credentials.readCacheDataKey(cacheId);
  if (cacheId === null || keyCheck === null || key === null) {
    throw new CacheError(
      'unreadable',
      `${readOnly} Its data key is not in the keychain either, so its sealed rows cannot be read.`,
    );
  }
  const sealer = new RecordSealer(key, cacheId, identity ?? undefined);
  try {
    sealer.open(Buffer.from(keyCheck, 'base64'), KEY_CHECK_IDENTITY);
  } catch (error) {
    if (!(error instanceof SealBroken)) throw error;
    throw new CacheError(
      'unreadable',
      `${readOnly} The data key in the keychain is not the one that sealed it, so its sealed rows cannot be read.`,
    );
  }
  return { cacheId, sealer, reset: null, restored: false };
}
