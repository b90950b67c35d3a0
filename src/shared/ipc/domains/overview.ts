/**
 * The Overview screen of a profile: where the officer stands and how the bank's traffic looks,
 * as numbers computed by SQL in main (never rows shipped to the window):
 * - review progress: reviewed of total per kind, by state, and the dispositions of each of
 *   the last 30 days;
 * - pending volume and amount by bank date per account, credits, debits and holds apart, for
 *   the 30 days ending at the newest cached date;
 * - webhook delivery success rate and retries per webhook, over 24 hours and 7 days;
 * - how fresh each cached list is.
 */
import { z } from 'zod';
import { isoDate } from '../../bank/index.ts';
import { profileId } from '../common.ts';
import { reviewKind } from './reviews.ts';

const count = z.number().int().min(0);
/** A sum of whole cents (either sign); a million rows of the bank's amounts stay well inside 2^53. */
const cents = z.number().int();

export const OVERVIEW_DAYS = 30;

const reviewProgress = z.object({
  kind: reviewKind,
  /** Items of this kind in the cache. */
  total: count,
  cleared: count,
  flaggedByPerson: count,
  escalated: count,
  /** Reviewed, then changed at the bank since: waiting for a person again. */
  changed: count,
  flaggedByRule: count,
  /** Nobody's review: total less every review of a cached item. */
  unreviewed: count,
});
export type ReviewProgress = z.infer<typeof reviewProgress>;

const reviewDay = z.object({ date: isoDate, cleared: count, flagged: count, escalated: count });
export type ReviewDay = z.infer<typeof reviewDay>;

const flow = z.object({ count, cents });
const pendingDay = z.object({ date: isoDate, credits: flow, debits: flow, holds: flow });
export type PendingDay = z.infer<typeof pendingDay>;

const pendingAccount = z.object({ accountId: z.string(), days: z.array(pendingDay) });
export type PendingAccount = z.infer<typeof pendingAccount>;

const deliveries = z.object({ sent: count, failed: count, skipped: count, retries: count });
export type Deliveries = z.infer<typeof deliveries>;

const webhookDeliveries = z.object({
  webhookId: z.string(),
  /** The event the webhook is for, when the webhook itself is cached. */
  event: z.string().nullable(),
  day: deliveries,
  week: deliveries,
});
export type WebhookDeliveries = z.infer<typeof webhookDeliveries>;

const LIST_KINDS = ['pending-transactions', 'webhook-sends', 'applications', 'webhooks'] as const;

const listFreshness = z.object({
  list: z.enum(LIST_KINDS),
  /** What of the list: an account id for pending transactions, else null (the whole list). */
  scope: z.string().nullable(),
  /** When a sync of it last completed; null: not synced yet. */
  syncedAt: z.string().nullable(),
  /** The last sync's own state (a sync may be running or have failed since). */
  lastState: z.enum(['running', 'done', 'cancelled', 'failed']).nullable(),
  rows: count,
});
export type ListFreshness = z.infer<typeof listFreshness>;

export const overviewData = z.object({
  /** When these figures were read ("now" for the 24-hour and 7-day windows). */
  readAt: z.string(),
  progress: z.array(reviewProgress),
  /** The last 30 days (UTC), oldest first, each day present even when empty. */
  reviewDays: z.array(reviewDay),
  /** The 30 bank dates ending at the newest cached one; null when nothing is cached. */
  pendingWindow: z.object({ from: isoDate, to: isoDate }).nullable(),
  pendingByAccount: z.array(pendingAccount),
  deliveries: z.array(webhookDeliveries),
  freshness: z.array(listFreshness),
});
export type OverviewData = z.infer<typeof overviewData>;

export const overviewOperations = {
  /** Every figure of the Overview screen for one profile, from the offline cache. */
  get: { input: z.strictObject({ profileId }), output: overviewData },
} as const;
