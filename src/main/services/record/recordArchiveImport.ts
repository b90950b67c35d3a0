/**
 * `ledger record import FILE`: a record archive restored into an empty data folder. The archive
 * is verified first and its sealed part opened (the recovery key or the archive passphrase);
 * only then is anything written. The new record gets its own id and key (a record is never
 * given another record's key, so importing on the machine that exported changes nothing of the
 * original), its rows are written as the archive holds them and their sealed columns sealed
 * again under the new key (recordReseal.ts), all in one transaction. The audit log keeps its
 * entries and MACs byte for byte, under its own chain key, named afresh, with the anchor the
 * archive recorded, so `ledger audit verify` is ok on the new folder. A folder that holds
 * anything is refused: an import never overwrites.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { canonicalEntryBytes, CHAIN_GENESIS, chainKeyOf, entryMac } from '../audit/auditChain.ts';
import { RecordSealer } from '../cache/sealing.ts';
import { osUserName } from '../review/reviewer.ts';
import type { Credentials } from '../credentials/credentials.ts';
import type { ProfileStorage } from '../profiles/profileStorage.ts';
import { ARCHIVED_TABLES, valueOf, type ArchiveHeader, type ArchiveRow } from './recordArchiveEntries.ts';
import type { ArchiveOpener } from './recordArchiveSealing.ts';
import { verifyArchiveFile } from './recordArchiveVerify.ts';
import { RecordError } from './recordError.ts';
import { RECORD_FILE_NAME } from './recordFile.ts';
import { resealRecord } from './recordReseal.ts';
import { RecordStore } from './recordStore.ts';

/** What may be in a folder an import still calls empty: the lock this very command holds. */
const ALLOWED_IN_EMPTY = new Set(['writer.lock']);
/** As record/cacheIdentity.ts seals them. */
const IDENTITY_META = 'cache_identity';
const IDENTITY_SEAL = 'record_meta\u0000cache_identity';
const COPIED_MARK = 'copied_from_cache';

export interface ArchiveImportOptions {
  file: string;
  dataFolder: string;
  credentials: Credentials;
  profileStorage: ProfileStorage;
  opener: ArchiveOpener;
  now?: () => Date;
}

export interface ArchiveImported {
  recordId: string;
  counts: { reviews: number; steps: number; rows: number; auditEntries: number };
  profiles: string[];
  fingerprint: string | null;
}

function folderContents(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => !ALLOWED_IN_EMPTY.has(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function insertRow(database: DatabaseSync, table: string, row: ArchiveRow): void {
  const columns = Object.keys(row);
  database
    .prepare(
      `INSERT INTO ${table} (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    )
    .run(...columns.map((column) => valueOf(row[column])));
}

/** The import said in the log itself, chained after the archive's last entry; the new head. */
function appendImportEntry(
  database: DatabaseSync,
  chainKey: string,
  header: ArchiveHeader,
  at: Date,
): { entries: number; id: number; mac: string } {
  const last = database.prepare('SELECT id, mac FROM audit_log ORDER BY id DESC LIMIT 1').get() as
    { id: number; mac: Uint8Array | null } | undefined;
  const { entries } = database.prepare('SELECT count(*) AS entries FROM audit_log').get() as { entries: number };
  const entry = {
    id: (last?.id ?? 0) + 1,
    profileId: '',
    profileName: '',
    action: 'record.import',
    target: 'record',
    at: at.toISOString(),
    result: 'ok',
    detail: `Imported from an archive of record ${header.recordId} made ${header.madeAt} (${String(header.counts.reviews)} reviews, ${String(header.counts.auditEntries)} audit log entries), verified first.`,
    actor: `ledger command line (record import); OS user ${osUserName()}`,
  };
  const mac = entryMac(
    chainKeyOf(Buffer.from(chainKey, 'base64')),
    last?.mac ?? CHAIN_GENESIS,
    canonicalEntryBytes(entry),
  );
  database
    .prepare(
      `INSERT INTO audit_log (id, profile_id, profile_name, action, target, at, result, detail, actor, mac)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(entry.id, '', '', entry.action, entry.target, entry.at, entry.result, entry.detail, entry.actor, mac);
  return { entries: entries + 1, id: entry.id, mac: mac.toString('hex') };
}

export async function importRecordArchive(options: ArchiveImportOptions): Promise<ArchiveImported> {
  const present = folderContents(options.dataFolder);
  if (present.length > 0) {
    throw new RecordError(
      'folder-not-empty',
      `${options.dataFolder} is not empty (it holds ${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): an archive is imported only into an empty data folder, so nothing there is overwritten; name a new folder with --data.`,
    );
  }
  const verified = verifyArchiveFile(options.file, options.opener);
  const { verification, header, keys, archiveKey } = verified;
  if (!verification.ok || header === null || keys === null || archiveKey === null) {
    throw new RecordError(
      'archive-does-not-verify',
      `${verification.problem?.message ?? `The archive ${options.file} does not verify.`} Nothing was imported.`,
    );
  }
  const record = await RecordStore.open({ folder: options.dataFolder, credentials: options.credentials });
  const auditId = randomUUID();
  const now = options.now ?? (() => new Date());
  // Set inside the transaction's closure: a holder, so the head is read after it.
  const imported: { head: { entries: number; id: number; mac: string } | null } = { head: null };
  try {
    if (record.state !== 'open' || record.recordId === null) {
      throw new RecordError('import-failed', record.problem ?? 'The new record could not be opened for writing.');
    }
    const database = record.database;
    const rows: Record<string, number> = {};
    const counted = (table: string) => {
      rows[table] = (rows[table] ?? 0) + 1;
    };
    record.transaction(() => {
      for (const table of ARCHIVED_TABLES) {
        for (const entry of verified.entries) {
          if (entry.t === 'row' && entry.table === table) {
            insertRow(database, table, entry.row);
            counted(table);
          }
        }
      }
      for (const entry of verified.entries) {
        if (entry.t === 'review') {
          insertRow(database, 'reviews', entry.row);
          counted('reviews');
        } else if (entry.t === 'step') {
          insertRow(database, 'review_history', entry.row);
          counted('review_history');
        } else if (entry.t === 'audit') {
          database
            .prepare(
              `INSERT INTO audit_log (id, profile_id, profile_name, action, target, at, result, detail, actor, mac)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(
              entry.id,
              entry.profileId,
              entry.profileName,
              entry.action,
              entry.target,
              entry.at,
              entry.result,
              entry.detail,
              entry.actor,
              entry.mac === null ? null : Buffer.from(entry.mac, 'hex'),
            );
          counted('audit_log');
        }
      }
      resealRecord(database, new RecordSealer(archiveKey, header.archiveId), record.sealer);
      if (keys.auditChainKey !== null) imported.head = appendImportEntry(database, keys.auditChainKey, header, now());
      const put = database.prepare('INSERT INTO record_meta (key, value) VALUES (?, ?)');
      if (keys.cacheIdentity !== null) {
        put.run(IDENTITY_META, record.sealer.sealJson(keys.cacheIdentity, IDENTITY_SEAL).toString('base64'));
      }
      // The audit log's chain key is named by this id from now on (recordMove.ts reads the mark).
      put.run(
        COPIED_MARK,
        JSON.stringify({
          cacheId: auditId,
          rows,
          importedFrom: { archive: header.archiveId, record: header.recordId, madeAt: header.madeAt },
        }),
      );
    });
  } catch (error) {
    record.close();
    // The folder was empty: what this import made of it goes, the archive is untouched.
    for (const name of [RECORD_FILE_NAME, `${RECORD_FILE_NAME}-wal`, `${RECORD_FILE_NAME}-shm`]) {
      rmSync(join(options.dataFolder, name), { force: true });
    }
    throw error;
  }
  record.close();
  if (keys.auditChainKey !== null) {
    await options.credentials.keepAuditChainKey(auditId, Buffer.from(keys.auditChainKey, 'base64'));
  }
  // The chain's head as verified in the archive: the new folder's anchor starts there.
  const head = header.auditHead;
  const anchor =
    imported.head ??
    (head === null || head.id === null || head.mac === null
      ? header.anchor
      : { entries: head.entries, id: head.id, mac: head.mac });
  if (anchor !== null) {
    await options.credentials.writeAuditChainHead(
      auditId,
      JSON.stringify({ v: 1, entries: anchor.entries, id: anchor.id, mac: anchor.mac }),
    );
  }
  options.profileStorage.set('profiles', header.profiles);
  return {
    recordId: record.recordId,
    counts: header.counts,
    profiles: header.profiles.map((profile) => profile.name),
    fingerprint: verification.fingerprint,
  };
}
