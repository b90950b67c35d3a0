/**
 * The webhook send log, answered from the cache: filters, sort, keyset paging, counts, and
 * the attempts grouped by event and object (one row per notification, with its retries).
 */
import { z } from 'zod';
import { WEBHOOK_SEND_STATUSES, webhookSendResponse } from '../../bank/index.ts';
import { reviewColumns, reviewFilterInput } from './reviews.ts';
import { cachePage, countResult, dateRange, idText, paging, profileId, searchText, sortDirection } from '../common.ts';

const WEBHOOK_SEND_SORTS = ['created_at', 'attempt_number'] as const;

export const webhookSendFilter = {
  profileId,
  webhookId: idText.optional(),
  objectId: idText.optional(),
  status: z.enum(WEBHOOK_SEND_STATUSES).optional(),
  event: idText.optional(),
  willRetry: z.boolean().optional(),
  ...dateRange,
  /** Matches object ids, events and error reasons. */
  search: searchText,
  /** The officer's review of each send: unreviewed, cleared, flagged, escalated or changed. */
  review: reviewFilterInput,
};

/** One notification (event + object) and every attempt to deliver it. */
const webhookSendGroup = z.object({
  webhookId: z.string(),
  objectId: z.string(),
  event: z.string().nullable(),
  attempts: z.number().int().min(0),
  lastStatus: z.enum(WEBHOOK_SEND_STATUSES),
  willRetry: z.boolean(),
  lastError: z.string().nullable(),
  firstAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  /** The notification's review (ref `notification/WEBHOOK/OBJECT/EVENT`). */
  ...reviewColumns,
});
export type WebhookSendGroup = z.infer<typeof webhookSendGroup>;

export const webhookSendsOperations = {
  list: {
    input: z.strictObject({
      ...webhookSendFilter,
      /** Newest first (created_at, desc) unless told otherwise. */
      sortBy: z.enum(WEBHOOK_SEND_SORTS).optional(),
      sortDirection,
      ...paging,
    }),
    output: cachePage(webhookSendResponse.object.extend(reviewColumns)),
  },
  count: { input: z.strictObject(webhookSendFilter), output: countResult },
  groups: { input: z.strictObject({ ...webhookSendFilter, ...paging }), output: cachePage(webhookSendGroup) },
} as const;
