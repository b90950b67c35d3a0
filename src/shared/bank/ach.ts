/** ACH transfer: the object the sandbox's simulations move through its statuses. */
import { z } from 'zod';
import { money, timestamp } from './common.ts';

export const ACH_STATUSES = ['pending', 'processing', 'sent', 'returned', 'canceled'] as const;
export type AchStatus = (typeof ACH_STATUSES)[number];

export const ach = z.looseObject({
  id: z.string().min(1),
  account_id: z.string(),
  amount: money,
  direction: z.enum(['credit', 'debit']),
  status: z.enum(ACH_STATUSES),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Ach = z.infer<typeof ach>;
