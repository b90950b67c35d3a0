/**
 * Applicants (issue 24): the people and businesses an account application names, read from the
 * cache with their personal data masked (src/shared/personalData/masking.ts). A masked field is
 * shown in clear only through `reveal`, one field of one applicant at a time, and every reveal
 * is written to the audit chain with who asked. Nothing here sends a masked value in clear.
 */
import { z } from 'zod';
import { DISCLOSURE_CLASSES, exportDisclosure } from '../../personalData/exportDisclosure.ts';
import { PERSONAL_FIELDS } from '../../personalData/masking.ts';
import { asOf, idText, profileId, searchText } from '../common.ts';

const APPLICANT_KINDS = ['person', 'business'] as const;
/** received: as the bank sent it; malformed: kept as received, with its problems; not-returned: the bank answered 404. */
const APPLICANT_STATES = ['received', 'malformed', 'not-returned'] as const;

/** An application that names the applicant, and its roles there (primary, owner, signer, business). */
const applicantLink = z.object({ applicationId: z.string(), roles: z.array(z.string()) });

const applicantView = z.object({
  applicantId: z.string(),
  kind: z.enum(APPLICANT_KINDS),
  state: z.enum(APPLICANT_STATES),
  /** The record as the bank sent it, every personal field masked; null when it never returned one. */
  record: z.record(z.string(), z.unknown()).nullable(),
  /** The personal fields the record carries, masked in `record`: each can be revealed. */
  maskedFields: z.array(z.enum(PERSONAL_FIELDS)),
  /** A person's age in whole years today (UTC), from the date of birth; null for a business or no date. */
  age: z.number().int().nullable(),
  /** What was wrong with a malformed record: field names and rules, never a value. */
  problems: z.array(z.string()),
  fetchedAt: z.string(),
  /** Every cached application that names it. */
  applications: z.array(applicantLink),
});
export type ApplicantView = z.infer<typeof applicantView>;

/** An applicant as one application names it: the roles there, and the applicant if ever fetched. */
const namedApplicant = z.object({
  applicantId: z.string(),
  kind: z.enum(APPLICANT_KINDS),
  roles: z.array(z.string()),
  /** Null when it was never fetched yet (sync the book, or open the application by id). */
  applicant: applicantView.nullable(),
});
export type NamedApplicant = z.infer<typeof namedApplicant>;

export const applicantsOperations = {
  /** The applicants one application names: people first, then the business. */
  ofApplication: {
    input: z.strictObject({ profileId, applicationId: idText }),
    output: z.object({ rows: z.array(namedApplicant), asOf }),
  },
  /** One applicant with every application naming it; null when never fetched. */
  get: {
    input: z.strictObject({ profileId, applicantId: idText }),
    output: z.object({ applicant: applicantView.nullable() }),
  },
  /** Applicants by name, email or business name (keyed word hashes; no record opened to find one). */
  list: {
    input: z.strictObject({
      profileId,
      search: searchText,
      kind: z.enum(APPLICANT_KINDS).optional(),
      limit: z.number().int().min(1).max(500).default(100),
    }),
    output: z.object({ rows: z.array(applicantView) }),
  },
  /** One personal field of one applicant in clear, written to the audit chain (who, which field, when). */
  reveal: {
    input: z.strictObject({ profileId, applicantId: idText, field: z.enum(PERSONAL_FIELDS) }),
    output: z.object({
      field: z.enum(PERSONAL_FIELDS),
      /** Null when the record does not carry the field. */
      value: z.string().nullable(),
      /** The audit entry's id that records this reveal. */
      auditEntryId: z.string(),
    }),
  },
  /** The classes of personal fields this profile's exports and review reports print in clear (default none). */
  exportUnmasked: {
    input: z.strictObject({ profileId }),
    output: z.object({ classes: z.array(z.enum(DISCLOSURE_CLASSES)) }),
  },
  /** Sets them (empty: nothing unmasked); written to the audit chain with who changed it. */
  setExportUnmasked: {
    input: z.strictObject({ profileId, classes: exportDisclosure }),
    output: z.object({ classes: z.array(z.enum(DISCLOSURE_CLASSES)) }),
  },
} as const;
