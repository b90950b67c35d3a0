/**
 * Watch rules on an application's people (issue 24): an applicant younger or older than an age,
 * or a citizenship outside a list. Age and citizenship are sealed with the applicant (personal
 * data is never kept in clear, not even as a birth year), so a SQL function,
 * `ledgerdesk_applicant_matches(profile_id, applicant_id, body, conditions)`, opens the body
 * of each person the rule's SELECT reaches and tells whether it matches. The rule runs once
 * after a sync, over the profile's people only (a few thousand decryptions, ~5 µs each), and
 * nothing it opens leaves the function.
 */
import type { DatabaseSync } from 'node:sqlite';
import { ageOn } from '../../../shared/personalData/masking.ts';
import { applicantIdentityOf } from './applicantsTable.ts';
import type { RecordSealer } from './sealing.ts';

export const APPLICANT_MATCHES_FUNCTION = 'ledgerdesk_applicant_matches';

/** What a rule asks of a person; `today` (YYYY-MM-DD, UTC) is the day ages are counted on. */
export interface ApplicantConditions {
  today: string;
  youngerThan?: number;
  olderThan?: number;
  /** Upper-case two-letter codes: a citizenship that is none of them matches. */
  citizenships?: string[];
}

/** Whether a person record meets every condition given. A person without the field never matches it. */
export function personMatches(record: Readonly<Record<string, unknown>>, conditions: ApplicantConditions): boolean {
  if (conditions.youngerThan !== undefined || conditions.olderThan !== undefined) {
    const born = record['date_of_birth'];
    const age = typeof born === 'string' ? ageOn(born, conditions.today) : null;
    if (age === null) return false;
    if (conditions.youngerThan !== undefined && !(age < conditions.youngerThan)) return false;
    if (conditions.olderThan !== undefined && !(age > conditions.olderThan)) return false;
  }
  if (conditions.citizenships !== undefined) {
    const citizenship = record['citizenship'];
    if (typeof citizenship !== 'string' || citizenship === '') return false;
    if (conditions.citizenships.includes(citizenship.toUpperCase())) return false;
  }
  return true;
}

export function registerApplicantRuleMatch(database: DatabaseSync, sealer: () => RecordSealer): void {
  database.function(
    APPLICANT_MATCHES_FUNCTION,
    { deterministic: true, directOnly: true },
    (profileId, applicantId, body, conditions) => {
      if (
        typeof profileId !== 'string' ||
        typeof applicantId !== 'string' ||
        !(body instanceof Uint8Array) ||
        typeof conditions !== 'string'
      ) {
        return 0;
      }
      const record = sealer().openJson(body, applicantIdentityOf(profileId, applicantId));
      if (typeof record !== 'object' || record === null || Array.isArray(record)) return 0;
      return personMatches(record as Record<string, unknown>, JSON.parse(conditions) as ApplicantConditions) ? 1 : 0;
    },
  );
}
