/**
 * The applicants of the application book (issue 24): every person and business application
 * an account application names, kept once per profile however many applications name it,
 * sealed like every cached record. A record the bank sent malformed is kept as received with
 * the names of its faulty fields; one the bank did not return (404) is kept as a row without a
 * body, so the application still shows it ("applicant not returned by the bank").
 *
 * Who names whom lives in `application_applicants` (ids and role names only), written with
 * each application (AccountApplicationsTable.planPage). Names, emails and business names are
 * searchable through keyed word hashes (`applicant_words`, searchTokens.ts), never in clear.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { ReceivedRecord } from '../bank/bankClient.ts';
import type { InFlightKeys } from '../sync/pageWriter.ts';
import type { RecordSealer } from './sealing.ts';
import type { SearchTokens } from './searchTokens.ts';
import type { WriteBatch } from './writeBatch.ts';
import { ApplicantFieldDigests, DIGEST_SQL, UNDIGEST_SQL } from './applicantFieldDigests.ts';

import { applicantIdentityOf, type ApplicantKind } from './applicantIdentity.ts';

export { applicantIdentityOf, type ApplicantKind };
type ApplicantState = 'received' | 'malformed' | 'not-returned';

/** An application that names an applicant, and in what roles. */
export interface ApplicantLink {
  applicationId: string;
  roles: string[];
}

export interface CachedApplicant {
  applicantId: string;
  kind: ApplicantKind;
  state: ApplicantState;
  /** The record as the bank sent it; null when it never returned one. */
  record: Record<string, unknown> | null;
  /** What was wrong with a malformed record: field names and rules, never a value. */
  problems: string[];
  fetchedAt: string;
  /** Every cached application that names it. */
  applications: ApplicantLink[];
}

/** An applicant as one application names it: its roles there, and the applicant if fetched yet. */
export interface NamedApplicant {
  applicantId: string;
  kind: ApplicantKind;
  roles: string[];
  applicant: CachedApplicant | null;
}

export interface ApplicantQuery {
  profileId: string;
  /** Words of a name, email or business name: every one must match. */
  search?: string;
  kind?: ApplicantKind;
  limit?: number;
}

const UPSERT_SQL = `INSERT INTO applicants
    (profile_id, applicant_id, kind, state, problem, created_at, updated_at, fetched_at, body_digest, body)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (profile_id, applicant_id) DO UPDATE SET
    kind = excluded.kind, state = excluded.state, problem = excluded.problem, created_at = excluded.created_at,
    updated_at = excluded.updated_at, fetched_at = excluded.fetched_at, body_digest = excluded.body_digest,
    body = excluded.body`;
const BODY_COLUMN = 9;
const UNINDEX_SQL = 'DELETE FROM applicant_words WHERE profile_id = ? AND applicant_id = ?';
const INDEX_SQL = 'INSERT OR IGNORE INTO applicant_words (profile_id, token, applicant_id) VALUES (?, ?, ?)';
/** A 404: the row stays (with the body last received, if any), marked not returned. */
const NOT_RETURNED_SQL = `INSERT INTO applicants (profile_id, applicant_id, kind, state, fetched_at)
  VALUES (?, ?, ?, 'not-returned', ?)
  ON CONFLICT (profile_id, applicant_id) DO UPDATE SET state = 'not-returned', fetched_at = excluded.fetched_at`;
const TOUCH_SQL = `UPDATE applicants SET fetched_at = ? WHERE profile_id = ? AND applicant_id = ?`;

const LIST_LIMIT_MAX = 500;

/** The words an applicant is found by: a person's names and email, a business's names. */
function searchableTextOf(kind: ApplicantKind, record: Record<string, unknown>): string {
  const fields =
    kind === 'person' ? ['first_name', 'middle_name', 'last_name', 'email_address'] : ['name', 'dba', 'email_address'];
  return fields
    .map((field) => record[field])
    .filter((value): value is string => typeof value === 'string')
    .join(' ');
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export class ApplicantsTable {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;
  readonly #search: () => SearchTokens;

  constructor(database: DatabaseSync, sealer: () => RecordSealer, search: () => SearchTokens) {
    this.#database = database;
    this.#sealer = sealer;
    this.#search = search;
  }

  /**
   * The writes of a page of applicants: only those new or changed since last kept (by a keyed
   * digest of the record as received); the others only have their fetch time moved.
   */
  planReceived(
    profileId: string,
    kind: ApplicantKind,
    items: readonly ReceivedRecord<Record<string, unknown>>[],
    fetchedAt: string,
    inFlight: InFlightKeys<true> = { get: () => undefined },
  ): { batches: WriteBatch[]; added: number; keys: ReadonlyMap<string, true> } {
    const sealer = this.#sealer();
    const search = this.#search();
    const ids = items.map((item) => item.id);
    const known = new Map(
      (
        this.#database
          .prepare(
            `SELECT applicant_id, body_digest FROM applicants
             WHERE profile_id = ? AND applicant_id IN (SELECT value FROM json_each(?))`,
          )
          .all(profileId, JSON.stringify(ids)) as { applicant_id: string; body_digest: string | null }[]
      ).map((row) => [row.applicant_id, row.body_digest]),
    );
    const upserts: SQLInputValue[][] = [];
    const identities: string[] = [];
    const unindex: SQLInputValue[][] = [];
    const words: SQLInputValue[][] = [];
    const touched: SQLInputValue[][] = [];
    const fieldDigests: SQLInputValue[][] = [];
    const keys = new Map<string, true>();
    for (const item of items) {
      if (keys.has(item.id) || inFlight.get(item.id) !== undefined) continue;
      keys.set(item.id, true);
      const record = item.ok ? item.value : item.raw;
      const text = JSON.stringify(record);
      const digest = sealer.keyedHash(`applicant: ${text}`, 12);
      if (known.get(item.id) === digest) {
        touched.push([fetchedAt, profileId, item.id]);
        continue;
      }
      upserts.push([
        profileId,
        item.id,
        kind,
        item.ok ? 'received' : 'malformed',
        item.ok ? null : item.problems.join('; '),
        textOrNull(record['created_at']),
        textOrNull(record['updated_at']),
        fetchedAt,
        digest,
        // Sealed by the cache writer, on its thread (WriteBatch.sealed).
        text,
      ]);
      identities.push(applicantIdentityOf(profileId, item.id));
      unindex.push([profileId, item.id]);
      const tokens = search.tokensOf(searchableTextOf(kind, record));
      for (const token of tokens === '' ? [] : tokens.split(' ')) words.push([profileId, token, item.id]);
      // The email, phone and address as keyed digests, for the shared-field pattern rule.
      fieldDigests.push(...ApplicantFieldDigests.rowsOf(sealer, profileId, item.id, record));
    }
    return {
      keys,
      added: upserts.length,
      batches: [
        { sql: TOUCH_SQL, rows: touched },
        { sql: UPSERT_SQL, rows: upserts, sealed: { key: sealer.sealingKey, column: BODY_COLUMN, identities } },
        { sql: UNINDEX_SQL, rows: unindex },
        { sql: INDEX_SQL, rows: words },
        { sql: UNDIGEST_SQL, rows: unindex },
        { sql: DIGEST_SQL, rows: fieldDigests },
      ],
    };
  }

  /** A named applicant the bank answered 404 for: kept, and shown as not returned. */
  planNotReturned(profileId: string, kind: ApplicantKind, applicantId: string, fetchedAt: string): WriteBatch {
    return { sql: NOT_RETURNED_SQL, rows: [[profileId, applicantId, kind, fetchedAt]] };
  }

  /**
   * Applicants named by cached applications that no list walk of this run returned: never
   * received, or not returned by an earlier run (asked again once per run).
   */
  namedNotReceived(profileId: string, runStartedAt: string): { applicantId: string; kind: ApplicantKind }[] {
    return this.#database
      .prepare(
        `SELECT DISTINCT link.applicant_id AS applicantId, link.kind AS kind
         FROM application_applicants AS link
         LEFT JOIN applicants AS applicant
           ON applicant.profile_id = link.profile_id AND applicant.applicant_id = link.applicant_id
         WHERE link.profile_id = ?
           AND (applicant.applicant_id IS NULL OR (applicant.state = 'not-returned' AND applicant.fetched_at < ?))
         ORDER BY link.applicant_id`,
      )
      .all(profileId, runStartedAt) as unknown as { applicantId: string; kind: ApplicantKind }[];
  }

  /** The applicants one application names (people first, then the business), each as cached. */
  ofApplication(profileId: string, applicationId: string): NamedApplicant[] {
    const links = this.#database
      .prepare(
        `SELECT applicant_id, kind, roles FROM application_applicants
         WHERE profile_id = ? AND application_id = ?
         ORDER BY CASE kind WHEN 'business' THEN 1 ELSE 0 END, applicant_id`,
      )
      .all(profileId, applicationId) as { applicant_id: string; kind: ApplicantKind; roles: string }[];
    return links.map((link) => {
      const roles = JSON.parse(link.roles) as string[];
      const cached = this.get(profileId, link.applicant_id);
      return cached === null
        ? { applicantId: link.applicant_id, kind: link.kind, roles, applicant: null }
        : { applicantId: link.applicant_id, kind: link.kind, roles, applicant: cached };
    });
  }

  /** One applicant with every application naming it; null when it was never fetched. */
  get(profileId: string, applicantId: string): CachedApplicant | null {
    const row = this.#database
      .prepare(
        `SELECT applicant_id, kind, state, problem, fetched_at, body FROM applicants
         WHERE profile_id = ? AND applicant_id = ?`,
      )
      .get(profileId, applicantId) as ApplicantRow | undefined;
    if (row === undefined) return null;
    const links = this.#database
      .prepare(
        `SELECT application_id, roles FROM application_applicants
         WHERE profile_id = ? AND applicant_id = ? ORDER BY application_id`,
      )
      .all(profileId, applicantId) as { application_id: string; roles: string }[];
    return {
      ...this.#applicantOf(profileId, row),
      applications: links.map((link) => ({
        applicationId: link.application_id,
        roles: JSON.parse(link.roles) as string[],
      })),
    };
  }

  /** Applicants by search words (all must match), or all, ordered by id; at most `limit`. */
  list(query: ApplicantQuery): CachedApplicant[] {
    const limit = Math.min(Math.max(query.limit ?? 100, 1), LIST_LIMIT_MAX);
    const where = ['a.profile_id = ?'];
    const parameters: SQLInputValue[] = [query.profileId];
    if (query.kind !== undefined) {
      where.push('a.kind = ?');
      parameters.push(query.kind);
    }
    const tokens = this.#tokensOf(query.search);
    if (tokens !== null) {
      if (tokens.length === 0) return [];
      where.push(`a.applicant_id IN (${this.#matchingSql(tokens.length)})`);
      parameters.push(query.profileId, ...tokens, tokens.length);
    }
    const rows = this.#database
      .prepare(
        `SELECT a.applicant_id, a.kind, a.state, a.problem, a.fetched_at, a.body FROM applicants AS a
         WHERE ${where.join(' AND ')} ORDER BY a.applicant_id LIMIT ?`,
      )
      .all(...parameters, limit) as unknown as ApplicantRow[];
    return rows.map((row) => ({
      ...this.#applicantOf(query.profileId, row),
      applications: this.#linksOf(query.profileId, row.applicant_id),
    }));
  }

  /**
   * The SQL of the application ids whose applicants match search words (all of them), for
   * the applications list's search (AccountApplicationsTable); null when the text has no word.
   */
  applicationMatch(profileId: string, search: string): { sql: string; parameters: (string | number)[] } | null {
    const tokens = this.#tokensOf(search);
    if (tokens === null || tokens.length === 0) return null;
    return {
      sql: `SELECT link.application_id FROM application_applicants AS link
            WHERE link.profile_id = ? AND link.applicant_id IN (${this.#matchingSql(tokens.length)})`,
      parameters: [profileId, profileId, ...tokens, tokens.length],
    };
  }

  /** Forgets a profile's applicants and links (its cache cleared or the profile removed). */
  dropProfile(profileId: string): void {
    for (const table of ['applicants', 'application_applicants', 'applicant_words', 'applicant_field_digests']) {
      this.#database.prepare(`DELETE FROM ${table} WHERE profile_id = ?`).run(profileId);
    }
  }

  count(profileId: string): number {
    const row = this.#database
      .prepare('SELECT COUNT(*) AS total FROM applicants WHERE profile_id = ?')
      .get(profileId) as { total: number };
    return row.total;
  }

  #tokensOf(search: string | undefined): string[] | null {
    if (search === undefined || search.trim() === '') return null;
    const tokens = this.#search().tokensOf(search);
    return tokens === '' ? [] : tokens.split(' ');
  }

  #matchingSql(tokenCount: number): string {
    return `SELECT applicant_id FROM applicant_words WHERE profile_id = ? AND token IN (${Array.from(
      { length: tokenCount },
      () => '?',
    ).join(', ')}) GROUP BY applicant_id HAVING COUNT(*) = ?`;
  }

  #linksOf(profileId: string, applicantId: string): ApplicantLink[] {
    return (
      this.#database
        .prepare(
          `SELECT application_id, roles FROM application_applicants
           WHERE profile_id = ? AND applicant_id = ? ORDER BY application_id`,
        )
        .all(profileId, applicantId) as { application_id: string; roles: string }[]
    ).map((link) => ({ applicationId: link.application_id, roles: JSON.parse(link.roles) as string[] }));
  }

  #applicantOf(profileId: string, row: ApplicantRow): Omit<CachedApplicant, 'applications'> {
    return {
      applicantId: row.applicant_id,
      kind: row.kind,
      state: row.state,
      record:
        row.body === null
          ? null
          : (this.#sealer().openJson(row.body, applicantIdentityOf(profileId, row.applicant_id)) as Record<
              string,
              unknown
            >),
      problems: row.problem === null ? [] : row.problem.split('; '),
      fetchedAt: row.fetched_at,
    };
  }
}

interface ApplicantRow {
  applicant_id: string;
  kind: ApplicantKind;
  state: ApplicantState;
  problem: string | null;
  fetched_at: string;
  body: Uint8Array | null;
}
