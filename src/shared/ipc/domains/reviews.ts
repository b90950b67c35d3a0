/**
 * The officer's review: dispositions and notes on cached items, their history and what changed
 * since, the queue of reviews, watch rules, the reviewer's name, and the review report (saved
 * as PDF, HTML or CSV where the user chooses). List rows of the other domains carry `ref` and
 * `review` (reviewSummary), and their filters take `review` (reviewFilterInput).
 */
import { z } from 'zod';
import {
  DISPOSITIONS,
  NOTE_MAX,
  REVIEW_FILTERS,
  REVIEW_KINDS,
  REVIEW_REASONS,
  REVIEW_STATES,
} from '../../review/reviewTerms.ts';
import { watchRule } from '../../review/watchRule.ts';
import { cachePage, noInput, paging, profileId, savedFile, SHORT_TEXT_MAX } from '../common.ts';
import { isoDate } from '../../bank/index.ts';

/** The most items one disposition covers (a selection). */
const SELECTION_MAX = 10_000;

export const reviewKind = z.enum(REVIEW_KINDS);
export const reviewFilterInput = z.enum(REVIEW_FILTERS).optional();

/** A ref: a pending transaction's row key, a send's id or notification ref, an application's id. */
const ref = z.string().min(1, { message: 'must not be empty' }).max(600, { message: 'must be at most 600 characters' });

const fieldChange = z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() });

export const reviewSummary = z.object({
  kind: reviewKind,
  ref: z.string(),
  state: z.enum(REVIEW_STATES),
  disposition: z.enum(DISPOSITIONS).nullable(),
  byRule: z.string().nullable(),
  note: z.string().nullable(),
  reviewer: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  updatedAt: z.string(),
  changes: z.array(fieldChange),
  version: z.number().int(),
});
export type ReviewSummary = z.infer<typeof reviewSummary>;

/** An account as the cache names it: its name and the last four digits of its number (issue 38). */
export const accountNaming = z.object({ id: z.string(), name: z.string().nullable(), lastFour: z.string().nullable() });

/** An applicant as an application names it: kind, roles there, and its name once fetched. */
const applicantNaming = z.object({
  kind: z.enum(['person', 'business']),
  roles: z.array(z.string()),
  name: z.string().nullable(),
});

/** What the cache knows of an item's names beside its record (shared/review/itemNames.ts). */
export const itemNames = z.object({
  account: accountNaming.nullable().optional(),
  applicants: z.array(applicantNaming).nullable().optional(),
});

/** What list rows of the reviewable kinds carry beside the bank's record. */
export const reviewColumns = {
  ref: z.string().optional(),
  review: reviewSummary.nullable().optional(),
  /** Who or what the row is, from the cache (accounts, applicants): names first, ids second. */
  names: itemNames.optional(),
};

const reviewStep = z.object({
  version: z.number().int(),
  at: z.string(),
  state: z.enum(REVIEW_STATES),
  byRule: z.string().nullable(),
  note: z.string().nullable(),
  reviewer: z.string().nullable(),
  changes: z.array(fieldChange),
});

const reviewDetail = z.object({
  review: reviewSummary.nullable(),
  history: z.array(reviewStep),
  reviewedRecord: z.unknown(),
  cachedRecord: z.unknown(),
});
export type ReviewDetail = z.infer<typeof reviewDetail>;

const listedReview = reviewSummary.extend({ accountId: z.string().nullable(), record: z.unknown() });

const stateCounts = z.object(
  Object.fromEntries(REVIEW_STATES.map((state) => [state, z.number().int().min(0)])) as Record<
    (typeof REVIEW_STATES)[number],
    z.ZodNumber
  >,
);

const reviewer = z.object({ name: z.string(), source: z.enum(['os', 'settings']) });

export const reviewsOperations = {
  /** One disposition (and note) on every item given; all or nothing. */
  give: {
    input: z.strictObject({
      profileId,
      kind: reviewKind,
      refs: z
        .array(ref)
        .min(1, { message: 'select at least one item' })
        .max(SELECTION_MAX, { message: `one disposition covers at most ${String(SELECTION_MAX)} items` }),
      disposition: z.enum(DISPOSITIONS),
      note: z
        .string()
        .max(NOTE_MAX * 2, { message: `must be at most ${String(NOTE_MAX)} characters` })
        .optional(),
      /** `no-match`: a screening hit cleared as not the listed party (whitelists the pair). */
      reason: z.enum(REVIEW_REASONS).optional(),
    }),
    output: z.object({ rows: z.array(reviewSummary) }),
  },
  /** An item's review, its history, and the record as reviewed and as cached now. */
  detail: { input: z.strictObject({ profileId, kind: reviewKind, ref }), output: reviewDetail },
  /** Reviews, most recently moved first. */
  list: {
    input: z.strictObject({
      profileId,
      kind: reviewKind.optional(),
      state: z.enum(REVIEW_STATES).optional(),
      fromDate: isoDate.optional(),
      toDate: isoDate.optional(),
      ...paging,
    }),
    output: cachePage(listedReview),
  },
  /** How many reviews of a kind are in each state. */
  counts: { input: z.strictObject({ profileId, kind: reviewKind }), output: stateCounts },
  rules: {
    input: z.strictObject({ profileId }),
    output: z.object({ rows: z.array(watchRule) }),
  },
  saveRule: { input: z.strictObject({ profileId, rule: watchRule }), output: watchRule },
  removeRule: {
    input: z.strictObject({ profileId, name: z.string().min(1).max(SHORT_TEXT_MAX) }),
    output: z.object({ removed: z.literal(true) }),
  },
  reviewer: { input: noInput, output: reviewer },
  /** Sets the reviewer's name; null goes back to the OS user name. */
  setReviewer: {
    input: z.strictObject({ name: z.string().max(SHORT_TEXT_MAX).nullable() }),
    output: reviewer,
  },
  /** The review report, saved where the user chooses: PDF (Chromium's printing), HTML or CSV. */
  saveReport: {
    input: z.strictObject({
      profileId,
      fromDate: isoDate.optional(),
      toDate: isoDate.optional(),
      format: z.enum(['pdf', 'html', 'csv']),
      /** The paper the PDF (and the HTML's print) is laid out for; the machine's usual one by default. */
      paper: z.enum(['a4', 'letter']).optional(),
      /** The zone the report's times are in (the window's own); the machine's by default. */
      timeZone: z.string().min(1).max(64).optional(),
    }),
    output: savedFile,
  },
} as const;
