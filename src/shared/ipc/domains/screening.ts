/**
 * Sanctions screening (issue 40): the lists loaded and the screening of a profile's cached
 * applicants against them (Settings → Screening, as `ledger screening lists|run`). Importing
 * a list is on the command line for now (`ledger screening import FILE`): the window has no
 * open-file dialog over the bridge yet. A run keeps its hits as review items (kind
 * `screening-hit`, reviewed through `reviews.*` like any item); `kept` says what it kept.
 */
import { z } from 'zod';
import { noInput, profileId } from '../common.ts';

const listSource = z.enum(['ofac-sdn', 'ofac-consolidated', 'opensanctions']);

const listVersion = z.object({
  source: listSource,
  format: z.string(),
  /** YYYY-MM-DD; null when the file did not say (a CSV set imported without a date). */
  publishedAt: z.string().nullable(),
  digest: z.string(),
  entryCount: z.number().int().nonnegative(),
  importedAt: z.string(),
});
export type ListVersionView = z.infer<typeof listVersion>;

const screeningHit = z.object({
  applicantId: z.string(),
  applicantKind: z.enum(['person', 'business']),
  /** As the app shows applicants (names are not masked). */
  applicantName: z.string(),
  source: listSource,
  entry: z.object({ uid: z.string(), name: z.string(), kind: z.string(), programs: z.array(z.string()) }),
  score: z.number().min(0).max(1),
  /** The score's parts in words, the applicant's date of birth masked. */
  words: z.array(z.string()),
});

const screeningRun = z.object({
  threshold: z.number(),
  lists: z.array(listVersion),
  screened: z.number().int().nonnegative(),
  hits: z.array(screeningHit),
  kept: z.object({
    new: z.number().int().nonnegative(),
    back: z.number().int().nonnegative(),
    again: z.number().int().nonnegative(),
    noMatch: z.number().int().nonnegative(),
  }),
});
export type ScreeningRunView = z.infer<typeof screeningRun>;

export const screeningOperations = {
  lists: { input: noInput, output: z.object({ lists: z.array(listVersion) }) },
  /** The profile's cached applicants against every loaded list (the default threshold unless given). */
  run: {
    input: z.strictObject({ profileId, threshold: z.number().min(0).max(1).optional() }),
    output: screeningRun,
  },
} as const;
