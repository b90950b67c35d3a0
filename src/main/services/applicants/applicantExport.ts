/**
 * Applicants as exports and review reports print them (issue 24, item 4): the name, kind, roles
 * and state in clear, every personal field masked except the classes the profile lets exports
 * show (shared/personalData/exportDisclosure.ts; default nothing). One shape for the CSV, the
 * JSON lines and the report, so a field masked in one is masked in all of them.
 */
import { maskApplicantRecord, type PersonalField } from '../../../shared/personalData/masking.ts';
import type { ApplicantsTable, NamedApplicant } from '../cache/applicantsTable.ts';

export interface ExportedApplicant {
  applicant_id: string;
  kind: 'person' | 'business';
  roles: string[];
  /** received, malformed, not-returned, or not-fetched (never synced yet). */
  state: string;
  /** A person's first, middle and last name, a business's name (or DBA); null when unknown. */
  name: string | null;
  date_of_birth?: string;
  tin?: string;
  ssn?: string;
  identification_number?: string;
  phone_number?: string;
  email_address?: string;
  physical_address?: unknown;
  mailing_address?: unknown;
}

const CARRIED_FIELDS = [
  'date_of_birth',
  'tin',
  'ssn',
  'identification_number',
  'phone_number',
  'email_address',
  'physical_address',
  'mailing_address',
] as const;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A person's first, middle and last name, a business's name (or DBA); null when the record has none. */
export function applicantNameOf(kind: 'person' | 'business', record: Readonly<Record<string, unknown>>): string | null {
  if (kind === 'business') return text(record['name']) ?? text(record['dba']);
  const parts = [text(record['first_name']), text(record['middle_name']), text(record['last_name'])];
  const name = parts.filter((part): part is string => part !== null).join(' ');
  return name === '' ? null : name;
}

/** One applicant of an application, masked but for `unmasked`. */
export function exportedApplicantOf(named: NamedApplicant, unmasked: ReadonlySet<PersonalField>): ExportedApplicant {
  const base = { applicant_id: named.applicantId, kind: named.kind, roles: named.roles };
  const cached = named.applicant;
  if (cached === null) return { ...base, state: 'not-fetched', name: null };
  if (cached.record === null) return { ...base, state: cached.state, name: null };
  const shown = maskApplicantRecord(cached.record, unmasked);
  const exported: ExportedApplicant = {
    ...base,
    state: cached.state,
    name: applicantNameOf(named.kind, cached.record),
  };
  for (const field of CARRIED_FIELDS) {
    const value = shown[field];
    if (value !== undefined && value !== null) (exported as unknown as Record<string, unknown>)[field] = value;
  }
  return exported;
}

/** Every applicant an application names, as exported. */
export function exportedApplicantsOf(
  applicants: ApplicantsTable,
  profileId: string,
  applicationId: string,
  unmasked: ReadonlySet<PersonalField>,
): ExportedApplicant[] {
  return applicants.ofApplication(profileId, applicationId).map((named) => exportedApplicantOf(named, unmasked));
}

function addressText(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const address = value as Record<string, unknown>;
  const parts = ['street_line_1', 'street_line_2', 'city', 'state', 'postal_code', 'country_code']
    .map((key) => text(address[key]))
    .filter((part): part is string => part !== null);
  return parts.length === 0 ? null : parts.join(', ');
}

/**
 * One line a person reads in a report: `primary Frances Knuth (person; born •••• 1997; ssn
 * •••-••-6789; …)`. Only what the exported applicant carries, so its masking holds.
 */
export function applicantLine(applicant: ExportedApplicant): string {
  const details: string[] = [applicant.kind];
  if (applicant.state !== 'received') details.push(applicant.state);
  if (applicant.date_of_birth !== undefined) details.push(`born ${applicant.date_of_birth}`);
  for (const field of ['ssn', 'tin', 'identification_number'] as const) {
    const value = applicant[field];
    if (value !== undefined) details.push(`${field} ${value}`);
  }
  if (applicant.phone_number !== undefined) details.push(`phone ${applicant.phone_number}`);
  if (applicant.email_address !== undefined) details.push(`email ${applicant.email_address}`);
  const physical = addressText(applicant.physical_address);
  if (physical !== null) details.push(`address ${physical}`);
  const mailing = addressText(applicant.mailing_address);
  if (mailing !== null && mailing !== physical) details.push(`mailing ${mailing}`);
  const who = applicant.name ?? applicant.applicant_id;
  return `${applicant.roles.join('/')} ${who} (${details.join('; ')})`;
}
