/**
 * `ledger audit verify --archive FILE`: checks a record archive on any machine, with no keychain
 * and no data folder: every line's chained hash (the first that does not match is named, in
 * words), the manifest's Ed25519 signature over the last hash and the number of lines, the counts
 * the header promises, and the audit chain inside (its ids in order, each entry's MAC there, its
 * last entry the head the header and the keychain's anchor recorded). Given the recovery key or
 * the archive passphrase, the audit entries' keyed MACs are computed again too, as the live
 * `audit verify` does. Nothing here writes anything.
 */
import { timingSafeEqual, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CanonicalEncoder, CHAIN_GENESIS, chainKeyOf, entryMac } from '../audit/auditChain.ts';
import { KEY_LOST_ACTION } from '../audit/auditVerify.ts';
import { describeEntry, type ArchiveEntry, type ArchiveHeader } from './recordArchiveEntries.ts';
import { archiveEntryOf, archiveHeaderSchema } from './recordArchiveSchema.ts';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  chainNext,
  chainStart,
  publicKeyOfText,
  signatureHolds,
  signingFingerprint,
  splitLine,
  type ArchiveManifest,
} from './recordArchiveFormat.ts';
import { openArchiveKey, openArchiveKeys, type ArchiveKeys, type ArchiveOpener } from './recordArchiveSealing.ts';

interface ArchiveProblem {
  /** The entry's number (1 is the first after the header), 0 for the header, null for the manifest or the file. */
  entry: number | null;
  /** The line of the file (1 is the header). */
  line: number | null;
  message: string;
}

export interface ArchiveVerification {
  ok: boolean;
  file: string;
  /** The signing key's fingerprint, to compare with Settings → Record; null when the header is unreadable. */
  fingerprint: string | null;
  recordId: string | null;
  madeAt: string | null;
  profiles: string[];
  counts: ArchiveHeader['counts'] | null;
  /** The audit chain's head in the archive (hex), when it verifies. */
  auditHead: string | null;
  /** Whether the audit entries' keyed MACs were computed again (the recovery key or passphrase was given). */
  macsChecked: boolean;
  problem: ArchiveProblem | null;
  /** Sentences worth knowing that do not fail the check. */
  notes: string[];
}

/** What an import needs of a verified archive. */
export interface VerifiedArchive {
  verification: ArchiveVerification;
  header: ArchiveHeader | null;
  entries: ArchiveEntry[];
  /** The sealed keys, when an opener was given and opened them. */
  keys: ArchiveKeys | null;
  archiveKey: Buffer | null;
}

const NEWLINE = 0x0a;

function numbered(value: number): string {
  return value.toLocaleString('en-US');
}

function entryWords(number: number, entry: ArchiveEntry | null): string {
  return entry === null ? `entry ${numbered(number)}` : `entry ${numbered(number)} (${describeEntry(entry)})`;
}

function parseEntry(bytes: Buffer): ArchiveEntry | null {
  try {
    return archiveEntryOf(JSON.parse(bytes.toString('utf8')));
  } catch {
    return null;
  }
}

function parseManifest(bytes: Buffer): ArchiveManifest | null {
  try {
    const text = bytes.toString('utf8');
    const value = (JSON.parse(text) as { manifest?: ArchiveManifest }).manifest;
    if (
      value === undefined ||
      !Number.isSafeInteger(value.lines) ||
      typeof value.head !== 'string' ||
      typeof value.signature !== 'string'
    ) {
      return null;
    }
    // Byte for byte as the export writes it, its signature in canonical base64: the manifest is
    // the one line no hash covers, so no other spelling of it is taken.
    const canonical = JSON.stringify({
      manifest: {
        lines: value.lines,
        head: value.head,
        signature: Buffer.from(value.signature, 'base64').toString('base64'),
      },
    });
    return canonical === text ? value : null;
  } catch {
    return null;
  }
}

const LIGHT_KINDS = (['review', 'step', 'row'] as const).map((kind) => ({
  kind,
  prefix: Buffer.from(`{"t":"${kind}",`, 'utf8'),
}));

/** A review, step or row line by its first bytes (JSON.stringify writes `t` first); null for another. */
function lightKindOf(entry: Buffer): 'review' | 'step' | 'row' | null {
  for (const { kind, prefix } of LIGHT_KINDS) {
    if (entry.length > prefix.length && entry.compare(prefix, 0, prefix.length, 0, prefix.length) === 0) return kind;
  }
  return null;
}

function sameMac(hex: string, expected: Buffer): boolean {
  const mac = Buffer.from(hex, 'hex');
  return mac.length === expected.length && timingSafeEqual(mac, expected);
}

/** Nothing checked yet: what a verify starts from, and what an unreadable file ends with. */
function unverified(file: string): VerifiedArchive {
  const verification: ArchiveVerification = {
    ok: false,
    file,
    fingerprint: null,
    recordId: null,
    madeAt: null,
    profiles: [],
    counts: null,
    auditHead: null,
    macsChecked: false,
    problem: null,
    notes: [],
  };
  return { verification, header: null, entries: [], keys: null, archiveKey: null };
}

/** Checks the archive's bytes; with `opener`, opens its sealed keys and checks the audit MACs too. */
export function verifyArchiveBytes(file: string, bytes: Buffer, opener: ArchiveOpener | null = null): VerifiedArchive {
  const result = unverified(file);
  const { verification } = result;
  const fail = (entry: number | null, line: number | null, message: string): VerifiedArchive => {
    verification.problem = { entry, line, message: `The archive ${file} does not verify: ${message}` };
    return result;
  };
  if (bytes.length === 0) return fail(null, null, 'the file is empty.');
  const lines: Buffer[] = [];
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(NEWLINE, start);
    if (end === -1) break;
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  const cutShort = start < bytes.length;
  if (cutShort) lines.push(bytes.subarray(start));

  // The header.
  const first = lines[0];
  const headerLine = first === undefined ? null : splitLine(first);
  let hash = chainStart();
  let header: ArchiveHeader | null = null;
  if (headerLine !== null) {
    const next = chainNext(hash, headerLine.entry);
    if (next.toString('hex') === headerLine.hash) {
      hash = next;
      try {
        const parsed = archiveHeaderSchema.safeParse(JSON.parse(headerLine.entry.toString('utf8')));
        header = parsed.success ? parsed.data : null;
      } catch {
        header = null;
      }
    }
  }
  if (header?.t !== 'header') {
    return fail(
      0,
      1,
      'its header (line 1) does not match: the file is not a Ledgerdesk record archive, or its first line was changed.',
    );
  }
  if (header.format !== ARCHIVE_FORMAT || header.version !== ARCHIVE_VERSION) {
    return fail(
      0,
      1,
      `its header names ${header.format} version ${String(header.version)}, which this build does not read.`,
    );
  }
  let publicKey: KeyObject;
  try {
    publicKey = publicKeyOfText(header.signingKey);
  } catch {
    return fail(0, 1, 'its header holds no Ed25519 signing key.');
  }
  result.header = header;
  verification.fingerprint = signingFingerprint(publicKey);
  verification.recordId = header.recordId;
  verification.madeAt = header.madeAt;
  verification.profiles = header.profiles.map((profile) => profile.name);
  verification.counts = header.counts;

  // Every entry, its hash chained to the one before.
  // Without an opener (a plain verify) a review, step or row line is hashed and counted, not
  // parsed: its bytes are what the chain and the signature vouch for, and an import (which
  // parses and checks every line) refuses one of another shape. It is parsed when it is named.
  const parseAll = opener !== null;
  let lastBytes: Buffer | null = null;
  const described = (bytes: Buffer | null): ArchiveEntry | null => (bytes === null ? null : parseEntry(bytes));
  let manifest: ArchiveManifest | null = null;
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index] ?? Buffer.alloc(0);
    const isLast = index === lines.length - 1;
    if (isLast && !cutShort) {
      manifest = parseManifest(line);
      if (manifest !== null) break;
    }
    const split = splitLine(line);
    const next = split === null ? null : chainNext(hash, split.entry);
    const light = split === null || parseAll ? null : lightKindOf(split.entry);
    const entry = split === null ? null : light !== null ? ({ t: light } as ArchiveEntry) : parseEntry(split.entry);
    if (split === null || next === null || next.toString('hex') !== split.hash || entry === null) {
      const last = described(lastBytes);
      if (isLast) {
        return fail(
          null,
          index + 1,
          `it ends after ${last === null ? 'its header' : entryWords(index - 1, last)} without its manifest: the file was cut short, or its last line (the manifest) was changed.`,
        );
      }
      const named = split === null ? null : parseEntry(split.entry);
      return fail(
        index,
        index + 1,
        `${entryWords(index, named)} does not match${last === null ? '' : ` (it follows ${entryWords(index - 1, last)})`}: the line was changed after the archive was signed.`,
      );
    }
    hash = next;
    result.entries.push(entry);
    lastBytes = split.entry;
  }
  const entryCount = result.entries.length;
  if (manifest === null) {
    return fail(
      null,
      lines.length,
      `it ends after ${lastBytes === null ? 'its header' : entryWords(entryCount, described(lastBytes))} without its manifest: the file was cut short.`,
    );
  }
  if (manifest.lines !== entryCount + 1 || manifest.head !== hash.toString('hex')) {
    return fail(
      null,
      lines.length,
      `its manifest (the last line) does not match its ${numbered(entryCount)} entries: lines were added, removed or rewritten, or the manifest was changed.`,
    );
  }
  if (!signatureHolds(publicKey, manifest)) {
    return fail(
      null,
      lines.length,
      "its manifest's signature does not hold under the header's signing key: the manifest or the key was changed.",
    );
  }

  // What the header promises, and the audit chain inside.
  const counted = { reviews: 0, steps: 0, rows: 0, auditEntries: 0 };
  let keysEntry: Extract<ArchiveEntry, { t: 'keys' }> | null = null;
  let previousAudit: { id: number; mac: string | null } | null = null;
  for (const [offset, entry] of result.entries.entries()) {
    const number = offset + 1;
    if (entry.t === 'review') counted.reviews += 1;
    else if (entry.t === 'step') counted.steps += 1;
    else if (entry.t === 'row') counted.rows += 1;
    else if (entry.t === 'keys') keysEntry = entry;
    else {
      counted.auditEntries += 1;
      if (entry.mac === null || !/^[0-9a-f]{64}$/.test(entry.mac)) {
        return fail(number, number + 1, `${entryWords(number, entry)} has no MAC in the audit chain.`);
      }
      if (previousAudit !== null && entry.id !== previousAudit.id + 1) {
        return fail(
          number,
          number + 1,
          `${entryWords(number, entry)} does not follow audit log entry #${String(previousAudit.id)}: entries are missing from the chain.`,
        );
      }
      previousAudit = { id: entry.id, mac: entry.mac };
    }
  }
  for (const part of ['reviews', 'steps', 'rows', 'auditEntries'] as const) {
    if (counted[part] !== header.counts[part]) {
      return fail(
        0,
        1,
        `its header promises ${numbered(header.counts[part])} ${part === 'auditEntries' ? 'audit log entries' : part}, and it holds ${numbered(counted[part])}.`,
      );
    }
  }
  const head = header.auditHead;
  if (head !== null && (head.id !== (previousAudit?.id ?? null) || head.mac !== (previousAudit?.mac ?? null))) {
    return fail(0, 1, "the audit chain's last entry is not the head its header recorded.");
  }
  const anchor = header.anchor;
  if (anchor !== null) {
    const anchored = result.entries.find(
      (entry): entry is Extract<ArchiveEntry, { t: 'audit' }> => entry.t === 'audit' && entry.id === anchor.id,
    );
    if (anchored?.mac !== anchor.mac) {
      return fail(
        0,
        1,
        `the audit chain does not hold the entry the keychain had anchored (#${String(anchor.id)}): its tail was rewritten before the archive was made.`,
      );
    }
  } else if (counted.auditEntries > 0) {
    verification.notes.push(
      'The keychain held no anchor of the audit log when the archive was made, so a deletion of its last entries before then cannot be ruled out.',
    );
  }
  if (!header.liveVerify.ok) {
    verification.notes.push(
      `When the archive was made, the live audit log did not verify: ${header.liveVerify.message ?? 'no reason given'}`,
    );
  }

  // With the recovery key or the passphrase: the sealed keys, and the audit chain's keyed MACs.
  if (opener !== null) {
    const archiveKey = openArchiveKey(header.wraps, header.archiveId, opener);
    const keys = keysEntry === null ? null : openArchiveKeys(archiveKey, header.archiveId, keysEntry.sealed);
    if (keys === null) {
      return fail(null, null, "its sealed keys do not open with the archive's key: the archive was altered.");
    }
    result.archiveKey = archiveKey;
    result.keys = keys;
    if (keys.auditChainKey !== null) {
      const key = chainKeyOf(Buffer.from(keys.auditChainKey, 'base64'));
      const encoder = new CanonicalEncoder();
      let previous: Uint8Array = CHAIN_GENESIS;
      for (const [offset, entry] of result.entries.entries()) {
        if (entry.t !== 'audit' || entry.mac === null) continue;
        const canonical = encoder.encode(
          entry.id,
          entry.profileId,
          entry.profileName,
          entry.action,
          entry.target,
          entry.at,
          entry.result,
          entry.detail,
          entry.actor,
        );
        if (!sameMac(entry.mac, entryMac(key, previous, canonical))) {
          const restarted =
            entry.action === KEY_LOST_ACTION && sameMac(entry.mac, entryMac(key, CHAIN_GENESIS, canonical));
          if (!restarted) {
            return fail(
              offset + 1,
              offset + 2,
              `${entryWords(offset + 1, entry)} does not match the audit chain's key: it was edited in the log before the archive was made.`,
            );
          }
        }
        previous = Buffer.from(entry.mac, 'hex');
      }
      verification.macsChecked = true;
    }
  }
  verification.auditHead = previousAudit?.mac ?? null;
  verification.ok = true;
  return result;
}

/** Reads and checks the archive FILE. */
export function verifyArchiveFile(file: string, opener: ArchiveOpener | null = null): VerifiedArchive {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const result = unverified(file);
    result.verification.problem = {
      entry: null,
      line: null,
      message: `The archive ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'not readable'}).`,
    };
    return result;
  }
  return verifyArchiveBytes(file, bytes, opener);
}
