/**
 * The officer's record (issue 34, item 5): how long a profile's reviews are kept, the legal
 * hold that suspends every purge, and the purge itself (Settings → Record, as `ledger record …`).
 */
import { z } from 'zod';
import { noInput, profileId } from '../common.ts';

const legalHold = z.object({ reason: z.string(), placedAt: z.string() });

const retention = z.object({
  /** Years after its review that a review is kept (five unless set). */
  years: z.number().int().min(1).max(100),
  hold: legalHold.nullable(),
});
export type RetentionView = z.infer<typeof retention>;

export const recordOperations = {
  retention: { input: z.strictObject({ profileId }), output: retention },
  setRetention: {
    input: z.strictObject({ profileId, years: z.number().int().min(1).max(100) }),
    output: retention,
  },
  placeHold: { input: z.strictObject({ reason: z.string().trim().min(1).max(500) }), output: legalHold },
  liftHold: { input: noInput, output: z.object({ lifted: z.boolean() }) },
  /** Purges the profile's reviews past their retention (audited; refused under a hold). */
  purge: {
    input: z.strictObject({ profileId }),
    output: z.object({ purged: z.number().int().min(0), cutoff: z.string(), years: z.number().int() }),
  },
} as const;
