/**
 * Bank compatibility (issue 14, item 3): what a profile's bank left out of its answers and
 * what it sent that the interface does not list, per resource. Field names and counts only.
 */
import { z } from 'zod';
import { profileId } from '../common.ts';

const fieldCount = z.object({
  field: z.string(),
  /** Records that left the field out (missing) or carried it (unknown). */
  count: z.number().int().nonnegative(),
});

const resourceDrift = z.object({
  /** In the bank's words: `document`, `pending_transaction`, or `<resource> list` for a list's envelope. */
  resource: z.string(),
  records: z.number().int().nonnegative(),
  missing: z.array(fieldCount),
  unknown: z.array(fieldCount),
  /** Fields records carried in a form the interface does not allow (those records kept as received). */
  malformed: z.array(fieldCount).optional(),
  /** Field names let go, the oldest first, to keep the counts bounded (security review I8). */
  droppedNames: z.number().int().nonnegative().optional(),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type ResourceDrift = z.infer<typeof resourceDrift>;

const driftReport = z.object({
  profileId: z.string(),
  resources: z.array(resourceDrift),
  /** When the counts began; null when nothing was read yet. */
  since: z.string().nullable(),
});
export type DriftReport = z.infer<typeof driftReport>;

export const driftOperations = {
  /** The counts of a profile's bank. */
  report: { input: z.strictObject({ profileId }), output: driftReport },
  /** Starts a profile's counts over (after the bank changed, to measure from now). */
  reset: { input: z.strictObject({ profileId }), output: driftReport },
} as const;
