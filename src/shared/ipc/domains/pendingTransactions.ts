/**
 * Pending transactions of one account, answered from the cache: filters, sort, keyset
 * paging, counts and free-text search over `desc` and `summary`.
 */
import { z } from 'zod';
import {
  accountResponse,
  PENDING_TRANSACTION_TYPE_SOURCES,
  PENDING_TRANSACTION_TYPES,
  pendingTransactionResponse,
} from '../../bank/index.ts';
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
import { reviewColumns, reviewFilterInput } from './reviews.ts';

const PENDING_TRANSACTION_SORTS = ['date', 'amount'] as const;

/** The filter every read of the list shares (list, count, export). */
export const pendingTransactionFilter = {
  profileId,
  accountId: idText,
  type: z.enum(PENDING_TRANSACTION_TYPES).optional(),
  typeSource: z.enum(PENDING_TRANSACTION_TYPE_SOURCES).optional(),
  ...dateRange,
  /** Matches words of `desc` and `summary`. */
  search: searchText,
  /** The officer's review: unreviewed, cleared, flagged, escalated or changed. */
  review: reviewFilterInput,
};

const pendingTransactionListInput = z.strictObject({
  ...pendingTransactionFilter,
  /** Newest first (date, desc) unless told otherwise. */
  sortBy: z.enum(PENDING_TRANSACTION_SORTS).optional(),
  sortDirection,
  ...paging,
});

/**
 * A cached row: the bank's transaction (extra fields kept) plus `rowKey`, a stable key
 * chosen by the cache, since pending transactions have no id of their own.
 */
const cachedPendingTransaction = pendingTransactionResponse.object.extend({
  rowKey: z.string().optional(),
  ...reviewColumns,
});

export const pendingTransactionsOperations = {
  list: { input: pendingTransactionListInput, output: cachePage(cachedPendingTransaction) },
  count: { input: z.strictObject(pendingTransactionFilter), output: countResult },
} as const;

/** Accounts of a profile: the account picker of the pending-transactions screen. */
export const accountsOperations = {
  /** The bank's accounts (asks the bank: fails offline, with code `offline`). */
  list: {
    input: z.strictObject({ profileId }),
    output: z.object({ rows: z.array(accountResponse.object), asOf, source: z.enum(['cache', 'bank']) }),
  },
  /** Ids of the accounts with cached pending transactions: the picker when offline. */
  cached: {
    input: z.strictObject({ profileId }),
    output: z.object({ accountIds: z.array(z.string()), source: z.literal('cache') }),
  },
} as const;
