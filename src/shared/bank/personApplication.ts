/**
 * Person application: the applicant an account application names as its primary person (and
 * its other people). The interface leaves it out; the real service has it
 * (`POST /apply/person_application`, real-wire create_person_application_failure) and the
 * sandbox serves it so account applications can be created against a real applicant.
 */
import { z } from 'zod';
import { emailAddress, isoDate, jsonObject, nonEmptyText, timestamp, userdata } from './common.ts';
import { idOf } from './ids.ts';
import { responseOf } from './response.ts';

const text = nonEmptyText.max(200, { message: 'must be at most 200 characters' });

export const postalAddress = z.strictObject({
  street_line_1: text,
  street_line_2: text.nullable().optional(),
  city: text,
  /** Two-letter state code, as the recordings send it (DC). */
  state: z.string().regex(/^[A-Z]{2}$/, { message: 'must be a two-letter state code, like DC' }),
  postal_code: z.string().regex(/^[0-9]{5}(-[0-9]{4})?$/, { message: 'must be a ZIP code, like 20500' }),
});

/** What the real client sends (real-wire); the age rule is the bank's to apply, not the client's. */
export const personApplicationCreateRequest = z.strictObject({
  first_name: text,
  middle_name: text.nullable().optional(),
  last_name: text,
  date_of_birth: isoDate,
  email_address: emailAddress,
  phone_number: z.string().regex(/^[0-9]{10}$/, { message: 'must be ten digits, like 2025551111' }),
  /** ISO 3166 country code. */
  citizenship: z.string().regex(/^[A-Z]{2}$/, { message: 'must be a two-letter country code, like US' }),
  physical_address: postalAddress,
  mailing_address: postalAddress.nullable().optional(),
  /**
   * The person's taxpayer id (an SSN, `123-45-6789`). Sent, never answered: the real service
   * leaves it out of every response. Its sandbox decides the application's outcome by its
   * first digit (sandboxTinOutcomes.ts).
   */
  tin: z
    .string()
    .regex(/^[0-9]{3}-?[0-9]{2}-?[0-9]{4}$/, { message: 'must be an SSN, like 123-45-6789' })
    .optional(),
  /** Identity documents already created (`POST /document`) about this person. */
  document_ids: z.array(idOf('document')).max(50).optional(),
  userdata: userdata.optional(),
  bankdata: jsonObject.optional(),
});
export type PersonApplicationCreateRequest = z.infer<typeof personApplicationCreateRequest>;

export const personApplication = z.looseObject({
  id: z.string().min(1),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  date_of_birth: isoDate,
  email_address: z.string(),
  phone_number: z.string(),
  citizenship: z.string(),
  physical_address: jsonObject,
  mailing_address: jsonObject.nullable(),
  /** Documents about this person (identity documents): the vendor's reference lists `document_ids`. */
  document_ids: z.array(z.string()).nullable(),
  userdata: jsonObject.nullable(),
  bankdata: jsonObject.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type PersonApplication = z.infer<typeof personApplication>;

export const personApplicationResponse = responseOf({ record: personApplication, required: ['id'] });
export type PersonApplicationResponse = z.output<typeof personApplicationResponse.schema>;
