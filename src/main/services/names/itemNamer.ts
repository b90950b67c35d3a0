/**
 * Names first, ids second (issue 38): the names the cache knows for a page of items, read once
 * per page: the profile's accounts (cache/accountsTable.ts) and the applicants of the page's
 * applications (cache/applicantsTable.ts). Every surface that shows items (the lists, the queue,
 * the Overview, the report) asks here, so an item is named the same everywhere.
 */
import type { AccountNaming, ApplicantNaming, ItemNames } from '../../../shared/review/itemNames.ts';
import type { ReviewKind } from '../../../shared/review/reviewTerms.ts';
import { applicantNameOf } from '../applicants/applicantExport.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';

export interface NamedItem {
  kind: ReviewKind;
  ref: string;
  /** The item's account, when it has one (a pending transaction's, an application's). */
  accountId: string | null;
}

export class ItemNamer {
  readonly #cache: OfflineCache;

  constructor(cache: OfflineCache) {
    this.#cache = cache;
  }

  /** The profile's accounts as named (by id). */
  accounts(profileId: string): Map<string, AccountNaming> {
    return this.#cache.accounts.names(profileId);
  }

  /** The applicants of each application (by id), and those a search's words match. */
  applicants(
    profileId: string,
    applicationIds: readonly string[],
    search?: string,
  ): Map<string, { applicants: ApplicantNaming[]; matched: ApplicantNaming[] }> {
    return this.#cache.applicants.namingsOf(profileId, applicationIds, applicantNameOf, search);
  }

  /** The names of each item, in order. */
  ofItems(profileId: string, items: readonly NamedItem[]): ItemNames[] {
    const accounts = this.accounts(profileId);
    const applications = this.applicants(
      profileId,
      items.filter((item) => item.kind === 'application').map((item) => item.ref),
    );
    return items.map((item) => ({
      ...(item.accountId === null ? {} : { account: accounts.get(item.accountId) ?? null }),
      ...(item.kind === 'application' ? { applicants: applications.get(item.ref)?.applicants ?? null } : {}),
    }));
  }
}
