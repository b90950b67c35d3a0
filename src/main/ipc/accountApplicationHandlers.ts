/**
 * Handlers of the `accountApplications` domain: the cached applications, paged and counted with
 * their reviews, and one application with the history of its status.
 */
import type { AccountApplicationQuery, AccountApplicationSort } from '../services/cache/accountApplicationsTable.ts';
import { withReviews } from '../services/review/reviewColumn.ts';
import type { ParsedInputOf } from '../../shared/ipc/contract.ts';
import { applicantWithRoles, type ApplicantNaming } from '../../shared/review/itemNames.ts';
import { ItemNamer } from '../services/names/itemNamer.ts';
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

/** What a search matched in an application, in words: the applicants by name and role, else which id. */
function matchedWords(
  row: { id: string; account_id?: unknown; account_product_id?: unknown },
  search: string,
  applicants: readonly ApplicantNaming[],
): string[] {
  if (applicants.length > 0) return applicants.map(applicantWithRoles);
  const needle = search.toLowerCase();
  const hits = (value: unknown): boolean => typeof value === 'string' && value.toLowerCase().includes(needle);
  if (hits(row.id)) return ["the application's id"];
  if (hits(row.account_id)) return ["the account's id"];
  if (hits(row.account_product_id)) return ["the product's id"];
  return ["an applicant's id"];
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
        const rows = withReviews(ledger.reviews, input.profileId, 'application', page.rows, (row) => row.id);
        // Names first (issue 38): who applied and on which account, and what a search matched.
        const namer = new ItemNamer(ledger.cache);
        const accounts = namer.accounts(input.profileId);
        const search = input.search?.trim();
        const applicants = namer.applicants(
          input.profileId,
          rows.map((row) => row.id),
          search,
        );
        return {
          ...page,
          rows: rows.map((row) => {
            const named = applicants.get(row.id);
            const accountId = typeof row.account_id === 'string' ? row.account_id : null;
            return {
              ...row,
              names: {
                applicants: named?.applicants ?? [],
                ...(accountId === null ? {} : { account: accounts.get(accountId) ?? null }),
              },
              ...(search === undefined || search === ''
                ? {}
                : { matched: matchedWords(row, search, named?.matched ?? []) }),
            };
          }),
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
        const accountId = typeof found?.application.account_id === 'string' ? found.application.account_id : null;
        const [names] = new ItemNamer(ledgerOf(services).cache).ofItems(profileId, [
          { kind: 'application', ref: id, accountId },
        ]);
        return {
          application: found?.application ?? null,
          ...(found === null || names === undefined ? {} : { names }),
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
