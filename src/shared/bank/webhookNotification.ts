/** The notification body the bank POSTs to a webhook's URL (spec §2.6). */
import { z } from 'zod';
import { eventName } from './webhook.ts';

export const NOTIFICATION_OPS = ['create', 'update', 'delete'] as const;

export const webhookNotification = z
  .looseObject({
    event: eventName,
    op: z.enum(NOTIFICATION_OPS),
    id: z.string().min(1),
    url: z.string().min(1),
  })
  .superRefine((notification, context) => {
    if (!notification.event.endsWith('.' + notification.op)) {
      context.addIssue({
        code: 'custom',
        path: ['op'],
        message: `must match the operation of event ${notification.event}`,
      });
    }
  });
export type WebhookNotification = z.infer<typeof webhookNotification>;
