/**
 * Handlers of the `pendingTransactions` domain: the cached pending transactions of one account,
 * paged and counted, each row with its review.
 */
import type { PendingTransactionQuery, PendingTransactionSort } from '../services/cache/pendingTransactionsTable.ts';
import { withReviews } from '../services/review/reviewColumn.ts';
import type { ParsedInputOf } from '../../shared/ipc/contract.ts';
import type { Handlers } from './handlerTypes.ts';
import { direction, ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

function pendingSort(
  sortBy: 'date' | 'amount' | undefined,
  sortDirection: 'asc' | 'desc' | undefined,
): PendingTransactionSort {
  if (sortBy === 'amount') return sortDirection === 'asc' ? 'smallest' : 'largest';
  return direction(sortDirection);
}

/** The filter of the pending-transactions list, shared by list, count and export. */
export function pendingQueryOf(
  input: Pick<
    ParsedInputOf<'pendingTransactions', 'count'>,
    'profileId' | 'accountId' | 'type' | 'typeSource' | 'search' | 'fromDate' | 'toDate' | 'review'
  >,
): PendingTransactionQuery {
  return {
    profileId: input.profileId,
    accountId: input.accountId,
    ...(input.type === undefined ? {} : { type: input.type }),
    ...(input.typeSource === undefined ? {} : { typeSource: input.typeSource }),
    ...(input.search === undefined || input.search.trim() === '' ? {} : { search: input.search }),
    ...(input.fromDate === undefined ? {} : { fromDate: input.fromDate }),
    ...(input.toDate === undefined ? {} : { toDate: input.toDate }),
    ...(input.review === undefined ? {} : { review: input.review }),
  };
}

export function createPendingTransactionHandlers(
  services: LedgerHandlerServices,
): Pick<Handlers, 'pendingTransactions'> {
  return {
    pendingTransactions: {
      list: (input) => {
        const ledger = ledgerOf(services);
        const page = ledger.cache.pendingTransactions.list({
          ...pendingQueryOf(input),
          sort: pendingSort(input.sortBy, input.sortDirection),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        const rows = page.rows.map((row) => ({ ...row, rowKey: row.row_key }));
        return {
          ...page,
          rows: withReviews(ledger.reviews, input.profileId, 'pending-transaction', rows, (row) => row.row_key),
        };
      },
      count: (input) => {
        const query = pendingQueryOf(input);
        const table = ledgerOf(services).cache.pendingTransactions;
        return { count: table.count(query), asOf: table.asOf(query) };
      },
    },
  };
}
