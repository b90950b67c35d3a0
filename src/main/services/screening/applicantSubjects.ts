/**
 * The applicants of the cache as screening subjects (shared/screening/scoring.ts): a person's
 * full name, date of birth and citizenship; a business's legal name and dba, and its TIN and
 * registration number. Opening them opens sealed records, so this runs where the data key is
 * (the main thread); only the subjects — names and these few facts — go to the screening worker.
 */
import type { ApplicantKind } from '../cache/applicantsTable.ts';
import { applicantIdentityOf } from '../cache/applicantsTable.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { ScreeningSubject } from '../../../shared/screening/scoring.ts';

export interface ApplicantSubject {
  applicantId: string;
  subject: ScreeningSubject;
}

/** A subject with the keyed digest of the record it was read from (a changed record changes it). */
export interface DigestedSubject extends ApplicantSubject {
  digest: string;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The subject of one applicant record; null when it names no one (no name at all). */
export function subjectOf(kind: ApplicantKind, record: Readonly<Record<string, unknown>>): ScreeningSubject | null {
  if (kind === 'person') {
    const name = [record['first_name'], record['middle_name'], record['last_name']]
      .map(text)
      .filter((part) => part !== null)
      .join(' ');
    if (name === '') return null;
    const citizenship = text(record['citizenship']);
    return {
      kind: 'person',
      names: [name],
      dateOfBirth: text(record['date_of_birth']),
      nationalities: citizenship === null ? [] : [citizenship],
    };
  }
  const names = [text(record['name']), text(record['dba'])].filter((name): name is string => name !== null);
  if (names.length === 0) return null;
  return {
    kind: 'business',
    names,
    identifiers: [text(record['tin']), text(record['identification_number'])].filter((id): id is string => id !== null),
  };
}

/** Every applicant of a profile with a record, as a subject, in applicant id order. */
export function applicantSubjects(cache: OfflineCache, profileId: string): DigestedSubject[] {
  const rows = cache.database
    .prepare(
      `SELECT applicant_id, kind, body_digest, body FROM applicants WHERE profile_id = ? AND body IS NOT NULL ORDER BY applicant_id`,
    )
    .all(profileId) as { applicant_id: string; kind: ApplicantKind; body_digest: string | null; body: Uint8Array }[];
  const sealer = cache.sealer;
  const subjects: DigestedSubject[] = [];
  for (const row of rows) {
    const record = sealer.openJson(row.body, applicantIdentityOf(profileId, row.applicant_id));
    if (typeof record !== 'object' || record === null || Array.isArray(record)) continue;
    const subject = subjectOf(row.kind, record as Record<string, unknown>);
    if (subject !== null)
      subjects.push({
        applicantId: row.applicant_id,
        subject,
        // A row written before body digests were kept: its sealed body stands for it.
        digest: row.body_digest ?? sealer.keyedHash(`applicant body: ${Buffer.from(row.body).toString('base64')}`, 12),
      });
  }
  return subjects;
}
