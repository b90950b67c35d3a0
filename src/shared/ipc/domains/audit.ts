/**
 * The append-only audit log of every write the user made and every review action: viewable,
 * exportable, and verifiable (a hash chain keyed from the keychain; see docs/decisions/16-audit-hash-chain.md).
 */
import { z } from 'zod';
import { cachePage, idText, noInput, paging, profileId, searchText } from '../common.ts';

const AUDIT_RESULTS = ['ok', 'failed', 'refused'] as const;

const auditEntry = z.object({
  id: z.string(),
  at: z.string(),
  profileId: z.string().nullable(),
  profileName: z.string().nullable(),
  /** What was done, e.g. "webhook.create", "document.create", "credentials.set". */
  action: z.string(),
  /** What it was done to, e.g. the webhook id. */
  target: z.string().nullable(),
  result: z.enum(AUDIT_RESULTS),
  /** The error sentence when the write failed or was refused. */
  message: z.string().nullable(),
  /** Who acted: the app instance or the command line, the OS user, the reviewer (null in older entries). */
  actor: z.string().nullable().optional(),
  /** Who acted as a person reads it: the officer's name and login (main/services/audit/auditWho.ts). */
  who: z.string().nullable().optional(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditFilter = {
  profileId: profileId.optional(),
  action: idText.optional(),
  result: z.enum(AUDIT_RESULTS).optional(),
  search: searchText,
};

const AUDIT_CHAIN_PROBLEMS = [
  'entry-changed',
  'entry-missing',
  'mac-missing',
  'tail-deleted',
  'head-changed',
  'key-lost',
  'log-replaced',
  'review-altered',
  'record-altered',
] as const;

/** The answer of `audit verify`: ok with the entries and the chain head, or the first break. */
const auditVerification = z.object({
  ok: z.boolean(),
  entries: z.number().int().nonnegative(),
  /** The last entry's MAC in hex; null when the chain does not verify or the log is empty. */
  head: z.string().nullable(),
  problem: z
    .object({
      kind: z.enum(AUDIT_CHAIN_PROBLEMS),
      /** The first entry that breaks the chain (for a deleted tail, the first id missing). */
      entryId: z.string(),
      /** That entry as the log holds it now, when it is there. */
      entry: auditEntry.nullable(),
      message: z.string(),
    })
    .nullable(),
  notes: z.array(z.string()),
  verifiedAt: z.string(),
});
export type AuditVerification = z.infer<typeof auditVerification>;

export const auditOperations = {
  list: { input: z.strictObject({ ...auditFilter, ...paging }), output: cachePage(auditEntry) },
  verify: { input: noInput, output: auditVerification },
} as const;
