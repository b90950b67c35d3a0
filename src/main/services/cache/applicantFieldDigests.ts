/**
 * Keyed digests of the personal fields pattern rules compare across applications (issue 40):
 * an applicant's email, phone number and physical address, each normalised (case, spacing and
 * punctuation; a phone's digits, without a leading US country code; an address's common street
 * words abbreviated, its ZIP code's five digits) and hashed with the cache's keyed-hash key
 * (HMAC-SHA-256, sealing.ts). Two applicants with one email have one digest; the file shows
 * neither the email nor any way to test a guess of it without the data key. What the file does
 * show, as with the search tokens: which applicants share a value.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { SharedField } from '../../../shared/review/patternRule.ts';
import { applicantIdentityOf, type ApplicantKind } from './applicantIdentity.ts';
import type { RecordSealer } from './sealing.ts';

const DIGEST_BYTES = 12;
const PENDING_KEY = 'applicant_field_digests_pending';

export const UNDIGEST_SQL = 'DELETE FROM applicant_field_digests WHERE profile_id = ? AND applicant_id = ?';
export const DIGEST_SQL =
  'INSERT OR IGNORE INTO applicant_field_digests (profile_id, field, digest, applicant_id) VALUES (?, ?, ?, ?)';

const STREET_WORDS: Readonly<Record<string, string>> = {
  street: 'st',
  avenue: 'ave',
  road: 'rd',
  boulevard: 'blvd',
  drive: 'dr',
  lane: 'ln',
  court: 'ct',
  place: 'pl',
  suite: 'ste',
  apartment: 'apt',
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
};

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The normalised values of an applicant's shared fields (absent when the record has none). */
function sharedFieldValuesOf(record: Readonly<Record<string, unknown>>): Partial<Record<SharedField, string>> {
  const values: Partial<Record<SharedField, string>> = {};
  const email = text(record['email_address']);
  if (email !== null) values.email = email.trim().toLowerCase();
  const phone = text(record['phone_number']);
  if (phone !== null) {
    const digits = phone.replace(/\D/g, '');
    const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
    if (national.length >= 7) values.phone = national;
  }
  const address = record['physical_address'];
  if (typeof address === 'object' && address !== null && !Array.isArray(address)) {
    const parts = address as Record<string, unknown>;
    const words = ['street_line_1', 'street_line_2', 'city', 'state']
      .map((field) => text(parts[field]) ?? '')
      .join(' ')
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== '')
      .map((word) => STREET_WORDS[word] ?? word);
    const zip = (text(parts['postal_code']) ?? '').replace(/\D/g, '').slice(0, 5);
    if (words.length > 0) values.address = `${words.join(' ')} ${zip}`.trim();
  }
  return values;
}

export class ApplicantFieldDigests {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;

  constructor(database: DatabaseSync, sealer: () => RecordSealer) {
    this.#database = database;
    this.#sealer = sealer;
  }

  /** The rows of one applicant's digests, for its write (after UNDIGEST_SQL removed the old ones). */
  static rowsOf(
    sealer: RecordSealer,
    profileId: string,
    applicantId: string,
    record: Readonly<Record<string, unknown>>,
  ): SQLInputValue[][] {
    return Object.entries(sharedFieldValuesOf(record)).map(([field, value]) => [
      profileId,
      field,
      sealer.keyedHash(`applicant field ${field}: ${value}`, DIGEST_BYTES),
      applicantId,
    ]);
  }

  /**
   * Fills the digests of applicants cached before migration 28 (marked by it), once: opens
   * each record (a few microseconds each) in one transaction. Returns how many were filled.
   */
  fillPending(): number {
    const marked = this.#database.prepare('SELECT value FROM cache_meta WHERE key = ?').get(PENDING_KEY);
    if (marked === undefined) return 0;
    const sealer = this.#sealer();
    const undigest = this.#database.prepare(UNDIGEST_SQL);
    const digest = this.#database.prepare(DIGEST_SQL);
    let filled = 0;
    this.#database.exec('BEGIN IMMEDIATE');
    try {
      const rows = this.#database
        .prepare('SELECT profile_id, applicant_id, kind, body FROM applicants WHERE body IS NOT NULL')
        .all() as { profile_id: string; applicant_id: string; kind: ApplicantKind; body: Uint8Array }[];
      for (const row of rows) {
        const record = sealer.openJson(row.body, applicantIdentityOf(row.profile_id, row.applicant_id));
        if (typeof record !== 'object' || record === null || Array.isArray(record)) continue;
        undigest.run(row.profile_id, row.applicant_id);
        for (const values of ApplicantFieldDigests.rowsOf(
          sealer,
          row.profile_id,
          row.applicant_id,
          record as Record<string, unknown>,
        ))
          digest.run(...values);
        filled += 1;
      }
      this.#database.prepare('DELETE FROM cache_meta WHERE key = ?').run(PENDING_KEY);
      this.#database.exec('COMMIT');
    } catch (error) {
      if (this.#database.isTransaction) this.#database.exec('ROLLBACK');
      throw error;
    }
    return filled;
  }
}
