/**
 * Account: not part of the interface's slice, but clients need to discover which accounts
 * have pending transactions. Only the fields a client relies on are required.
 */
import { z } from 'zod';
import { money, timestamp } from './common.ts';
import { responseOf } from './response.ts';

const ACCOUNT_STATUSES = ['open', 'frozen', 'closed'] as const;

export const account = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  account_number: z.string().nullable(),
  status: z.enum(ACCOUNT_STATUSES),
  balance: money,
  available_balance: money,
  /** The sandbox's: the account's currency (USD). */
  currency: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Account = z.infer<typeof account>;

/** `currency` is known (the sandbox sends it) but not expected of a bank. */
export const accountResponse = responseOf({ record: account, required: ['id'], extras: ['currency'] });
export type AccountResponse = z.output<typeof accountResponse.schema>;
