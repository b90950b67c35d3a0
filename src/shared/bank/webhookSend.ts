/** One attempt to deliver a notification (spec §2.7) and the filters of its list (§4.5). */
import { z } from 'zod';
import { timestamp } from './common.ts';
import { responseOf } from './response.ts';

export const WEBHOOK_SEND_STATUSES = ['sent', 'skipped', 'error'] as const;
export type WebhookSendStatus = (typeof WEBHOOK_SEND_STATUSES)[number];

/** Up to 15 retries after the first attempt (spec §6.6). */
export const WEBHOOK_MAX_RETRIES = 15;

export const webhookSend = z.looseObject({
  id: z.string().min(1),
  webhook_id: z.string(),
  object_id: z.string(),
  /** The event that was being delivered, e.g. ach.update; the real service includes it. */
  event: z.string().optional(),
  operation: z.string(),
  status: z.enum(WEBHOOK_SEND_STATUSES),
  /** Number of prior attempts made for this event: 0 on the first try. */
  attempt_number: z.number().int().min(0),
  will_retry: z.boolean(),
  /** Failure reason when status is error. */
  error: z.string().nullable(),
  created_at: timestamp.optional(),
});
export type WebhookSend = z.infer<typeof webhookSend>;

export const webhookSendFilters = z.strictObject({
  object_id: z.string().min(1).optional(),
  webhook_id: z.string().min(1).optional(),
  status: z.enum(WEBHOOK_SEND_STATUSES).optional(),
});
export type WebhookSendFilters = z.infer<typeof webhookSendFilters>;

export const webhookSendResponse = responseOf({ record: webhookSend, required: ['id'] });
export type WebhookSendResponse = z.output<typeof webhookSendResponse.schema>;
