/**
 * The moves the bank allows between statuses: what the sandbox enforces (409 for any other)
 * and what a client plans with (the trigger walks the shortest path to the status asked for).
 * Here, in the bank's shared definitions, so the client learns the bank's rules from the
 * interface, never from the sandbox's implementation.
 */
import type { AccountApplicationStatus } from './accountApplication.ts';
import type { AchStatus } from './ach.ts';

/**
 *   pending -> processing -> sent -> returned
 *   pending | processing -> canceled
 */
export const ACH_TRANSITIONS: Readonly<Record<AchStatus, readonly AchStatus[]>> = {
  pending: ['processing', 'canceled'],
  processing: ['sent', 'canceled'],
  sent: ['returned'],
  returned: [],
  canceled: [],
};

/**
 * Submitted, checked (kyc), decided; approval opens the account. The interface lists the states
 * but not the moves (spec §3.1): these are the sandbox's, which a client may not assume of a
 * real bank beyond what its 409 answers say.
 */
export const ACCOUNT_APPLICATION_TRANSITIONS: Readonly<
  Record<AccountApplicationStatus, readonly AccountApplicationStatus[]>
> = {
  unsubmitted: ['submitted', 'canceled'],
  submitted: ['kyc', 'canceled'],
  kyc: ['processing', 'manual_review', 'rejected', 'canceled'],
  processing: ['approved', 'rejected', 'manual_review'],
  manual_review: ['approved', 'rejected', 'canceled'],
  approved: [],
  rejected: [],
  canceled: [],
};
