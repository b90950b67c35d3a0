/**
 * Account applications: the cached ones (with a status filter), one by id, and the status
 * history observed across syncs.
 */
import { z } from 'zod';
import { ACCOUNT_APPLICATION_STATUSES, OWNERSHIP_TYPES, receivedAccountApplication } from '../../bank/index.ts';
import { reviewColumns, reviewFilterInput } from './reviews.ts';
import {
  asOf,
  cachePage,
  countResult,
  dateRange,
  idText,
  paging,
  profileId,
  searchText,
  sortDirection,
} from '../common.ts';

const ACCOUNT_APPLICATION_SORTS = ['updated_at', 'created_at', 'status'] as const;

export const accountApplicationFilter = {
  profileId,
  status: z.enum(ACCOUNT_APPLICATION_STATUSES).optional(),
  ownershipType: z.enum(OWNERSHIP_TYPES).optional(),
  accountProductId: idText.optional(),
  /** Matches the application, account and product ids, and applicants' names, emails and business names. */
  search: searchText,
  /** Created from (inclusive) and to (exclusive), YYYY-MM-DD. */
  ...dateRange,
  /** The officer's review: unreviewed, cleared, flagged, escalated or changed. */
  review: reviewFilterInput,
};

/** One status seen on one sync: how the history of an application is drawn. */
const accountApplicationVersion = z.object({
  /** As the bank sent it: a status this client does not know is shown as received. */
  status: z.string(),
  /** When this version was fetched (ISO 8601 UTC). */
  observedAt: z.string(),
  /** The application's own updated_at in that version. */
  updatedAt: z.string(),
});

const accountApplicationDetail = z.object({
  /** Null when the application is not in the cache yet (sync it with sync.start). */
  /** With `malformed` when the bank sent it malformed (kept as received, the problem named). */
  application: receivedAccountApplication.nullable(),
  /** Every version fetched, oldest first. */
  history: z.array(accountApplicationVersion),
  asOf,
  source: z.literal('cache'),
});
export type AccountApplicationDetail = z.infer<typeof accountApplicationDetail>;

export const accountApplicationsOperations = {
  list: {
    input: z.strictObject({
      ...accountApplicationFilter,
      sortBy: z.enum(ACCOUNT_APPLICATION_SORTS).optional(),
      sortDirection,
      ...paging,
    }),
    output: cachePage(receivedAccountApplication.extend(reviewColumns)),
  },
  count: { input: z.strictObject(accountApplicationFilter), output: countResult },
  get: { input: z.strictObject({ profileId, id: idText }), output: accountApplicationDetail },
} as const;
