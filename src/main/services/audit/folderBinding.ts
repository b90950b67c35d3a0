/**
 * Binding an opened audit log to its data folder's record in the keychain (folderLogs.ts): a
 * first open writes the record; an open that finds the file holding another log than the one
 * the keychain names writes that change as an entry of the new chain (anchored like any other)
 * and moves the earlier log, with its anchor, to the record's `earlier` list. Nothing is
 * repaired: verification keeps failing for the earlier log's entries.
 */
import type { Credentials } from '../credentials/credentials.ts';
import { parseAnchor } from './auditAnchor.ts';
import type { AuditLog } from './auditLog.ts';
import { folderRecordText, parseFolderRecord, type FolderRecord, type FolderRecordStore } from './folderLogs.ts';

/** What the cache's open knows about how it came to this cache id. */
export interface FolderOpen {
  store: FolderRecordStore;
  /** The file had lost its cache id and got back the keychain's (dataKey.ts). */
  restored: boolean;
  /** Where a damaged file was set aside, when one was (the new file is a new log). */
  setAsideAs: string | null;
}

const LOG_ITSELF = { profileId: '', profileName: '', target: 'audit-log', result: 'ok' } as const;

/** The action of the entry saying this file holds another log than the folder had. */
const LOG_REPLACED_ACTION = 'audit.log.replaced';

export async function bindToFolder(
  log: AuditLog,
  credentials: Credentials,
  cacheId: string,
  folder: FolderOpen,
  now: () => Date,
): Promise<string[]> {
  const messages: string[] = [];
  const record = parseFolderRecord(await folder.store.read());
  if (folder.restored) {
    log.record({
      ...LOG_ITSELF,
      action: 'audit.cache-id.restored',
      detail: `The cache file had lost its cache id; the keychain's record of this data folder gave it back (${cacheId}).`,
    });
    messages.push("The offline cache had lost its id; the keychain's record of this data folder gave it back.");
  }
  if (record === null) {
    await folder.store.write(folderRecordText({ cacheId, earlier: [] }));
    return messages;
  }
  if (record.cacheId === cacheId) return messages;
  const anchor = parseAnchor(await credentials.readAuditChainHead(record.cacheId));
  const reason =
    folder.setAsideAs === null
      ? `the file names cache ${cacheId} instead (the file was swapped or its cache id edited outside Ledgerdesk)`
      : `the damaged file was set aside as ${folder.setAsideAs} and a new one started`;
  const anchored =
    anchor === null
      ? 'with no anchored entries'
      : `anchored at ${String(anchor.entries)} entries up to #${String(anchor.id)}, head ${anchor.mac}`;
  log.record({
    ...LOG_ITSELF,
    action: LOG_REPLACED_ACTION,
    detail: `This data folder's audit log was cache ${record.cacheId} (${anchored}); ${reason}.`,
  });
  const next: FolderRecord = {
    cacheId,
    earlier: [...record.earlier, { cacheId: record.cacheId, anchor, replacedAt: now().toISOString(), reason }],
  };
  await folder.store.write(folderRecordText(next));
  if (anchor !== null && anchor.entries > 0) {
    messages.push(
      `The offline cache holds another audit log than this data folder had (its ${String(anchor.entries)} anchored entries are not in it); \`ledger audit verify\` reports them missing.`,
    );
  }
  return messages;
}
