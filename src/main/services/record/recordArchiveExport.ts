/**
 * `ledger record export FILE`: the officer's record as one self-verifying archive
 * (recordArchiveFormat.ts). The record is copied whole (`VACUUM INTO`, a consistent snapshot
 * while the app keeps writing) into a private temporary folder, where its sealed columns are
 * sealed again under a fresh archive key by the same code the move out of the cache uses
 * (recordReseal.ts); the lines are read from that copy, so the live record is only read. The
 * archive is written beside FILE and renamed into place once signed: a crash leaves no half
 * archive under FILE's name, and an existing FILE is never overwritten.
 */
import { randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdtempSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { itemColumnsOf, itemLine } from '../../../shared/review/itemColumns.ts';
import type { ReviewKind } from '../../../shared/review/reviewTerms.ts';
import { parseAnchor } from '../audit/auditAnchor.ts';
import type { AuditLog } from '../audit/auditLog.ts';
import type { AuditVerification } from '../audit/auditVerify.ts';
import { RecordSealer } from '../cache/sealing.ts';
import type { Credentials } from '../credentials/credentials.ts';
import type { Profile } from '../profiles/profile.ts';
import { reviewIdentity, stepIdentity } from '../review/reviewIdentity.ts';
import { keptCacheIdentity } from './cacheIdentity.ts';
import {
  ARCHIVED_TABLES,
  rowOf,
  type ArchivedProfile,
  type ArchiveEntry,
  type ArchiveHeader,
  type ReviewEntry,
  type StepEntry,
} from './recordArchiveEntries.ts';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  archiveLine,
  chainNext,
  chainStart,
  manifestLine,
  publicKeyText,
  signingFingerprint,
  signingKeyOfSeed,
} from './recordArchiveFormat.ts';
import { sealArchiveKeys, wrapArchiveKey, ArchiveKeyProblem } from './recordArchiveSealing.ts';
import { copiedMarkOf } from './recordCopy.ts';
import { RecordError } from './recordError.ts';
import { resealRecord } from './recordReseal.ts';
import type { RecordStore } from './recordStore.ts';

export interface ArchiveExportOptions {
  record: RecordStore;
  credentials: Credentials;
  /** Every profile the data folder has (names for the lines, kept in the header). */
  profiles: readonly Profile[];
  /** Only this profile's reviews, steps and rules (the audit chain is always whole). */
  only: Profile | null;
  /** The data folder's recovery public key (recoveryEscrow.ts), or null when it has none yet. */
  recoveryPublicKey: string | null;
  /** The archive passphrase, or null. */
  passphrase: string | null;
  /** The live `audit verify`, said in the header (an archive of a broken log is still made). */
  liveVerify: AuditVerification;
  file: string;
  now?: () => Date;
}

export interface ArchiveExported {
  file: string;
  counts: ArchiveHeader['counts'];
  fingerprint: string;
  sealedFor: ('recovery key' | 'passphrase')[];
}

type Row = Record<string, unknown>;

/** The record's signing key: made on first export, kept and escrowed like the record's key. */
async function recordSigningKey(credentials: Credentials, recordId: string): Promise<KeyObject> {
  const seed =
    (await credentials.readRecordSigningSeed(recordId)) ?? (await credentials.createRecordSigningSeed(recordId));
  return signingKeyOfSeed(seed);
}

/** The signing key's fingerprint when one was made, for Settings → Record; null before the first export. */
export async function recordSigningFingerprint(credentials: Credentials, recordId: string): Promise<string | null> {
  const seed = await credentials.readRecordSigningSeed(recordId);
  return seed === null ? null : signingFingerprint(signingKeyOfSeed(seed));
}

/** The export said in the audit log (where the record can be written: a read-only one is exported unlogged). */
export function auditArchiveExport(
  audit: AuditLog,
  record: RecordStore,
  only: Profile | null,
  exported: ArchiveExported,
): void {
  if (record.state !== 'open') return;
  audit.record({
    profileId: only?.id ?? '',
    profileName: only?.name ?? '',
    action: 'record.export',
    target: basename(exported.file),
    result: 'ok',
    detail: `${String(exported.counts.reviews)} reviews, ${String(exported.counts.auditEntries)} audit log entries; signed by ${exported.fingerprint}`,
  });
}

/** Buffered lines to the file, each chained to the one before. */
class LineWriter {
  readonly #descriptor: number;
  #hash = chainStart();
  #chunks: string[] = [];
  #size = 0;
  lines = 0;

  constructor(file: string) {
    this.#descriptor = openSync(file, 'wx', 0o600);
  }

  entry(value: ArchiveHeader | ArchiveEntry): void {
    const json = JSON.stringify(value);
    this.#hash = chainNext(this.#hash, Buffer.from(json, 'utf8'));
    this.#push(archiveLine(this.#hash, json));
    this.lines += 1;
  }

  finish(signingKey: KeyObject): void {
    this.#push(manifestLine(signingKey, this.#hash, this.lines));
    this.#flush();
    fsyncSync(this.#descriptor);
    closeSync(this.#descriptor);
  }

  abandon(): void {
    closeSync(this.#descriptor);
  }

  #push(line: string): void {
    this.#chunks.push(line, '\n');
    this.#size += line.length + 1;
    if (this.#size > 1 << 20) this.#flush();
  }

  #flush(): void {
    if (this.#chunks.length === 0) return;
    writeSync(this.#descriptor, this.#chunks.join(''));
    this.#chunks = [];
    this.#size = 0;
  }
}

function itemNameOf(kind: string, ref: string, record: unknown): string {
  const line =
    record === null || record === undefined
      ? ''
      : itemLine(kind as ReviewKind, itemColumnsOf(kind as ReviewKind, ref, record));
  return line === '' ? ref : line;
}

export async function exportRecordArchive(options: ArchiveExportOptions): Promise<ArchiveExported> {
  const { record, credentials } = options;
  const now = options.now ?? (() => new Date());
  if (existsSync(options.file)) {
    throw new RecordError(
      'archive-exists',
      `${options.file} already exists: nothing was written. Name a new file for the archive.`,
    );
  }
  if (record.state === 'locked' || record.recordId === null) {
    throw new RecordError(
      'locked',
      record.problem ?? "The officer's record has no key here, so its sealed notes cannot be archived.",
    );
  }
  const mark = copiedMarkOf(record);
  if (mark === null) {
    throw new RecordError(
      'not-moved',
      "The officer's record is still kept in the cache file (its move to record.sqlite has not run): start Ledgerdesk once, then export.",
    );
  }
  if (options.recoveryPublicKey === null && options.passphrase === null) {
    throw new ArchiveKeyProblem(
      'This data folder has no recovery key yet (the app makes one at its first start), so the archive needs a passphrase for its sealed notes: give --passphrase-file FILE. Nothing was written.',
    );
  }
  const recordId = record.recordId;
  const archiveId = randomUUID();
  const archiveKey = randomBytes(32);
  const wraps = wrapArchiveKey(archiveKey, archiveId, options.recoveryPublicKey, options.passphrase);
  const archiveSealer = new RecordSealer(archiveKey, archiveId);
  const signingKey = await recordSigningKey(credentials, recordId);
  const chainKey = mark.cacheId === null ? null : await credentials.readAuditChainKey(mark.cacheId);
  const anchor = mark.cacheId === null ? null : parseAnchor(await credentials.readAuditChainHead(mark.cacheId));
  const identity = keptCacheIdentity(record);

  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-archive-'));
  const partial = `${options.file}.partial-${String(process.pid)}`;
  let writer: LineWriter | null = null;
  try {
    const copy = join(folder, 'record.sqlite');
    record.database.prepare('VACUUM INTO ?').run(copy);
    const database = new DatabaseSync(copy);
    try {
      database.exec('BEGIN');
      resealRecord(database, record.sealer, archiveSealer);
      database.exec('COMMIT');
      const only = options.only?.id ?? null;
      const names = new Map(options.profiles.map((profile) => [profile.id, profile.name]));
      const profileWhere = only === null ? '' : 'WHERE profile_id = ?';
      const parameters = only === null ? [] : [only];
      const count = (sql: string, ...values: string[]) => (database.prepare(sql).get(...values) as { n: number }).n;
      const tablesWithProfile = new Set(['watch_rule_names', 'watch_rules', 'record_retention']);
      let rows = 0;
      for (const table of ARCHIVED_TABLES) {
        rows += tablesWithProfile.has(table)
          ? count(`SELECT count(*) AS n FROM ${table} ${profileWhere}`, ...parameters)
          : count(`SELECT count(*) AS n FROM ${table}`);
      }
      const last = database.prepare('SELECT id, mac FROM audit_log ORDER BY id DESC LIMIT 1').get() as
        { id: number; mac: Uint8Array | null } | undefined;
      const auditEntries = count('SELECT count(*) AS n FROM audit_log');
      const kept = (profile: Profile): ArchivedProfile => {
        const { secretDropped: _dropped, ...rest } = profile;
        return rest;
      };
      const header: ArchiveHeader = {
        t: 'header',
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        archiveId,
        recordId,
        madeAt: now().toISOString(),
        profiles: (options.only === null ? options.profiles : [options.only]).map(kept),
        only: options.only?.name ?? null,
        counts: {
          reviews: count(`SELECT count(*) AS n FROM reviews ${profileWhere}`, ...parameters),
          steps: count(`SELECT count(*) AS n FROM review_history ${profileWhere}`, ...parameters),
          rows,
          auditEntries,
        },
        signingKey: publicKeyText(signingKey),
        auditHead: {
          entries: auditEntries,
          id: last?.id ?? null,
          mac: last?.mac == null ? null : Buffer.from(last.mac).toString('hex'),
        },
        anchor,
        liveVerify: {
          ok: options.liveVerify.ok,
          message: options.liveVerify.problem?.message ?? null,
        },
        wraps,
      };
      writer = new LineWriter(partial);
      writer.entry(header);
      const profileName = (id: string) => names.get(id) ?? id;
      const reviewed = new Map<string, string>();
      for (const row of database
        .prepare(`SELECT * FROM reviews ${profileWhere} ORDER BY id`)
        .iterate(...parameters) as Iterable<Row>) {
        const profileId = String(row['profile_id']);
        const kind = String(row['kind']);
        const ref = String(row['ref']);
        const body =
          row['body'] == null
            ? null
            : (archiveSealer.openJson(row['body'] as Uint8Array, reviewIdentity(profileId, kind, ref)) as {
                disposition: string | null;
                reviewer: string | null;
                reviewedAt: string | null;
                record: unknown;
              });
        const item = itemNameOf(kind, ref, body?.record);
        reviewed.set(`${profileId}\u0000${kind}\u0000${ref}`, item);
        const ruleName = (row['rule_name'] as string | null) ?? null;
        const entry: ReviewEntry = {
          t: 'review',
          profile: profileName(profileId),
          kind,
          item,
          ref,
          account: (row['account_id'] as string | null) ?? null,
          state: String(row['state']),
          disposition: body?.disposition ?? null,
          reviewer: ruleName === null ? (body?.reviewer ?? null) : null,
          byRule: ruleName,
          reviewedAt: body?.reviewedAt ?? null,
          updatedAt: String(row['updated_at']),
          version: Number(row['version']),
          row: rowOf(row),
        };
        writer.entry(entry);
      }
      for (const row of database
        .prepare(`SELECT * FROM review_history ${profileWhere} ORDER BY profile_id, kind, ref, version`)
        .iterate(...parameters) as Iterable<Row>) {
        const profileId = String(row['profile_id']);
        const kind = String(row['kind']);
        const ref = String(row['ref']);
        const version = Number(row['version']);
        let reviewer: string | null = null;
        if (row['body'] != null) {
          try {
            reviewer =
              (
                archiveSealer.openJson(row['body'] as Uint8Array, stepIdentity(profileId, kind, ref, version)) as {
                  reviewer: string | null;
                }
              ).reviewer ?? null;
          } catch {
            reviewer = null;
          }
        }
        const entry: StepEntry = {
          t: 'step',
          profile: profileName(profileId),
          kind,
          item: reviewed.get(`${profileId}\u0000${kind}\u0000${ref}`) ?? ref,
          ref,
          version,
          at: String(row['at']),
          state: String(row['state']),
          reviewer,
          byRule: (row['rule_name'] as string | null) ?? null,
          row: rowOf(row),
        };
        writer.entry(entry);
      }
      for (const table of ARCHIVED_TABLES) {
        const where = tablesWithProfile.has(table) ? profileWhere : '';
        const values = tablesWithProfile.has(table) ? parameters : [];
        for (const row of database.prepare(`SELECT * FROM ${table} ${where}`).iterate(...values) as Iterable<Row>) {
          writer.entry({ t: 'row', table, row: rowOf(row) });
        }
      }
      const audit = database.prepare(
        'SELECT id, profile_id, profile_name, action, target, at, result, detail, actor, mac FROM audit_log ORDER BY id',
      );
      audit.setReturnArrays(true);
      for (const values of audit.iterate() as Iterable<unknown[]>) {
        const [id, profileId, profileNameOf, action, target, at, result, detail, actor, mac] = values;
        writer.entry({
          t: 'audit',
          id: Number(id),
          profileId: String(profileId),
          profileName: String(profileNameOf),
          action: String(action),
          target: String(target),
          at: String(at),
          result: String(result),
          detail: (detail as string | null) ?? null,
          actor: (actor as string | null) ?? null,
          mac: mac == null ? null : Buffer.from(mac as Uint8Array).toString('hex'),
        });
      }
      writer.entry({
        t: 'keys',
        sealed: sealArchiveKeys(archiveKey, archiveId, {
          auditChainKey: chainKey?.toString('base64') ?? null,
          cacheIdentity:
            identity === null
              ? null
              : { hashKey: identity.hashKey.toString('base64'), digestPrefix: identity.digestPrefix },
        }),
      });
      writer.finish(signingKey);
      writer = null;
      renameSync(partial, options.file);
      const sealedFor: ArchiveExported['sealedFor'] = [];
      if (wraps.recovery !== null) sealedFor.push('recovery key');
      if (wraps.passphrase !== null) sealedFor.push('passphrase');
      return { file: options.file, counts: header.counts, fingerprint: signingFingerprint(signingKey), sealedFor };
    } finally {
      database.close();
    }
  } catch (error) {
    writer?.abandon();
    rmSync(partial, { force: true });
    throw error;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
