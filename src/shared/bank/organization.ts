/**
 * Smart Webhook Retries (spec §6.7) as an organization setting. An organization is a bank or
 * a fintech; a fintech's request to turn retries of non-200 answers on stays pending until
 * its bank approves. Sandbox-only: the interface names the setting but not its API.
 */
import { z } from 'zod';

const ORGANIZATION_TYPES = ['bank', 'fintech'] as const;

const SMART_RETRY_STATES = ['on', 'off', 'pending_approval'] as const;

export const organizationSettings = z.looseObject({
  organization_id: z.string().min(1),
  organization_type: z.enum(ORGANIZATION_TYPES),
  /** Only `on` retries a non-200/202 answer; `pending_approval` behaves as `off`. */
  smart_retries: z.enum(SMART_RETRY_STATES),
});
export type OrganizationSettings = z.infer<typeof organizationSettings>;

export const organizationSettingsUpdate = z
  .strictObject({
    organization_type: z.enum(ORGANIZATION_TYPES).optional(),
    /** true asks to turn Smart Webhook Retries on (a fintech's ask waits for its bank). */
    smart_retries: z.boolean().optional(),
  })
  .refine((update) => Object.keys(update).length > 0, { message: 'must change at least one field' })
  .meta({ minProperties: 1 });
export type OrganizationSettingsUpdate = z.infer<typeof organizationSettingsUpdate>;

/** The bank's answer to a fintech's pending request. */
export const smartRetriesApproval = z.strictObject({
  approved: z.boolean(),
});
export type SmartRetriesApproval = z.infer<typeof smartRetriesApproval>;
