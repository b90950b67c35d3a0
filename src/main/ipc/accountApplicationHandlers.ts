/**
 * Handlers of the `accountApplications` domain: the cached applications, paged and counted with
 * their reviews, and one application with the history of its status.
 */
import type { AccountApplicationQuery, AccountApplicationSort } from '../services/cache/accountApplicationsTable.ts';
import { withReviews } from '../services/review/reviewColumn.ts';
import type { ParsedInputOf } from '../../shared/ipc/contract.ts';
import type { Handlers } from './handlerTypes.ts';
import { direction, ledgerOf, searchOf, type LedgerHandlerServices } from './ledgerAccess.ts';

function applicationSort(
  sortBy: 'updated_at' | 'created_at' | 'status' | undefined,
  sortDirection: 'asc' | 'desc' | undefined,
): AccountApplicationSort {
  if (sortBy === 'status') return sortDirection === 'desc' ? 'status-descending' : 'status-ascending';
  if (sortBy === 'updated_at') return sortDirection === 'asc' ? 'updated-oldest' : 'updated-newest';
  return direction(sortDirection);
}

/** The filter of the applications list, shared by list, count and export. */
export function applicationQueryOf(
  input: Pick<
    ParsedInputOf<'accountApplications', 'count'>,
    'profileId' | 'status' | 'ownershipType' | 'accountProductId' | 'review' | 'search' | 'fromDate' | 'toDate'
  >,
): AccountApplicationQuery {
  return {
    profileId: input.profileId,
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.ownershipType === undefined ? {} : { ownershipType: input.ownershipType }),
    ...(input.accountProductId === undefined ? {} : { accountProductId: input.accountProductId }),
    ...(input.review === undefined ? {} : { review: input.review }),
    ...(input.fromDate === undefined ? {} : { fromDate: input.fromDate }),
    ...(input.toDate === undefined ? {} : { toDate: input.toDate }),
    ...searchOf(input.search),
  };
}

export function createAccountApplicationHandlers(
  services: LedgerHandlerServices,
): Pick<Handlers, 'accountApplications'> {
  return {
    accountApplications: {
      list: (input) => {
        const ledger = ledgerOf(services);
        const page = ledger.cache.accountApplications.list({
          ...applicationQueryOf(input),
          sort: applicationSort(input.sortBy, input.sortDirection),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        return {
          ...page,
          rows: withReviews(ledger.reviews, input.profileId, 'application', page.rows, (row) => row.id),
        };
      },
      count: (input) => ({
        count: ledgerOf(services).cache.accountApplications.count(applicationQueryOf(input)),
        asOf: null,
      }),
      get: ({ profileId, id }) => {
        const table = ledgerOf(services).cache.accountApplications;
        const found = table.get(profileId, id);
        const history = table.history(profileId, id);
        return {
          application: found?.application ?? null,
          history: history.rows.map((version) => ({
            status: version.status,
            observedAt: version.fetchedAt,
            updatedAt: version.updatedAt,
          })),
          asOf: found?.asOf ?? null,
          source: 'cache' as const,
        };
      },
    },
  };
}
