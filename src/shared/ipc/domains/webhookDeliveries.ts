/**
 * How each webhook's deliveries are going (issue 27, item 6), from the cached send log: the
 * latest attempt, the share delivered over the last 24 hours, the retries in that window and
 * the notifications the bank is still retrying. Computed in main by SQL over the send log, so
 * the window gets a handful of figures per webhook, never the attempts themselves.
 */
import { z } from 'zod';
import { WEBHOOK_SEND_STATUSES, WEBHOOK_STATUSES } from '../../bank/index.ts';
import { asOf, idText, profileId } from '../common.ts';

/** The most webhooks one call asks about (a Webhooks page holds at most 1000). */
const DELIVERY_STATS_MAX_WEBHOOKS = 1000;

const webhookDeliveryStats = z.object({
  webhookId: z.string(),
  /** The webhook's status in the cached list (enabled, disabled, error); null when not cached. */
  webhookStatus: z.enum(WEBHOOK_STATUSES).nullable(),
  /** The latest attempt in the cached send log; null when none is cached. */
  lastAttempt: z
    .object({
      at: z.string(),
      status: z.enum(WEBHOOK_SEND_STATUSES),
      /** 0 for a first try, n for the n-th retry (the bank's attempt_number). */
      attemptNumber: z.number().int(),
      willRetry: z.boolean(),
    })
    .nullable(),
  /** Attempts made in the window, and of them those the receiver took (status `sent`). */
  attempts: z.number().int().min(0),
  delivered: z.number().int().min(0),
  /** Attempts in the window that were retries (attempt_number above 0). */
  retries: z.number().int().min(0),
  /**
   * Notifications whose latest attempt says another is scheduled, and when the oldest of them
   * was last tried. The bank does not publish its backoff schedule (spec §6: "not shown"), so
   * the next try is "after" that time, never a time of its own.
   */
  retrying: z.number().int().min(0),
  retryingSince: z.string().nullable(),
});
export type WebhookDeliveryStats = z.infer<typeof webhookDeliveryStats>;

export const webhookDeliveriesOperations = {
  stats: {
    input: z.strictObject({
      profileId,
      webhookIds: z.array(idText).max(DELIVERY_STATS_MAX_WEBHOOKS),
    }),
    output: z.object({
      stats: z.array(webhookDeliveryStats),
      /** The window's start: 24 hours before it was computed. */
      since: z.string(),
      /** When the send log was last synced; null when never. */
      asOf,
    }),
  },
} as const;
