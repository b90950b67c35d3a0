/** The append-only audit log of every write the user made: viewable and exportable. */
import { z } from 'zod';
import { cachePage, idText, paging, profileId, searchText } from '../common.ts';

export const AUDIT_RESULTS = ['ok', 'failed', 'refused'] as const;

export const auditEntry = z.object({
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
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditFilter = {
  profileId: profileId.optional(),
  action: idText.optional(),
  result: z.enum(AUDIT_RESULTS).optional(),
  search: searchText,
};

export const auditOperations = {
  list: { input: z.strictObject({ ...auditFilter, ...paging }), output: cachePage(auditEntry) },
} as const;
