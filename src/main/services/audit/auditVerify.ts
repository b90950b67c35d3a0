/**
 * Verifying the audit log: every entry's MAC is computed again from the previous one, in id
 * order, and the end of the log is compared with the anchor in the keychain. The first entry
 * that does not match is named; nothing is repaired (a broken chain stays broken, as evidence).
 *
 * The walk reads the log in batches and yields between them, so the app stays responsive while
 * a long log is checked.
 */
import { timingSafeEqual, type KeyObject } from 'node:crypto';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { AuditAnchor } from './auditAnchor.ts';
import {
  CanonicalEncoder,
  CHAIN_GENESIS,
  CHAINED_COLUMNS,
  entryMac,
  macText,
  type ChainedFields,
} from './auditChain.ts';
import type { AuditEntry, AuditResult } from './auditEntry.ts';

/** The action of the entry that starts a new chain after the chain key was lost. */
export const KEY_LOST_ACTION = 'audit.key.lost';

type AuditChainProblemKind =
  /** The entry's MAC does not match: it was edited, or moved from elsewhere in the log. */
  | 'entry-changed'
  /** The entry before this one (by id) is missing: it was deleted. */
  | 'entry-missing'
  /** The entry has no MAC at all. */
  | 'mac-missing'
  /** The log ends before the entry the keychain recorded as its last: its tail was deleted. */
  | 'tail-deleted'
  /** The entry the keychain recorded as the last differs from the one in the log. */
  | 'head-changed'
  /** Entries chained with a key the keychain no longer has: they cannot be verified. */
  | 'key-lost'
  /** The file holds another log than the keychain records for this data folder (folderLogs.ts). */
  | 'log-replaced'
  /** A review's clear columns do not match their MAC: changed outside Ledgerdesk (reviewIntegrity.ts). */
  | 'review-altered'
  /** A cached record's clear columns do not match its sealed body: changed outside Ledgerdesk (pendingColumns.ts). */
  | 'record-altered';

export interface AuditChainProblem {
  kind: AuditChainProblemKind;
  /** The first entry that breaks the chain (for a deleted tail: the first id missing). */
  entryId: number;
  /** That entry as the log holds it now, when it is there. */
  entry: AuditEntry | null;
  message: string;
}

export interface AuditVerification {
  ok: boolean;
  /** Entries in the log. */
  entries: number;
  /** The last entry's MAC (hex): the chain head. Null when the chain does not verify or is empty. */
  head: string | null;
  /** The last entry's id. */
  lastId: number | null;
  /** What the keychain recorded as the head, or null when it holds nothing. */
  anchor: AuditAnchor | null;
  /** The first thing wrong, or null when the whole log verifies. */
  problem: AuditChainProblem | null;
  /** Sentences worth knowing that do not fail the check (e.g. an anchor the keychain lacks). */
  notes: string[];
  /** When the check was made. */
  verifiedAt: string;
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

/** Rows a batch: small enough that the app's main thread answers other calls between batches. */
const BATCH = 5_000;

function fieldsOf(row: Row): ChainedFields {
  const [id, profileId, profileName, action, target, at, result, detail, actor] = row;
  return { id, profileId, profileName, action, target, at, result, detail, actor };
}

function entryOf(row: Row): AuditEntry {
  const fields = fieldsOf(row);
  return { ...fields, result: fields.result as AuditResult };
}

function describe(row: Row): string {
  const [id, , profileName, action, target, at] = row;
  return `entry #${String(id)} (${at}, ${action} ${target}${profileName === '' ? '' : `, ${profileName}`})`;
}

function missingRange(first: number, last: number): string {
  return first === last ? `entry #${String(first)} was` : `entries #${String(first)}–#${String(last)} were`;
}

function same(mac: Uint8Array, expected: Buffer): boolean {
  return mac.byteLength === expected.length && timingSafeEqual(mac, expected);
}

export async function verifyAuditChain(
  database: DatabaseSync,
  key: KeyObject,
  anchor: AuditAnchor | null,
  now: () => Date = () => new Date(),
): Promise<AuditVerification> {
  const batch = database.prepare(
    `SELECT ${CHAINED_COLUMNS}, mac FROM audit_log WHERE id > ? ORDER BY id LIMIT ${String(BATCH)}`,
  );
  batch.setReturnArrays(true);
  const encoder = new CanonicalEncoder();
  let previous: Uint8Array = CHAIN_GENESIS;
  let previousId: number | null = null;
  let entries = 0;
  let problem: AuditChainProblem | null = null;
  /** Entries before the last key loss (they were chained with a key the keychain lost). */
  let keyLostAt: { row: Row; before: number } | null = null;
  let anchorSeen = false;
  let after: SQLInputValue = -1;
  for (;;) {
    const rows = batch.all(after) as unknown as Row[];
    for (const row of rows) {
      entries += 1;
      const id = row[0];
      const mac = row[9];
      // Encoded straight from the row into one reused buffer (no object per entry): the walk's
      // cost is then mostly SQLite's read and the HMAC itself.
      const canonical = encoder.encode(id, row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8]);
      if (mac === null) {
        problem ??= {
          kind: 'mac-missing',
          entryId: id,
          entry: entryOf(row),
          message: `The audit log does not verify: ${describe(row)} has no MAC; it was added or altered outside Ledgerdesk.`,
        };
      } else if (!same(mac, entryMac(key, previous, canonical))) {
        if (row[3] === KEY_LOST_ACTION && same(mac, entryMac(key, CHAIN_GENESIS, canonical))) {
          // A new chain started here because the old key was lost: what came before cannot be
          // checked, and what follows is checked from here.
          keyLostAt = { row, before: entries - 1 };
          problem = null;
        } else if (problem === null) {
          const firstMissing = (previousId ?? 0) + 1;
          const gap = id !== firstMissing;
          problem = {
            kind: gap ? 'entry-missing' : 'entry-changed',
            entryId: id,
            entry: entryOf(row),
            message: gap
              ? `The audit log does not verify: ${describe(row)} does not follow the chain: ${missingRange(firstMissing, id - 1)} deleted.`
              : `The audit log does not verify: ${describe(row)} does not match the chain; it was edited, moved, or an entry before it was removed.`,
          };
        }
      }
      if (anchor !== null && id === anchor.id) {
        anchorSeen = true;
        if (mac === null || macText(mac) !== anchor.mac) {
          problem ??= {
            kind: 'head-changed',
            entryId: id,
            entry: entryOf(row),
            message: `The audit log does not verify: ${describe(row)} is not the entry the keychain recorded as the log's last (${String(anchor.entries)} entries); the log was replaced or its tail rewritten.`,
          };
        }
      }
      previous = mac ?? CHAIN_GENESIS;
      previousId = id;
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < BATCH) break;
    after = last[0];
    await new Promise((resolve) => setImmediate(resolve));
  }
  const notes: string[] = [];
  if (anchor !== null && !anchorSeen && (previousId === null || previousId < anchor.id)) {
    const firstMissing = (previousId ?? 0) + 1;
    problem ??= {
      kind: 'tail-deleted',
      entryId: firstMissing,
      entry: null,
      message: `The audit log does not verify: it ends ${previousId === null ? 'empty' : `at entry #${String(previousId)}`}, but the keychain recorded ${String(anchor.entries)} entries up to #${String(anchor.id)}; entries from #${String(firstMissing)} on were deleted.`,
    };
  }
  if (problem === null && keyLostAt !== null) {
    const { row, before } = keyLostAt;
    problem = {
      kind: 'key-lost',
      entryId: row[0],
      entry: entryOf(row),
      message: `The audit log cannot be verified in full: the ${String(before)} ${before === 1 ? 'entry' : 'entries'} before ${describe(row)} were chained with a key that is no longer in the keychain. The ${String(entries - before)} from there on verify.`,
    };
  }
  if (anchor === null && entries > 0) {
    notes.push(
      "The keychain holds no record of the log's last entry yet, so a deletion of the last entries cannot be ruled out.",
    );
  }
  return {
    ok: problem === null,
    entries,
    head: problem === null && previousId !== null ? macText(previous) : null,
    lastId: previousId,
    anchor,
    problem,
    notes,
    verifiedAt: now().toISOString(),
  };
}
