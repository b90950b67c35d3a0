/**
 * Which audit log a data folder has, kept in the keychain: the cache id of the folder's current
 * log, and every earlier log the folder had with the anchor it ended on. The anchor of one cache
 * id alone cannot tell that the whole file was swapped: someone who can write `cache.db` but not
 * the keychain could empty the log and change (or delete) `cache_meta.cache_id`, and the new id
 * has no anchor to contradict it. The folder's record can: the keychain decides which log this
 * folder has, so
 *
 * - a file that lost its cache id gets back the one the keychain names (and is then checked
 *   against that id's anchor, so an emptied log shows as deleted entries);
 * - a file that names another cache id than the keychain (swapped, re-keyed, or a damaged file
 *   set aside) opens, but the change is written as the first entry of its chain and the earlier
 *   log's anchor moves to the record's `earlier` list, from which `audit verify` reports the
 *   earlier log's entries as missing for as long as the keychain remembers them.
 *
 * The record is named by a hash of the folder's real path: the keychain is shared by every data
 * folder of the user (`ledger --data`, tests), and each folder has its own log.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseAnchor, type AuditAnchor } from './auditAnchor.ts';

/** A log this data folder had before its current one, as the keychain last saw it. */
export interface EarlierLog {
  cacheId: string;
  /** Where that log ended (null: it never had an anchored entry). */
  anchor: AuditAnchor | null;
  /** When Ledgerdesk found the folder's file holding another log. */
  replacedAt: string;
  /** Why: the file named another cache id, or a damaged file was set aside. */
  reason: string;
}

export interface FolderRecord {
  /** The cache id of the folder's current log. */
  cacheId: string;
  earlier: EarlierLog[];
}

/** Where the record is kept: the keychain in the app (Credentials), per data folder. */
export interface FolderRecordStore {
  read(): Promise<string | null>;
  write(text: string): Promise<void>;
}

/** How many earlier logs a record keeps (oldest dropped first; each is a line of evidence). */
const EARLIER_MAX = 50;

/** The name of a data folder in the keychain: a hash of its real path (no path in clear). */
export function folderKeyOf(folder: string): string {
  let path = resolve(folder);
  try {
    path = realpathSync(path);
  } catch {
    // Not created yet: its resolved path names it.
  }
  return createHash('sha256').update(`ledgerdesk data folder\u0000${path}`, 'utf8').digest('hex').slice(0, 32);
}

export function folderRecordText(record: FolderRecord): string {
  return JSON.stringify({ v: 1, cacheId: record.cacheId, earlier: record.earlier.slice(-EARLIER_MAX) });
}

/** The record in `text`; null when there is none. Text this version cannot read is an error (never "none"). */
export function parseFolderRecord(text: string | null): FolderRecord | null {
  if (text === null) return null;
  const unreadable = new Error("The keychain's record of this data folder's audit logs cannot be read.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unreadable;
  }
  if (typeof value !== 'object' || value === null) throw unreadable;
  const { v, cacheId, earlier } = value as Record<string, unknown>;
  if (v !== 1 || typeof cacheId !== 'string' || !Array.isArray(earlier)) throw unreadable;
  return {
    cacheId,
    earlier: earlier.map((item: unknown) => {
      const log = item as Record<string, unknown>;
      if (
        typeof log['cacheId'] !== 'string' ||
        typeof log['replacedAt'] !== 'string' ||
        typeof log['reason'] !== 'string'
      ) {
        throw unreadable;
      }
      return {
        cacheId: log['cacheId'],
        anchor: log['anchor'] === null ? null : parseAnchor(JSON.stringify({ v: 1, ...(log['anchor'] as object) })),
        replacedAt: log['replacedAt'],
        reason: log['reason'],
      };
    }),
  };
}

/** The earlier logs whose entries this file cannot show (they had anchored entries). */
export function missingEarlierLogs(record: FolderRecord): EarlierLog[] {
  return record.earlier.filter((log) => log.anchor !== null && log.anchor.entries > 0);
}

/** One sentence naming what is missing of an earlier log. */
export function earlierLogMissing(log: EarlierLog, currentCacheId: string): string {
  const anchor = log.anchor;
  const what =
    anchor === null
      ? 'its entries'
      : `its ${String(anchor.entries)} ${anchor.entries === 1 ? 'entry' : 'entries'} up to #${String(anchor.id)} (head ${anchor.mac})`;
  return (
    `The audit log does not verify: this data folder's earlier log (cache ${log.cacheId}) is not in this file, ` +
    `so ${what}, anchored in the keychain, cannot be shown. On ${log.replacedAt} the file held another log ` +
    `(cache ${currentCacheId}): ${log.reason}.`
  );
}
