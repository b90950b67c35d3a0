/**
 * The team's name of an item: what every laptop of one team computes alike for one bank record.
 *
 * Applications and webhook sends carry the bank's own id, the same on every laptop. A pending
 * transaction has none: each laptop names it with a digest keyed by its own data key (and its
 * own random profile id), so two officers' laptops name one transaction differently. Its team
 * name is `pt_` and an HMAC-SHA-256 of its account and record under a key derived from the
 * team's first key (teamKey.ts, "record digests v1"): the same on every laptop of the team,
 * unreadable to the server, stable across key rotations.
 *
 * An officer may name a pending transaction by this laptop's ref (what the list and `ledger
 * review list` show): it is looked up in the profile the workspace maps to and renamed before the
 * action is signed; a ref that profile does not hold is refused. A team name is taken as it is,
 * and so is any ref on a laptop whose workspace maps to no profile (it holds no records to name).
 */
import type { ReviewKind } from '../../../shared/review/reviewTerms.ts';
import type { TeamKeyring } from './crypto/teamKey.ts';
import { TeamProblem } from './teamProblem.ts';

/** What the laptop's cache answers about its own records (ReviewedRecords.find). */
export interface LocalRecords {
  find(
    profileId: string,
    kind: ReviewKind,
    refs: readonly string[],
  ): ReadonlyMap<string, { record: unknown; accountId: string | null }>;
}

const TEAM_PENDING_REF = /^pt_[A-Za-z0-9_-]{43}$/;

export function isTeamPendingRef(ref: string): boolean {
  return TEAM_PENDING_REF.test(ref);
}

/** A pending transaction's team name, from its account and its record as the bank gave it. */
export function teamPendingRef(keyring: TeamKeyring, accountId: string, record: unknown): string {
  return `pt_${keyring.itemDigest(`pending transaction: ${accountId}: ${JSON.stringify(record)}`)}`;
}

export class TeamItemNames {
  readonly #records: LocalRecords | null;
  readonly #profileId: () => string | null;
  readonly #keyring: () => Promise<TeamKeyring>;

  constructor(options: {
    records: LocalRecords | null;
    profileId: () => string | null;
    keyring: () => Promise<TeamKeyring>;
  }) {
    this.#records = options.records;
    this.#profileId = options.profileId;
    this.#keyring = options.keyring;
  }

  /** The team's ref of an item this laptop names `ref`. */
  async teamRef(kind: ReviewKind, ref: string): Promise<string> {
    if (kind !== 'pending-transaction' || isTeamPendingRef(ref)) return ref;
    const profileId = this.#profileId();
    // No profile mapped to the workspace: this laptop holds none of the team's records to name.
    if (this.#records === null || profileId === null) return ref;
    const found = this.#records.find(profileId, kind, [ref]).get(ref);
    if (found?.accountId === null || found === undefined)
      throw new TeamProblem(
        'invalid',
        `This laptop's cache holds no pending transaction ${ref} in the team's profile: sync it, or use the team's ref (pt_…).`,
      );
    return teamPendingRef(await this.#keyring(), found.accountId, found.record);
  }
}
