/**
 * What a profile lets reports and exports show unmasked (issue 24, item 4). Personal data is
 * masked everywhere by default; a profile may name classes of fields (all tax ids together, all
 * street lines together) that its exports and review reports print in clear. The default is
 * nothing. The screen is not concerned: there, only a per-field Reveal shows a value.
 */
import { z } from 'zod';
import type { PersonalField } from './masking.ts';

export const DISCLOSURE_CLASSES = ['date_of_birth', 'tax_id', 'phone', 'email', 'street_lines'] as const;
export type DisclosureClass = (typeof DISCLOSURE_CLASSES)[number];

/** The words the Settings screen and the audit log use for each class. */
export const DISCLOSURE_CLASS_LABELS: Record<DisclosureClass, string> = {
  date_of_birth: 'date of birth',
  tax_id: 'tax id',
  phone: 'phone',
  email: 'email',
  street_lines: 'street lines',
};

/** The record fields each class covers. */
const DISCLOSURE_CLASS_FIELDS: Record<DisclosureClass, readonly PersonalField[]> = {
  date_of_birth: ['date_of_birth'],
  tax_id: ['tin', 'ssn', 'identification_number'],
  phone: ['phone_number'],
  email: ['email_address'],
  street_lines: [
    'physical_address.street_line_1',
    'physical_address.street_line_2',
    'mailing_address.street_line_1',
    'mailing_address.street_line_2',
  ],
};

/** A set of classes, each at most once, kept in the canonical order. */
export const exportDisclosure = z
  .array(z.enum(DISCLOSURE_CLASSES))
  .max(DISCLOSURE_CLASSES.length)
  .refine((classes) => new Set(classes).size === classes.length, { message: 'must name each field class once' })
  .transform((classes) => DISCLOSURE_CLASSES.filter((entry) => classes.includes(entry)));

/** The personal fields exports may print in clear under these classes. */
export function unmaskedFieldsOf(classes: readonly DisclosureClass[]): Set<PersonalField> {
  return new Set(classes.flatMap((entry) => DISCLOSURE_CLASS_FIELDS[entry]));
}

/** `date of birth, email`, or `nothing`: how the audit log and the report header say it. */
export function disclosureText(classes: readonly DisclosureClass[]): string {
  return classes.length === 0 ? 'nothing' : classes.map((entry) => DISCLOSURE_CLASS_LABELS[entry]).join(', ');
}
