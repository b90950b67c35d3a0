/**
 * Exports of any filtered view to a file. Main asks where to save with its own dialog (the
 * renderer never names a path) and streams the rows to the file.
 */
import { z } from 'zod';
import { savedFile } from '../common.ts';
import { accountApplicationFilter } from './accountApplications.ts';
import { auditFilter } from './audit.ts';
import { listenerRequestFilter } from './listener.ts';
import { pendingTransactionFilter } from './pendingTransactions.ts';
import { webhookSendFilter } from './webhookSends.ts';

const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
const format = z.enum(EXPORT_FORMATS).default('csv');

/** Captured listener traffic: JSONL, or one cURL command per request. */
const LISTENER_EXPORT_FORMATS = ['jsonl', 'curl'] as const;

export const exportsOperations = {
  pendingTransactions: { input: z.strictObject({ ...pendingTransactionFilter, format }), output: savedFile },
  webhookSends: { input: z.strictObject({ ...webhookSendFilter, format }), output: savedFile },
  accountApplications: { input: z.strictObject({ ...accountApplicationFilter, format }), output: savedFile },
  auditLog: { input: z.strictObject({ ...auditFilter, format }), output: savedFile },
  listenerRequests: {
    input: z.strictObject({ ...listenerRequestFilter, format: z.enum(LISTENER_EXPORT_FORMATS).default('jsonl') }),
    output: savedFile,
  },
} as const;
