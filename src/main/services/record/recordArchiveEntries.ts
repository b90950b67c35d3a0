/**
 * What the lines of a record archive hold (docs/decisions/34-record-archive-format.md), shared by
 * its export, its verify and its import. In clear: what an auditor must read (the item reviewed by
 * name, the disposition, who and when, every step, the whole audit chain). Sealed under the
 * archive key: each row's sealed columns (notes, the record as reviewed and what changed, the
 * watch rules' names and conditions, the reviewer setting), carried as the record's own rows so
 * an import restores them exactly.
 */
import type { SealedValue } from '../credentials/keyFile.ts';
import type { KeyWraps } from './recordArchiveSealing.ts';

/** A column's value: text, a number, null, or bytes (base64). */
export type RowValue = string | number | null | { b64: string };
export type ArchiveRow = Record<string, RowValue>;

/** A profile as the archive keeps it: no secret ever (profiles hold none). */
export type ArchivedProfile = Record<string, unknown> & { id: string; name: string };

/** The tables an import restores row for row, in the order they are written. */
export const ARCHIVED_TABLES = [
  'watch_rule_names',
  'watch_rules',
  'review_settings',
  'record_retention',
  'record_hold',
  'team_outbox',
  'team_acknowledged',
] as const;
type ArchivedTable = (typeof ARCHIVED_TABLES)[number];

export interface ArchiveHeader {
  t: 'header';
  format: string;
  version: number;
  /** This archive's own id: the sealed parts' associated data. */
  archiveId: string;
  /** The record it was made from. */
  recordId: string;
  madeAt: string;
  /** The profiles whose reviews it holds. */
  profiles: ArchivedProfile[];
  /** The profile named with --profile, or null: every profile. */
  only: string | null;
  counts: { reviews: number; steps: number; rows: number; auditEntries: number };
  /** The record's Ed25519 signing key (SPKI, base64): its fingerprint is shown in Settings → Record. */
  signingKey: string;
  /** The audit chain's head when the archive was made, and the keychain's anchor of it. */
  auditHead: { entries: number; id: number | null; mac: string | null } | null;
  anchor: { entries: number; id: number; mac: string } | null;
  /** What the live `audit verify` said as the archive was made. */
  liveVerify: { ok: boolean; message: string | null };
  wraps: KeyWraps;
}

export interface ReviewEntry {
  t: 'review';
  profile: string;
  kind: string;
  /** The item as the review list names it (what it is), or its ref when the record had no name. */
  item: string;
  ref: string;
  account: string | null;
  state: string;
  disposition: string | null;
  /** The reviewer, a rule's reference, or null. */
  reviewer: string | null;
  byRule: string | null;
  reviewedAt: string | null;
  updatedAt: string;
  version: number;
  row: ArchiveRow;
}

export interface StepEntry {
  t: 'step';
  profile: string;
  kind: string;
  item: string;
  ref: string;
  version: number;
  at: string;
  state: string;
  reviewer: string | null;
  byRule: string | null;
  row: ArchiveRow;
}

interface RowEntry {
  t: 'row';
  table: ArchivedTable;
  row: ArchiveRow;
}

interface AuditArchiveEntry {
  t: 'audit';
  id: number;
  profileId: string;
  profileName: string;
  action: string;
  target: string;
  at: string;
  result: string;
  detail: string | null;
  actor: string | null;
  /** The entry's MAC in the chain (hex), or null where the log had none. */
  mac: string | null;
}

interface KeysEntry {
  t: 'keys';
  sealed: SealedValue;
}

export type ArchiveEntry = ReviewEntry | StepEntry | RowEntry | AuditArchiveEntry | KeysEntry;

export function rowOf(values: Record<string, unknown>): ArchiveRow {
  const row: ArchiveRow = {};
  for (const [column, value] of Object.entries(values)) {
    row[column] =
      value instanceof Uint8Array
        ? { b64: Buffer.from(value).toString('base64') }
        : typeof value === 'bigint'
          ? Number(value)
          : (value as string | number | null);
  }
  return row;
}

export function valueOf(value: RowValue | undefined): string | number | null | Buffer {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return Buffer.from(value.b64, 'base64');
  return value;
}

/** An entry in words, for the sentence naming the first bad one. */
export function describeEntry(entry: ArchiveEntry): string {
  const day = (at: string | null) => (at ?? '').slice(0, 10);
  switch (entry.t) {
    case 'review':
      return `review of ${entry.item} on ${day(entry.reviewedAt ?? entry.updatedAt)}`;
    case 'step':
      return `step ${String(entry.version)} of the review of ${entry.item} on ${day(entry.at)}`;
    case 'audit':
      return `audit log entry #${String(entry.id)}, ${entry.action} ${entry.target} on ${day(entry.at)}`;
    case 'row':
      return `a row of ${entry.table}`;
    case 'keys':
      return 'the sealed keys';
  }
}
