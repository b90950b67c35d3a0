/**
 * The screening hits the officer's record keeps (record migration 3), the "no match"
 * whitelist, and which applicant was last screened as which record. Hits are review items of
 * kind `screening-hit`: their reviews are in `reviews` like any item's; this file keeps what a
 * review is given on. Each hit's body (the applicant masked, the entry, the score's parts) is
 * sealed with the record's key under the hit's identity; ids, digests, scores and states are in
 * clear, since runs compare them without opening anything.
 *
 * Works on the cache's connection, where the record is attached (record/recordAttach.ts), inside
 * the caller's transactions.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { ListSource } from '../../../shared/screening/listEntry.ts';
import type { HitRecord } from '../../../shared/screening/screeningHit.ts';
import type { RecordSealer } from '../cache/sealing.ts';

/**
 * Whether the connection has the record's screening tables: not when the record's tables are
 * still used from the cache file (a record locked or read-only before its move, issue 34), nor
 * before record migration 3 ran. Readers then see no hit; a run is refused (screeningService.ts).
 */
function screeningTablesPresent(database: DatabaseSync): boolean {
  return database.prepare(`SELECT 1 FROM pragma_table_list WHERE name = 'screening_hits'`).get() !== undefined;
}

/** Every kept hit of the profile, reviewed or not (the Overview's total); no sealed body is opened. */
export function keptHitCount(database: DatabaseSync, profileId: string): number {
  if (!screeningTablesPresent(database)) return 0;
  return (
    database.prepare('SELECT COUNT(*) AS n FROM screening_hits WHERE profile_id = ?').get(profileId) as { n: number }
  ).n;
}

function hitIdentity(profileId: string, ref: string): string {
  return `screening_hits\u0000${profileId}\u0000${ref}`;
}

/** The digest a review of a hit is given on: the applicant's and the entry's, as last found. */
export function hitDigest(applicantDigest: string, entryDigest: string): string {
  return `${applicantDigest}/${entryDigest}`;
}

export interface KeptHit {
  ref: string;
  applicantId: string;
  source: ListSource;
  entryUid: string;
  score: number;
  state: 'open' | 'gone';
  applicantDigest: string;
  entryDigest: string;
  record: HitRecord;
}

/** A hit a run found, with what it was found on. */
export interface FoundHit {
  ref: string;
  applicantId: string;
  source: ListSource;
  entryUid: string;
  listVersion: number;
  listDigest: string;
  score: number;
  applicantDigest: string;
  entryDigest: string;
  record: HitRecord;
}

interface HitRow {
  ref: string;
  applicant_id: string;
  list_source: ListSource;
  entry_uid: string;
  score: number;
  state: 'open' | 'gone';
  gone_note: string | null;
  applicant_digest: string;
  entry_digest: string;
  body: Uint8Array;
}

const HIT_COLUMNS =
  'ref, applicant_id, list_source, entry_uid, score, state, gone_note, applicant_digest, entry_digest, body';

export class ScreeningHits {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;
  #present = false;

  constructor(database: DatabaseSync, sealer: () => RecordSealer) {
    this.#database = database;
    this.#sealer = sealer;
  }

  /** The record's screening tables are there (once they are, they stay). */
  get present(): boolean {
    this.#present ||= screeningTablesPresent(this.#database);
    return this.#present;
  }

  #kept(profileId: string, row: HitRow): KeptHit {
    const record = this.#sealer().openJson(row.body, hitIdentity(profileId, row.ref)) as HitRecord;
    return {
      ref: row.ref,
      applicantId: row.applicant_id,
      source: row.list_source,
      entryUid: row.entry_uid,
      score: row.score,
      state: row.state,
      applicantDigest: row.applicant_digest,
      entryDigest: row.entry_digest,
      // The clear columns say the state: a list update marks a hit gone without opening its body.
      record: { ...record, state: row.state, goneNote: row.gone_note },
    };
  }

  /** The kept hits of these refs (absent: no such hit). */
  find(profileId: string, refs: readonly string[]): Map<string, KeptHit> {
    if (!this.present) return new Map();
    const rows = this.#database
      .prepare(
        `SELECT ${HIT_COLUMNS} FROM screening_hits WHERE profile_id = ? AND ref IN (SELECT value FROM json_each(?))`,
      )
      .all(profileId, JSON.stringify(refs)) as unknown as HitRow[];
    return new Map(rows.map((row) => [row.ref, this.#kept(profileId, row)]));
  }

  /** The profile's hits in a state, best score first, then by ref. */
  list(profileId: string, state: 'open' | 'gone' | 'all' = 'open'): KeptHit[] {
    if (!this.present) return [];
    const rows = this.#database
      .prepare(
        `SELECT ${HIT_COLUMNS} FROM screening_hits WHERE profile_id = ? AND (? = 'all' OR state = ?)
         ORDER BY score DESC, ref`,
      )
      .all(profileId, state, state) as unknown as HitRow[];
    return rows.map((row) => this.#kept(profileId, row));
  }

  /** Hits no one has reviewed (open or gone), in ref order, after `after`. */
  unreviewed(profileId: string, limit: number, after: string | null): KeptHit[] {
    if (!this.present) return [];
    const rows = this.#database
      .prepare(
        `SELECT ${HIT_COLUMNS} FROM screening_hits AS h
         WHERE h.profile_id = ? AND h.ref > ?
           AND NOT EXISTS (SELECT 1 FROM reviews AS r WHERE r.profile_id = h.profile_id AND r.kind = 'screening-hit' AND r.ref = h.ref)
         ORDER BY h.ref LIMIT ?`,
      )
      .all(profileId, after ?? '', limit) as unknown as HitRow[];
    return rows.map((row) => this.#kept(profileId, row));
  }

  countUnreviewed(profileId: string): number {
    if (!this.present) return 0;
    const row = this.#database
      .prepare(
        `SELECT COUNT(*) AS n FROM screening_hits AS h WHERE h.profile_id = ?
           AND NOT EXISTS (SELECT 1 FROM reviews AS r WHERE r.profile_id = h.profile_id AND r.kind = 'screening-hit' AND r.ref = h.ref)`,
      )
      .get(profileId) as { n: number };
    return row.n;
  }

  /**
   * Keeps a hit a run found: a new one is written open; one kept before takes the run's score,
   * version and digests (and is open again if its entry is back). Says whether it is new, the
   * same pair on the same records, or found on a changed applicant or entry.
   */
  keep(profileId: string, hit: FoundHit, at: string): 'new' | 'same' | 'changed' {
    const before = this.#database
      .prepare('SELECT applicant_digest, entry_digest FROM screening_hits WHERE profile_id = ? AND ref = ?')
      .get(profileId, hit.ref) as { applicant_digest: string; entry_digest: string } | undefined;
    const body = this.#sealer().sealJson(
      { ...hit.record, foundAt: before === undefined ? at : hit.record.foundAt },
      hitIdentity(profileId, hit.ref),
    );
    this.#database
      .prepare(
        `INSERT INTO screening_hits (profile_id, ref, applicant_id, list_source, entry_uid, list_version, list_digest,
           score, applicant_digest, entry_digest, state, gone_note, found_at, screened_at, body)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', NULL, ?, ?, ?)
         ON CONFLICT (profile_id, ref) DO UPDATE SET list_version = excluded.list_version,
           list_digest = excluded.list_digest, score = excluded.score, applicant_digest = excluded.applicant_digest,
           entry_digest = excluded.entry_digest, state = 'open', gone_note = NULL, screened_at = excluded.screened_at,
           body = excluded.body`,
      )
      .run(
        profileId,
        hit.ref,
        hit.applicantId,
        hit.source,
        hit.entryUid,
        hit.listVersion,
        hit.listDigest,
        hit.score,
        hit.applicantDigest,
        hit.entryDigest,
        at,
        at,
        body,
      );
    if (before === undefined) return 'new';
    return before.applicant_digest === hit.applicantDigest && before.entry_digest === hit.entryDigest
      ? 'same'
      : 'changed';
  }

  /** The foundAt a kept hit keeps (its first finding), or null for a new one. */
  foundAt(profileId: string, ref: string): string | null {
    const row = this.#database
      .prepare('SELECT found_at FROM screening_hits WHERE profile_id = ? AND ref = ?')
      .get(profileId, ref) as { found_at: string } | undefined;
    return row?.found_at ?? null;
  }

  /**
   * Marks the open hits on entries a list's new version no longer holds (every profile's), with
   * the sentence they show; never deletes one. Returns the (profile, ref) of each marked.
   */
  markGone(source: ListSource, uids: readonly string[], note: string): { profileId: string; ref: string }[] {
    if (uids.length === 0 || !this.present) return [];
    return this.#database
      .prepare(
        `UPDATE screening_hits SET state = 'gone', gone_note = ?
         WHERE list_source = ? AND state = 'open' AND entry_uid IN (SELECT value FROM json_each(?))
         RETURNING profile_id AS profileId, ref`,
      )
      .all(note, source, JSON.stringify(uids)) as { profileId: string; ref: string }[];
  }

  /** The "no match" decisions of a profile, by ref, with the two digests each was decided on. */
  noMatches(profileId: string): Map<string, { applicantDigest: string; entryDigest: string }> {
    if (!this.present) return new Map();
    const rows = this.#database
      .prepare(
        'SELECT applicant_id, list_source, entry_uid, applicant_digest, entry_digest FROM screening_no_match WHERE profile_id = ?',
      )
      .all(profileId) as {
      applicant_id: string;
      list_source: string;
      entry_uid: string;
      applicant_digest: string;
      entry_digest: string;
    }[];
    return new Map(
      rows.map((row) => [
        `${row.applicant_id}:${row.list_source}:${row.entry_uid}`,
        { applicantDigest: row.applicant_digest, entryDigest: row.entry_digest },
      ]),
    );
  }

  /** Whitelists the hit's pair on the digests it was found on: "no match" until either changes. */
  decideNoMatch(profileId: string, hit: KeptHit, at: string): void {
    this.#database
      .prepare(
        `INSERT INTO screening_no_match (profile_id, applicant_id, list_source, entry_uid, applicant_digest, entry_digest, decided_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET applicant_digest = excluded.applicant_digest, entry_digest = excluded.entry_digest,
           decided_at = excluded.decided_at`,
      )
      .run(profileId, hit.applicantId, hit.source, hit.entryUid, hit.applicantDigest, hit.entryDigest, at);
  }

  /** A decision whose applicant or entry changed no longer holds: it is removed as the pair hits again. */
  forgetNoMatch(profileId: string, applicantId: string, source: ListSource, entryUid: string): void {
    this.#database
      .prepare(
        'DELETE FROM screening_no_match WHERE profile_id = ? AND applicant_id = ? AND list_source = ? AND entry_uid = ?',
      )
      .run(profileId, applicantId, source, entryUid);
  }

  /** Which applicants were last screened as which record, against which lists. */
  screened(profileId: string): Map<string, { applicantDigest: string; listsKey: string; threshold: number }> {
    if (!this.present) return new Map();
    const rows = this.#database
      .prepare(
        'SELECT applicant_id, applicant_digest, lists_key, threshold FROM screening_screened WHERE profile_id = ?',
      )
      .all(profileId) as { applicant_id: string; applicant_digest: string; lists_key: string; threshold: number }[];
    return new Map(
      rows.map((row) => [
        row.applicant_id,
        { applicantDigest: row.applicant_digest, listsKey: row.lists_key, threshold: row.threshold },
      ]),
    );
  }

  markScreened(
    profileId: string,
    applicantId: string,
    applicantDigest: string,
    listsKey: string,
    threshold: number,
    at: string,
  ): void {
    this.#database
      .prepare(
        `INSERT INTO screening_screened (profile_id, applicant_id, applicant_digest, lists_key, threshold, screened_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET applicant_digest = excluded.applicant_digest, lists_key = excluded.lists_key,
           threshold = excluded.threshold, screened_at = excluded.screened_at`,
      )
      .run(profileId, applicantId, applicantDigest, listsKey, threshold, at);
  }
}
