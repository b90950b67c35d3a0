/**
 * Sync: jobs that page through the bank's API into the cache. One job per key at a time;
 * resumable, cancellable; progress arrives as events.
 */
import { z } from 'zod';
import { ACCOUNT_APPLICATION_STATUSES, isoDate, WEBHOOK_SEND_STATUSES } from '../../bank/index.ts';
import { idText, profileId } from '../common.ts';

const SYNC_KINDS = ['pendingTransactions', 'webhookSends', 'accountApplication', 'applications', 'webhooks'] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];

const SYNC_STATES = ['running', 'done', 'cancelled', 'failed'] as const;

/** What to sync: one of the jobs of the services. */
const syncJob = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('pendingTransactions'),
    accountId: idText,
    fromDate: isoDate.optional(),
    toDate: isoDate.optional(),
  }),
  z.strictObject({
    kind: z.literal('webhookSends'),
    webhookId: idText.optional(),
    objectId: idText.optional(),
    status: z.enum(WEBHOOK_SEND_STATUSES).optional(),
  }),
  z.strictObject({ kind: z.literal('accountApplication'), id: idText }),
  /** The application book: every application (of a status, created in a range) and the people and businesses they name. */
  z.strictObject({
    kind: z.literal('applications'),
    status: z.enum(ACCOUNT_APPLICATION_STATUSES).optional(),
    fromDate: isoDate.optional(),
    toDate: isoDate.optional(),
  }),
  z.strictObject({ kind: z.literal('webhooks') }),
]);
export type SyncJob = z.infer<typeof syncJob>;

/** Progress of one job; the same shape answers `status` and arrives as `sync.onProgress`. */
export const syncProgress = z.object({
  jobId: z.string(),
  profileId: z.string().optional(),
  kind: z.enum(SYNC_KINDS),
  /** The job's key: one job per key runs at a time (e.g. the account id). */
  key: z.string(),
  fetched: z.number().int().min(0),
  written: z.number().int().min(0),
  /** Pages fetched in this run. */
  pages: z.number().int().min(0),
  /** Date windows walked to their end, of all the job's (0 of 0 when it walks no windows). */
  windowsDone: z.number().int().min(0),
  windowsTotal: z.number().int().min(0),
  /** Page requests at the bank at once now (lowered after a 429, raised again slowly). */
  parallelism: z.number().int().min(0),
  ratePerSecond: z.number().min(0),
  etaSeconds: z.number().min(0).nullable(),
  state: z.enum(SYNC_STATES),
  /** When failed: a sentence saying why. */
  error: z.string().optional(),
});
export type SyncProgress = z.infer<typeof syncProgress>;

export const syncOperations = {
  /** Starts the job, or answers the one already running for the same key. */
  start: { input: z.strictObject({ profileId, job: syncJob }), output: syncProgress },
  cancel: { input: z.strictObject({ jobId: idText }), output: z.object({ cancelled: z.boolean() }) },
  /** Jobs running now (and those finished recently), optionally of one profile. */
  status: {
    input: z.strictObject({ profileId: profileId.optional() }),
    output: z.object({ jobs: z.array(syncProgress) }),
  },
} as const;

export const syncEvents = {
  progress: syncProgress,
} as const;
