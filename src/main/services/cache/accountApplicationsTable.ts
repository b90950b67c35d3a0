/**
 * Cached account applications: the latest version of each, and every distinct version ever
 * fetched, so the UI can show how an application's status moved over time.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import {
  accountApplicationResponse,
  parseWith,
  readableApplication,
  type AccountApplicationResponse,
  type AccountApplicationStatus,
  type OwnershipType,
  type ReceivedAccountApplication,
} from '../../../shared/bank/index.ts';
import type { ReceivedRecord } from '../bank/bankClient.ts';
import { pageLimitOf, type CacheRead } from './cacheRead.ts';
import { decodeCursor, decodeTie, encodeCursor, fingerprintOf, tieOf } from './keysetCursor.ts';
import { reviewClause, type ReviewSelection } from './reviewFilterSql.ts';
import { foldText } from './sealedSearch.ts';
import type { RecordSealer } from './sealing.ts';
import { textKeyOf } from './absentKeys.ts';
import type { ApplicantsTable } from './applicantsTable.ts';
import type { InFlightKeys } from '../sync/pageWriter.ts';
import type { WriteBatch } from './writeBatch.ts';

const UPSERT_SQL = `INSERT INTO account_applications
    (profile_id, application_id, status, ownership_type, account_product_id, account_id,
     created_at, updated_at, fetched_at, body_digest, body, problem)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (profile_id, application_id) DO UPDATE SET
    status = excluded.status, ownership_type = excluded.ownership_type,
    account_product_id = excluded.account_product_id, account_id = excluded.account_id,
    created_at = excluded.created_at, updated_at = excluded.updated_at, fetched_at = excluded.fetched_at,
    body_digest = excluded.body_digest, body = excluded.body, problem = excluded.problem`;
const UPSERT_BODY_COLUMN = 10;
const VERSION_SQL = `INSERT INTO account_application_versions
    (profile_id, application_id, version, status, updated_at, fetched_at, body)
  VALUES (?, ?, ?, ?, ?, ?, ?)`;
const VERSION_BODY_COLUMN = 6;
const TOUCH_SQL = 'UPDATE account_applications SET fetched_at = ? WHERE profile_id = ? AND application_id = ?';
const UNLINK_SQL = 'DELETE FROM application_applicants WHERE profile_id = ? AND application_id = ?';
const LINK_SQL = `INSERT INTO application_applicants (profile_id, application_id, applicant_id, kind, roles)
  VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (profile_id, application_id, applicant_id) DO UPDATE SET roles = excluded.roles`;

/**
 * Who an application names: its people with their roles (the primary person with the roles
 * its entry gives, else 'primary'), and its business. Ids and role names only.
 */
function applicantsNamedBy(
  application: AccountApplicationResponse,
): { applicantId: string; kind: 'person' | 'business'; roles: string[] }[] {
  const named = new Map<string, { applicantId: string; kind: 'person' | 'business'; roles: string[] }>();
  for (const person of application.person_applications ?? []) {
    if (typeof person.id !== 'string' || person.id === '') continue;
    named.set(person.id, { applicantId: person.id, kind: 'person', roles: [...person.roles] });
  }
  const primary = application.primary_person_application_id;
  if (typeof primary === 'string' && primary !== '') {
    const entry = named.get(primary);
    if (entry === undefined) named.set(primary, { applicantId: primary, kind: 'person', roles: ['primary'] });
    else if (!entry.roles.includes('primary')) entry.roles.unshift('primary');
  }
  const business = application.business_application_id;
  if (typeof business === 'string' && business !== '') {
    named.set(business, { applicantId: business, kind: 'business', roles: ['business'] });
  }
  return [...named.values()];
}

/**
 * By creation time, by last update (the bank's updated_at), or by status (A to Z or Z to A;
 * newest created first within a status).
 */
export const ACCOUNT_APPLICATION_SORTS = [
  'newest',
  'oldest',
  'updated-newest',
  'updated-oldest',
  'status-ascending',
  'status-descending',
] as const;
export type AccountApplicationSort = (typeof ACCOUNT_APPLICATION_SORTS)[number];

export interface AccountApplicationQuery {
  profileId: string;
  status?: AccountApplicationStatus;
  ownershipType?: OwnershipType;
  accountProductId?: string;
  accountId?: string;
  /**
   * Text in the application, account or product id (clear), or words of an applicant's name,
   * email or business name (keyed word hashes): no sealed record is opened to search.
   */
  search?: string;
  /** Created on or after this day (YYYY-MM-DD, UTC). */
  fromDate?: string;
  /** Created before this day (YYYY-MM-DD, UTC): exclusive, as the bank's lists. */
  toDate?: string;
  /** The officer's review: unreviewed, a state, or any (`reviewed`). */
  review?: ReviewSelection;
  sort?: AccountApplicationSort;
  limit?: number;
  cursor?: string | null;
  withTotal?: boolean;
}

/** One fetched version of an application, oldest first in a history. */
export interface AccountApplicationVersion {
  version: number;
  /** As received: a status this client does not know is kept as the bank sent it. */
  status: string;
  updatedAt: string;
  /** When this version was fetched from the bank. */
  fetchedAt: string;
  application: ReceivedAccountApplication;
}

export function identityOf(profileId: string, applicationId: string): string {
  return `account_application\u0000${profileId}\u0000${applicationId}`;
}
function versionIdentityOf(profileId: string, applicationId: string, version: number): string {
  return `account_application_version\u0000${profileId}\u0000${applicationId}\u0000${String(version)}`;
}

/**
 * What an application of the bank is kept as: the record as received (`stored`, its body), the
 * readable record the clear columns and applicant links come from, and its problems (null
 * when well-formed). A malformed status is still filed under the text received, so the list
 * shows and sorts it where it came.
 */
interface KeptApplication {
  id: string;
  stored: Readonly<Record<string, unknown>>;
  readable: AccountApplicationResponse;
  status: string;
  problem: string | null;
}

/** An application as the cache takes it: read on its own (kept as received when malformed), or already read. */
export type ApplicationToKeep = ReceivedRecord<AccountApplicationResponse> | AccountApplicationResponse;

function isReceivedRecord(item: ApplicationToKeep): item is ReceivedRecord<AccountApplicationResponse> {
  return typeof item['ok'] === 'boolean' && ('value' in item || 'raw' in item);
}

function keptOf(item: ApplicationToKeep): KeptApplication {
  const received: ReceivedRecord<AccountApplicationResponse> = isReceivedRecord(item)
    ? item
    : { id: item.id, ok: true, value: item };
  if (received.ok) {
    const value = received.value;
    return { id: received.id, stored: value, readable: value, status: textKeyOf(value.status), problem: null };
  }
  const readable = readableApplication(received.raw, received.problems);
  const sentStatus = received.raw['status'];
  return {
    id: received.id,
    stored: received.raw,
    readable,
    status: readable.status ?? (typeof sentStatus === 'string' ? sentStatus.slice(0, 64) : ''),
    problem: received.problems.join('; '),
  };
}

/** An application as shown: as kept when well-formed, else made readable with its problems. */
function shownOf(body: unknown, problem: string | null): ReceivedAccountApplication {
  if (problem === null) return body as AccountApplicationResponse;
  return readableApplication(body as Record<string, unknown>, problem.split('; '));
}

/** A version of an application as shown: a version's row keeps no problem, so it is checked again. */
function shownAsVersion(body: unknown): ReceivedAccountApplication {
  const parsed = parseWith(accountApplicationResponse.object, body);
  return parsed.ok ? parsed.value : readableApplication(body as Record<string, unknown>, parsed.problems);
}

export class AccountApplicationsTable {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;

  readonly #applicants: (() => ApplicantsTable) | undefined;

  constructor(database: DatabaseSync, sealer: () => RecordSealer, applicants?: () => ApplicantsTable) {
    this.#database = database;
    this.#sealer = sealer;
    this.#applicants = applicants;
  }

  /**
   * The writes of a page of the application list (the book's sync): an application new or
   * changed since last kept is stored with a new version (its status history) and who it
   * names; an unchanged one only has its fetch time moved.
   */
  planPage(
    profileId: string,
    received: readonly ApplicationToKeep[],
    fetchedAt: string,
    inFlight: InFlightKeys<true> = { get: () => undefined },
  ): { batches: WriteBatch[]; added: number; keys: ReadonlyMap<string, true> } {
    const sealer = this.#sealer();
    const applications = received.map(keptOf);
    const ids = JSON.stringify(applications.map((application) => application.id));
    const known = new Map(
      (
        this.#database
          .prepare(
            `SELECT application.application_id AS id, application.body_digest AS digest,
                    (SELECT MAX(version) FROM account_application_versions AS v
                      WHERE v.profile_id = application.profile_id AND v.application_id = application.application_id) AS version
             FROM account_applications AS application
             WHERE application.profile_id = ? AND application.application_id IN (SELECT value FROM json_each(?))`,
          )
          .all(profileId, ids) as { id: string; digest: string; version: number | null }[]
      ).map((row) => [row.id, row]),
    );
    const upserts: SQLInputValue[][] = [];
    const upsertIdentities: string[] = [];
    const versions: SQLInputValue[][] = [];
    const versionIdentities: string[] = [];
    const unlinks: SQLInputValue[][] = [];
    const links: SQLInputValue[][] = [];
    const touched: SQLInputValue[][] = [];
    const keys = new Map<string, true>();
    for (const application of applications) {
      if (keys.has(application.id) || inFlight.get(application.id) !== undefined) continue;
      keys.set(application.id, true);
      const readable = application.readable;
      const text = JSON.stringify(application.stored);
      const digest = sealer.keyedHash(`account application: ${text}`, 12);
      const current = known.get(application.id);
      if (current?.digest === digest) {
        touched.push([fetchedAt, profileId, application.id]);
        continue;
      }
      upserts.push([
        profileId,
        application.id,
        application.status,
        textKeyOf(readable.ownership_type),
        textKeyOf(readable.account_product_id),
        readable.account_id ?? null,
        textKeyOf(readable.created_at),
        textKeyOf(readable.updated_at),
        fetchedAt,
        digest,
        text,
        application.problem,
      ]);
      upsertIdentities.push(identityOf(profileId, application.id));
      const version = (current?.version ?? 0) + 1;
      versions.push([
        profileId,
        application.id,
        version,
        application.status,
        textKeyOf(readable.updated_at),
        fetchedAt,
        text,
      ]);
      versionIdentities.push(versionIdentityOf(profileId, application.id, version));
      unlinks.push([profileId, application.id]);
      for (const named of applicantsNamedBy(readable)) {
        links.push([profileId, application.id, named.applicantId, named.kind, JSON.stringify(named.roles)]);
      }
    }
    return {
      keys,
      added: upserts.length,
      batches: [
        { sql: TOUCH_SQL, rows: touched },
        {
          sql: UPSERT_SQL,
          rows: upserts,
          sealed: { key: sealer.sealingKey, column: UPSERT_BODY_COLUMN, identities: upsertIdentities },
        },
        {
          sql: VERSION_SQL,
          rows: versions,
          sealed: { key: sealer.sealingKey, column: VERSION_BODY_COLUMN, identities: versionIdentities },
        },
        { sql: UNLINK_SQL, rows: unlinks },
        { sql: LINK_SQL, rows: links },
      ],
    };
  }

  /**
   * Keeps the fetched application (call inside a transaction), as received when malformed;
   * true when it is a new version.
   */
  record(profileId: string, received: ApplicationToKeep, fetchedAt: string): boolean {
    const application = keptOf(received);
    const readable = application.readable;
    const sealer = this.#sealer();
    const text = JSON.stringify(application.stored);
    const digest = sealer.keyedHash(`account application: ${text}`, 12);
    const current = this.#database
      .prepare('SELECT body_digest FROM account_applications WHERE profile_id = ? AND application_id = ?')
      .get(profileId, application.id) as { body_digest: string } | undefined;
    this.#database
      .prepare(UPSERT_SQL)
      .run(
        profileId,
        application.id,
        application.status,
        textKeyOf(readable.ownership_type),
        textKeyOf(readable.account_product_id),
        readable.account_id ?? null,
        textKeyOf(readable.created_at),
        textKeyOf(readable.updated_at),
        fetchedAt,
        digest,
        sealer.seal(text, identityOf(profileId, application.id)),
        application.problem,
      );
    this.#database.prepare(UNLINK_SQL).run(profileId, application.id);
    for (const named of applicantsNamedBy(readable)) {
      this.#database
        .prepare(LINK_SQL)
        .run(profileId, application.id, named.applicantId, named.kind, JSON.stringify(named.roles));
    }
    if (current?.body_digest === digest) return false;
    const next = this.#database
      .prepare(
        `SELECT COALESCE(MAX(version), 0) + 1 AS version FROM account_application_versions
         WHERE profile_id = ? AND application_id = ?`,
      )
      .get(profileId, application.id) as { version: number };
    this.#database
      .prepare(VERSION_SQL)
      .run(
        profileId,
        application.id,
        next.version,
        application.status,
        textKeyOf(readable.updated_at),
        fetchedAt,
        sealer.seal(text, versionIdentityOf(profileId, application.id, next.version)),
      );
    return true;
  }

  /** One application as last fetched, with when; null when it was never fetched. */
  get(profileId: string, applicationId: string): { application: ReceivedAccountApplication; asOf: string } | null {
    const row = this.#database
      .prepare('SELECT fetched_at, body, problem FROM account_applications WHERE profile_id = ? AND application_id = ?')
      .get(profileId, applicationId) as { fetched_at: string; body: Uint8Array; problem: string | null } | undefined;
    if (row === undefined) return null;
    return {
      application: shownOf(this.#sealer().openJson(row.body, identityOf(profileId, applicationId)), row.problem),
      asOf: row.fetched_at,
    };
  }

  /** Every distinct version fetched, oldest first: the status history. */
  history(profileId: string, applicationId: string): CacheRead<AccountApplicationVersion> {
    const rows = this.#database
      .prepare(
        `SELECT version, status, updated_at, fetched_at, body FROM account_application_versions
         WHERE profile_id = ? AND application_id = ? ORDER BY version`,
      )
      .all(profileId, applicationId) as {
      version: number;
      status: string;
      updated_at: string;
      fetched_at: string;
      body: Uint8Array;
    }[];
    const sealer = this.#sealer();
    return {
      rows: rows.map((row) => ({
        version: row.version,
        status: row.status,
        updatedAt: row.updated_at,
        fetchedAt: row.fetched_at,
        application: shownAsVersion(
          sealer.openJson(row.body, versionIdentityOf(profileId, applicationId, row.version)),
        ),
      })),
      nextCursor: null,
      asOf: this.get(profileId, applicationId)?.asOf ?? null,
      source: 'cache',
    };
  }

  /**
   * Applications are fetched one by one, so a page's `asOf` is the oldest fetch among its
   * rows: every row is at least that fresh.
   */
  list(query: AccountApplicationQuery): CacheRead<ReceivedAccountApplication> {
    const limit = pageLimitOf(query.limit);
    const sortName = query.sort ?? 'newest';
    const byStatus = sortName === 'status-ascending' || sortName === 'status-descending';
    // Within a status, newest first: the index (profile_id, status, created_at, application_id) serves both.
    const direction = sortName === 'oldest' || sortName === 'updated-oldest' ? 'ASC' : 'DESC';
    // Both time columns are in clear, each with its index (…, <time>, application_id).
    const time = sortName === 'updated-newest' || sortName === 'updated-oldest' ? 'updated_at' : 'created_at';
    const statusDirection = sortName === 'status-descending' ? 'DESC' : 'ASC';
    const { where, parameters } = this.#filters(query);
    const fingerprint = fingerprintOf(['account-applications', this.#filterKey(query), sortName]);
    if (query.cursor !== undefined && query.cursor !== null) {
      const [value, tieBreaker] = decodeCursor(query.cursor, fingerprint);
      if (!byStatus) {
        where.push(`(${time}, application_id) ${direction === 'DESC' ? '<' : '>'} (?, ?)`);
        parameters.push(value, tieBreaker);
      } else {
        const [createdAt, applicationId] = decodeTie(tieBreaker);
        // status goes one way and time the other: spell the keyset out.
        const statusAfter = statusDirection === 'ASC' ? '>' : '<';
        const timeAfter = direction === 'DESC' ? '<' : '>';
        where.push(`(status ${statusAfter} ? OR (status = ? AND (created_at, application_id) ${timeAfter} (?, ?)))`);
        parameters.push(value, value, createdAt, applicationId);
      }
    }
    const order = byStatus
      ? `status ${statusDirection}, created_at ${direction}, application_id ${direction}`
      : `${time} ${direction}, application_id ${direction}`;
    const rows = this.#database
      .prepare(
        `SELECT application_id, status, created_at, updated_at, fetched_at, body, problem FROM account_applications
         WHERE ${where.join(' AND ')}
         ORDER BY ${order} LIMIT ?`,
      )
      .all(...parameters, limit + 1) as {
      application_id: string;
      status: string;
      created_at: string;
      updated_at: string;
      fetched_at: string;
      body: Uint8Array;
      problem: string | null;
    }[];
    const page = rows.slice(0, limit);
    const sealer = this.#sealer();
    const last = page.at(-1);
    const oldest = page.reduce<string | null>(
      (min, row) => (min === null || row.fetched_at < min ? row.fetched_at : min),
      null,
    );
    const read: CacheRead<ReceivedAccountApplication> = {
      rows: page.map((row) =>
        shownOf(sealer.openJson(row.body, identityOf(query.profileId, row.application_id)), row.problem),
      ),
      nextCursor:
        rows.length > limit && last !== undefined
          ? byStatus
            ? encodeCursor(fingerprint, last.status, tieOf(last.created_at, last.application_id))
            : encodeCursor(fingerprint, time === 'updated_at' ? last.updated_at : last.created_at, last.application_id)
          : null,
      asOf: oldest,
      source: 'cache',
    };
    if (query.withTotal === true) read.total = this.count(query);
    return read;
  }

  count(query: AccountApplicationQuery): number {
    const { where, parameters } = this.#filters(query);
    const row = this.#database
      .prepare(`SELECT COUNT(*) AS total FROM account_applications WHERE ${where.join(' AND ')}`)
      .get(...parameters) as { total: number };
    return row.total;
  }

  #filterKey(query: AccountApplicationQuery): unknown[] {
    return [
      query.profileId,
      query.status ?? null,
      query.ownershipType ?? null,
      query.accountProductId ?? null,
      query.accountId ?? null,
      query.search ?? null,
      query.review ?? null,
      query.fromDate ?? null,
      query.toDate ?? null,
    ];
  }

  #filters(query: AccountApplicationQuery): { where: string[]; parameters: (string | number | null)[] } {
    const where = ['profile_id = ?'];
    const parameters: (string | number | null)[] = [query.profileId];
    const equal: [string, string | undefined][] = [
      ['status', query.status],
      ['ownership_type', query.ownershipType],
      ['account_product_id', query.accountProductId],
      ['account_id', query.accountId],
    ];
    for (const [column, value] of equal) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      parameters.push(value);
    }
    const needle = foldText(query.search?.trim() ?? '');
    if (needle !== '') {
      // The applicants' names, emails and business names, by their keyed word hashes (no record opened).
      const applicantMatch = this.#applicants?.().applicationMatch(query.profileId, needle) ?? null;
      const matches: string[] = [];
      // Ids are one word with a digit or an underscore (aact_…, apsn_…): a name or an email
      // search skips them, so it is answered from the word index alone, never a table scan.
      if (/^[^\s]*[0-9_][^\s]*$/.test(needle)) {
        matches.push(
          `instr(lower(application_id), ?) > 0 OR instr(lower(COALESCE(account_id, '')), ?) > 0
            OR instr(lower(account_product_id), ?) > 0
            OR application_id IN (SELECT named.application_id FROM application_applicants AS named
              WHERE named.profile_id = ? AND named.applicant_id >= ? AND named.applicant_id < ? || char(1114111))`,
        );
        // An applicant id by its start, through the links' index (ids are lower case, as the needle).
        parameters.push(needle, needle, needle, query.profileId, needle, needle);
      }
      if (applicantMatch !== null) {
        matches.push(`application_id IN (${applicantMatch.sql})`);
        parameters.push(...applicantMatch.parameters);
      }
      // A needle that is neither an id nor any word matches nothing.
      where.push(matches.length === 0 ? '0' : `(${matches.join(' OR ')})`);
    }
    // created_at is the bank's ISO 8601 UTC timestamp: a day compares as its prefix.
    if (query.fromDate !== undefined) {
      where.push('created_at >= ?');
      parameters.push(query.fromDate);
    }
    if (query.toDate !== undefined) {
      where.push('created_at < ?');
      parameters.push(query.toDate);
    }
    if (query.review !== undefined) {
      const review = reviewClause(query.profileId, 'application', query.review, 'account_applications.application_id');
      where.push(review.clause);
      parameters.push(...review.parameters);
    }
    return { where, parameters };
  }
}
