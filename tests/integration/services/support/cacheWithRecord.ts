/**
 * The cache opened as the app opens it since the record cut-over (issue 34): the officer's record
 * opened first and attached, so the audit log and the reviews are where the app keeps them.
 * Closing the cache closes the record too.
 */
import { OfflineCache } from '../../../../src/main/services/cache/offlineCache.ts';
import type { Credentials } from '../../../../src/main/services/credentials/credentials.ts';
import { RecordStore } from '../../../../src/main/services/record/recordStore.ts';

export async function openCacheWithRecord(folder: string, credentials: Credentials): Promise<OfflineCache> {
  const record = await RecordStore.open({ folder, credentials });
  const cache = await OfflineCache.open({ folder, credentials, writer: 'inline', record });
  const close = cache.close.bind(cache);
  cache.close = async () => {
    await close();
    record.close();
  };
  return cache;
}
