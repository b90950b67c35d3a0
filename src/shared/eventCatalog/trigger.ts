/**
 * What `ledger trigger` and the Trigger panel ask for, and what they get back: the event to
 * cause, the objects to cause it on (each optional: sensible defaults are chosen), and the
 * result — the object as the bank now has it and the notifications the change caused.
 */
import { z } from 'zod';
import { ACCOUNT_APPLICATION_STATUSES, ACH_STATUSES, idOf, money, webhookNotification } from '../bank/index.ts';
import { TRIGGERABLE_EVENTS } from './eventCatalog.ts';

/** The statuses a trigger can move to: an ACH's, an application's, or a webhook's (error / enabled). */
export const TRIGGER_STATUSES = [
  ...new Set<string>([...ACH_STATUSES, ...ACCOUNT_APPLICATION_STATUSES, 'error', 'enabled']),
] as const;

export const triggerParameters = z.strictObject({
  accountId: idOf('account').optional(),
  applicationId: idOf('accountApplication').optional(),
  webhookId: idOf('webhook').optional(),
  achId: idOf('ach').optional(),
  /** Where to move the object: an ACH or application status, or error/enabled for a webhook. */
  status: z
    .string()
    .refine((status) => TRIGGER_STATUSES.includes(status), {
      message: `must be one of ${TRIGGER_STATUSES.join(', ')}`,
    })
    .optional(),
  /** For ach.create and account.update: the amount (default 25.00). */
  amount: money
    .refine((amount) => !amount.startsWith('-') && /[1-9]/.test(amount), { message: 'must be greater than 0.00' })
    .optional(),
});
export type TriggerParameters = z.infer<typeof triggerParameters>;

export const triggerEvent = z.enum(TRIGGERABLE_EVENTS, {
  message: `must be one of ${TRIGGERABLE_EVENTS.join(', ')}`,
});

export const triggerRequest = triggerParameters.extend({ event: triggerEvent });
export type TriggerRequest = z.infer<typeof triggerRequest>;

/** One request the trigger made of the bank, for the user to see (and repeat with curl). */
export const triggerCall = z.object({
  request: z.string(),
  outcome: z.string(),
});
export type TriggerCall = z.infer<typeof triggerCall>;

export const triggerResult = z.object({
  event: z.string(),
  profileName: z.string(),
  objectId: z.string(),
  /** The object as the bank answers GET for it after the change. */
  object: z.record(z.string(), z.unknown()),
  /** The notifications the change caused, as the bank sends them to subscribed webhooks. */
  caused: z.array(webhookNotification),
  calls: z.array(triggerCall),
});
export type TriggerResult = z.infer<typeof triggerResult>;
