/**
 * What an applicant looks like outside the cache (issue 24): its record with every personal
 * field masked, the names of the fields masked (each can be revealed), and a person's age. The
 * clear record never leaves the main process except one field at a time through a reveal.
 */
import type { ApplicantView } from '../../../shared/ipc/domains/applicants.ts';
import {
  ageOn,
  maskApplicantRecord,
  PERSONAL_FIELDS,
  type PersonalField,
} from '../../../shared/personalData/masking.ts';
import type { CachedApplicant } from '../cache/applicantsTable.ts';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value of one personal field in a record (a path like `physical_address.street_line_1`). */
export function personalValueOf(record: Readonly<Record<string, unknown>>, field: PersonalField): unknown {
  const [head, tail] = field.split('.') as [string, string | undefined];
  const value = record[head];
  if (tail === undefined) return value;
  return isObject(value) ? value[tail] : undefined;
}

/** The personal fields a record carries with a value (absent and null fields have nothing to hide). */
export function personalFieldsOf(record: Readonly<Record<string, unknown>>): PersonalField[] {
  return PERSONAL_FIELDS.filter((field) => {
    const value = personalValueOf(record, field);
    return value !== undefined && value !== null;
  });
}

/** `today` is YYYY-MM-DD (UTC): the age is computed here, from the clear date of birth. */
export function applicantViewOf(cached: CachedApplicant, today: string): ApplicantView {
  const record = cached.record;
  const dateOfBirth = record?.['date_of_birth'];
  return {
    applicantId: cached.applicantId,
    kind: cached.kind,
    state: cached.state,
    record: record === null ? null : maskApplicantRecord(record),
    maskedFields: record === null ? [] : personalFieldsOf(record),
    age: cached.kind === 'person' && typeof dateOfBirth === 'string' ? ageOn(dateOfBirth, today) : null,
    problems: cached.problems,
    fetchedAt: cached.fetchedAt,
    applications: cached.applications,
  };
}

/** A revealed field as text: strings as they are, anything else (a number, say) as JSON. */
export function revealedText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
