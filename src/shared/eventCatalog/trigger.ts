/**
 * What `ledger trigger` and the Trigger panel ask for, and what they get back: the event to
 * cause, the objects to cause it on (each optional: sensible defaults are chosen), and the
 * result — the object as the bank now has it and the notifications the change caused.
 */
import { z } from 'zod';
import { ACCOUNT_APPLICATION_STATUSES, ACH_STATUSES, idOf, money, webhookNotification } from '../bank/index.ts';
import { TRIGGERABLE_EVENTS, type TriggerableEvent } from './eventCatalog.ts';

export const triggerParameters = z.strictObject({
  accountId: idOf('account').optional(),
  applicationId: idOf('accountApplication').optional(),
  webhookId: idOf('webhook').optional(),
  achId: idOf('ach').optional(),
  /**
   * Where to move the object: an ACH or application status, or error/enabled for a webhook;
   * which ones depends on the event (TRIGGER_STATUS_CHOICES, checked with it in triggerRequest).
   */
  status: z.string().min(1, { message: 'must not be empty' }).max(40).optional(),
  /** For ach.create and account.update: the amount (default 25.00). */
  amount: money
    .refine((amount) => !amount.startsWith('-') && /[1-9]/.test(amount), { message: 'must be greater than 0.00' })
    .optional(),
});
export type TriggerParameters = z.infer<typeof triggerParameters>;

export const triggerEvent = z.enum(TRIGGERABLE_EVENTS, {
  message: `must be one of ${TRIGGERABLE_EVENTS.join(', ')}`,
});

export type TriggerField = keyof TriggerParameters;

/** The parameters each event reads; any other is refused rather than silently ignored. */
export const TRIGGER_FIELDS: Readonly<Record<TriggerableEvent, readonly TriggerField[]>> = {
  'ach.create': ['accountId', 'amount'],
  // Without achId, an ACH is created first: on accountId, for amount.
  'ach.update': ['achId', 'status', 'accountId', 'amount'],
  'account.update': ['accountId', 'amount'],
  'account_application.create': [],
  'account_application.update': ['applicationId', 'status'],
  'document.create': [],
  'file.create': [],
  'webhook.update': ['webhookId', 'status'],
};

/** Where each event's `status` can move its object (an initial status is never a move's end). */
export const TRIGGER_STATUS_CHOICES: Readonly<Partial<Record<TriggerableEvent, readonly string[]>>> = {
  'ach.update': ACH_STATUSES.filter((status) => status !== 'pending'),
  'account_application.update': ACCOUNT_APPLICATION_STATUSES.filter((status) => status !== 'unsubmitted'),
  'webhook.update': ['error', 'enabled'],
};

/**
 * What does not fit the event: a parameter it does not read, a status its object cannot move
 * to. `isLiteral` tells a value to check from one resolved later (a scenario's reference).
 */
export function triggerFieldProblems(
  event: TriggerableEvent,
  parameters: Readonly<Partial<Record<TriggerField, unknown>>>,
  isLiteral: (value: unknown) => boolean = () => true,
): { field: TriggerField; message: string }[] {
  const reads = TRIGGER_FIELDS[event];
  const problems: { field: TriggerField; message: string }[] = [];
  for (const [field, value] of Object.entries(parameters) as [TriggerField, unknown][]) {
    if (value === undefined) continue;
    if (!reads.includes(field)) {
      problems.push({
        field,
        message: `is not used by ${event} (${reads.length === 0 ? 'it takes no parameter' : `it reads ${reads.join(', ')}`})`,
      });
    }
  }
  const choices = TRIGGER_STATUS_CHOICES[event];
  const status = parameters.status;
  if (choices !== undefined && typeof status === 'string' && isLiteral(status) && !choices.includes(status)) {
    problems.push({ field: 'status', message: `must be one of ${choices.join(', ')} for ${event}` });
  }
  return problems;
}

export const triggerRequest = triggerParameters.extend({ event: triggerEvent }).superRefine((request, context) => {
  const { event, ...parameters } = request;
  for (const problem of triggerFieldProblems(event, parameters)) {
    context.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  }
});
export type TriggerRequest = z.infer<typeof triggerRequest>;

/** One request the trigger made of the bank, for the user to see (and repeat with curl). */
const triggerCall = z.object({
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
