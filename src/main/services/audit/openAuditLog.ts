/**
 * Opening the audit log: its chain key comes from the keychain (one per cache file, named by
 * the cache id, like the data key). Three cases need care, and none uses a fallback key:
 *
 * - First open after the upgrade: the entries written before have no MAC. The key is made and
 *   they are chained, in one transaction, followed by an entry saying so (what was changed in
 *   them before this moment cannot be detected).
 * - The key is gone from the keychain while chained entries exist: they can never be verified
 *   again. A new key is made and an `audit.key.lost` entry starts a new chain; verify keeps
 *   reporting the entries before it as unverifiable, and the open says so.
 * - Entries without a MAC after the log was chained (the key and the keychain's anchor are
 *   there): evidence of tampering. They are left as they are, and verify names them.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { Credentials } from '../credentials/credentials.ts';
import { AnchorKeeper } from './auditAnchor.ts';
import { chainKeyOf } from './auditChain.ts';
import { AuditLog } from './auditLog.ts';
import { KEY_LOST_ACTION } from './auditVerify.ts';
import { bindToFolder, type FolderOpen } from './folderBinding.ts';
import { parseFolderRecord } from './folderLogs.ts';

/** The profile fields of the log's own entries (they belong to no profile). */
const LOG_ITSELF = { profileId: '', profileName: '' } as const;

export interface OpenedAuditLog {
  log: AuditLog;
  /** Sentences for the user when the key was lost; empty otherwise. */
  messages: string[];
}

function count(database: DatabaseSync, where: string): number {
  return (database.prepare(`SELECT count(*) AS n FROM audit_log WHERE ${where}`).get() as { n: number }).n;
}

export async function openAuditLog(
  database: DatabaseSync,
  credentials: Credentials,
  cacheId: string,
  now: () => Date = () => new Date(),
  /** The data folder's record in the keychain (folderLogs.ts); without it only the cache id's anchor is checked. */
  folder: FolderOpen | null = null,
  /**
   * The log's file is open read-only (a schema this build does not know): it is read and
   * verified as it is; nothing is chained, bound or anchored, and no key is made.
   */
  readOnly = false,
): Promise<OpenedAuditLog> {
  const anchor = new AnchorKeeper(database, {
    read: () => credentials.readAuditChainHead(cacheId),
    write: (text) => credentials.writeAuditChainHead(cacheId, text),
  });
  let key = await credentials.readAuditChainKey(cacheId);
  if (readOnly) {
    // Without its key the log still lists; verify then reports every entry as unverifiable.
    const log = new AuditLog(database, chainKeyOf(key ?? randomBytes(32)), anchor, now, null);
    return { log, messages: [] };
  }
  const created = key === null;
  key ??= await credentials.createAuditChainKey(cacheId);
  const folderView =
    folder === null ? null : { cacheId, read: async () => parseFolderRecord(await folder.store.read()) };
  const log = new AuditLog(database, chainKeyOf(key), anchor, now, folderView);
  const messages: string[] = [];
  // Only a new key or a missing anchor can mean "not chained yet"; otherwise skip the scans.
  if (created || (await anchor.read()) === null) {
    const chained = count(database, 'mac IS NOT NULL');
    if (created && chained > 0) {
      const entries = count(database, '1');
      log.restartChain({
        ...LOG_ITSELF,
        action: KEY_LOST_ACTION,
        target: 'audit-log',
        result: 'ok',
        detail: `The audit log's key was not in the keychain; the ${String(entries)} entries before this one can no longer be verified. A new key chains the entries from here.`,
      });
      messages.push(
        `The audit log's key is no longer in the keychain, so its ${String(entries)} earlier entries can no longer be verified; a new key protects the entries from now on.`,
      );
    } else if (chained === 0) {
      const chainedNow = log.chainUnchainedEntries();
      if (chainedNow > 0) {
        log.record({
          ...LOG_ITSELF,
          action: 'audit.chain.begin',
          target: 'audit-log',
          result: 'ok',
          detail: `${String(chainedNow)} entries written before the log was chained were chained now; a change made to them before this moment cannot be detected.`,
        });
      }
    }
  }
  if (folder !== null) messages.push(...(await bindToFolder(log, credentials, cacheId, folder, now)));
  anchor.follow();
  await anchor.settled();
  return { log, messages };
}
