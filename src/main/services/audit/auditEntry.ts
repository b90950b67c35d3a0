/**
 * An audit entry as read, shared by the log that writes and pages it (auditLog.ts) and the
 * walk that verifies its chain (auditVerify.ts), so neither imports the other for its shape.
 */
import type { ChainedFields } from './auditChain.ts';

export type AuditResult = 'ok' | 'failed' | 'refused';

/** An entry as read: every field its MAC covers, the result one of the three. */
export interface AuditEntry extends ChainedFields {
  result: AuditResult;
}
