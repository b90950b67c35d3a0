/**
 * The officer's one queue (Review queue screen, `ledger review list`): every item of a profile
 * waiting for a person, across every account and kind, in parts (changed, flagged by a person,
 * flagged by a rule, escalated, unreviewed, cleared), with counts by part, kind and account.
 * Account, dates and amounts are a pending transaction's: any of them keeps pending
 * transactions only. Amounts are whole cents of either sign (a debit of 500.00 is 50000).
 */
import { z } from 'zod';
import { QUEUE_STATES } from '../../review/queueTerms.ts';
import { cachePage, idText, paging, profileId, SHORT_TEXT_MAX } from '../common.ts';
import { isoDate } from '../../bank/index.ts';
import { accountNaming, itemNames, reviewKind, reviewSummary } from './reviews.ts';

const cents = z
  .number()
  .int({ message: 'must be a whole number of cents' })
  .min(0, { message: 'must be zero or more' })
  .max(Number.MAX_SAFE_INTEGER, { message: 'is too large' });

const queueFilter = {
  profileId,
  kind: reviewKind.optional(),
  accountId: idText.optional(),
  ruleName: z.string().min(1).max(SHORT_TEXT_MAX).optional(),
  /** A pending transaction's time: from (inclusive) and to (exclusive). */
  fromDate: isoDate.optional(),
  toDate: isoDate.optional(),
  minAmountCents: cents.optional(),
  maxAmountCents: cents.optional(),
};

const queueState = z.enum(QUEUE_STATES);

const stateCounts = z.object(
  Object.fromEntries(QUEUE_STATES.map((state) => [state, z.number().int().min(0)])) as Record<
    (typeof QUEUE_STATES)[number],
    z.ZodNumber
  >,
);

const queueItem = z.object({
  kind: reviewKind,
  ref: z.string(),
  accountId: z.string().nullable(),
  state: queueState,
  review: reviewSummary.nullable(),
  record: z.unknown(),
  /** Who or what it is, from the cache: the account's name, the applicants' names (issue 38). */
  names: itemNames.optional(),
});
export type QueueItem = z.infer<typeof queueItem>;

const queueCounts = z.object({
  states: stateCounts,
  kinds: z.object({
    'pending-transaction': stateCounts,
    application: stateCounts,
    'webhook-send': stateCounts,
    'screening-hit': stateCounts,
  }),
  accounts: z.array(z.object({ accountId: z.string(), states: stateCounts })),
  openOn: queueState.nullable(),
  /** Accounts with cached pending transactions (the account filter's choices). */
  accountIds: z.array(z.string()),
  /** How each of those accounts is named (absent: not named in the cache yet). */
  accountNames: z.array(accountNaming).optional(),
});
export type QueueCounts = z.infer<typeof queueCounts>;

export const reviewQueueOperations = {
  /** A page of one part of the queue, across accounts and kinds. */
  list: {
    input: z.strictObject({ ...queueFilter, state: queueState, ...paging }),
    output: cachePage(queueItem),
  },
  /** How many items wait in each part, by kind and by account, and the part to open on. */
  counts: { input: z.strictObject(queueFilter), output: queueCounts },
} as const;
