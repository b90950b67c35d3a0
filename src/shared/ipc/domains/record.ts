/**
 * The officer's record (issue 34, item 5): how long a profile's reviews are kept, the legal
 * hold that suspends every purge, and the purge itself (Settings → Record, as `ledger record …`).
 */
import { z } from 'zod';
import { noInput, profileId } from '../common.ts';

const legalHold = z.object({ reason: z.string(), placedAt: z.string() });

const retention = z.object({
  /** Years after its review that a review is kept (five unless set). */
  years: z.number().int().min(1).max(100),
  hold: legalHold.nullable(),
});
export type RetentionView = z.infer<typeof retention>;

const archiveCounts = z.object({
  reviews: z.number().int().min(0),
  steps: z.number().int().min(0),
  rows: z.number().int().min(0),
  auditEntries: z.number().int().min(0),
});

/** An archive of the record checked (`ledger audit verify --archive FILE`). */
const archiveVerification = z.object({
  ok: z.boolean(),
  file: z.string(),
  fingerprint: z.string().nullable(),
  madeAt: z.string().nullable(),
  profiles: z.array(z.string()),
  counts: archiveCounts.nullable(),
  auditHead: z.string().nullable(),
  /** The first thing wrong, in words; null when it verifies. */
  problem: z.string().nullable(),
  notes: z.array(z.string()),
});
export type ArchiveVerificationView = z.infer<typeof archiveVerification>;
/** A backup of the record in the data folder's backups/ (issue 34, item 7). */
const recordBackup = z.object({
  name: z.string(),
  madeAt: z.string(),
  bytes: z.number().int().min(0),
  /** Whether it opens, is whole, and opens with the record's key. */
  verified: z.boolean(),
  /** Why it does not verify; null when it does. */
  why: z.string().nullable(),
});
export type RecordBackupView = z.infer<typeof recordBackup>;

const recordBackups = z.object({
  /** Newest first. */
  backups: z.array(recordBackup),
  /** The backup put in place at the next start (asked for in the window), or null. */
  restoreAtNextStart: z.string().nullable(),
});
export type RecordBackupsView = z.infer<typeof recordBackups>;

export const recordOperations = {
  retention: { input: z.strictObject({ profileId }), output: retention },
  setRetention: {
    input: z.strictObject({ profileId, years: z.number().int().min(1).max(100) }),
    output: retention,
  },
  placeHold: { input: z.strictObject({ reason: z.string().trim().min(1).max(500) }), output: legalHold },
  liftHold: { input: noInput, output: z.object({ lifted: z.boolean() }) },
  /** Purges the profile's reviews past their retention (audited; refused under a hold). */
  purge: {
    input: z.strictObject({ profileId }),
    output: z.object({ purged: z.number().int().min(0), cutoff: z.string(), years: z.number().int() }),
  },
  /** The fingerprint of the record's archive signing key (null before the first export), to read out to an auditor. */
  signingKey: { input: noInput, output: z.object({ fingerprint: z.string().nullable() }) },
  /**
   * Writes an archive of the record (issue 34, item 6) where the officer chooses (a save dialog;
   * web mode: the downloads folder). Its notes open with the recovery key, or the passphrase.
   */
  exportArchive: {
    input: z.strictObject({
      /** Only this profile's reviews; absent: every profile's. */
      profileId: profileId.optional(),
      passphrase: z.string().min(12).max(1000).optional(),
    }),
    output: z.object({
      saved: z.boolean(),
      path: z.string().nullable(),
      counts: archiveCounts.nullable(),
      fingerprint: z.string().nullable(),
    }),
  },
  /** Checks an archive file, as anyone can without the keychain. */
  verifyArchive: {
    input: z.strictObject({ path: z.string().trim().min(1).max(4096) }),
    output: archiveVerification,
  },
  /** The record's backups, each verified (works on a damaged record too). */
  backups: { input: noInput, output: recordBackups },
  /** A verified backup now (`ledger record backup`). */
  backupNow: { input: noInput, output: recordBackup },
  /**
   * Asks for a backup to be put in place at the next start (the running services hold the record
   * open): verified now; the current record is then kept aside, never deleted.
   */
  restoreBackup: { input: z.strictObject({ name: z.string().min(1).max(200) }), output: recordBackups },
} as const;
