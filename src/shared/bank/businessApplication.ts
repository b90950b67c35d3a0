/**
 * Business application: the business behind a business account application
 * (`business_application_id`). The interface leaves it out; the real service has it
 * (`POST /apply/business_application`, `GET /apply/business_application[/{id}]`, in the
 * vendor's public API reference). Where each field comes from: docs/business-applications.md.
 */
import { z } from 'zod';
import { isoDate, jsonObject, nonEmptyText, timestamp, userdata } from './common.ts';
import { idOf } from './ids.ts';
import { postalAddress } from './personApplication.ts';
import { responseOf } from './response.ts';

const text = nonEmptyText.max(200, { message: 'must be at most 200 characters' });

/** The roles the vendor's reference shows a person holding in a business. */
const BUSINESS_PERSON_ROLES = ['control_person', 'signer'] as const;

/** A business address: a person's, with the country the reference's mailing address carries. */
const businessAddress = postalAddress.extend({
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, { message: 'must be a two-letter country code, like US' })
    .optional(),
});

/** A person of the business, as the business application names them. */
const businessPersonRef = z.looseObject({
  id: z.string().min(1),
  roles: z.array(z.string()),
  ownership_percentage: z.number().nullable(),
  title: z.string().nullable(),
});

export const businessApplication = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  dba: z.string().nullable(),
  description: z.string().nullable(),
  /** Formation date, YYYY-MM-DD. */
  established_on: isoDate.nullable(),
  incorporation_state: z.string().nullable(),
  legal_structure: z.string().nullable(),
  /** US tax id (EIN), as sent (`11-3344555`). */
  tin: z.string().nullable(),
  /** A non-US identification number and its type, when the business has no EIN. */
  identification_number: z.string().nullable(),
  identification_number_type: z.string().nullable(),
  naics: z.string().nullable(),
  naics_description: z.string().nullable(),
  phone_number: z.string().nullable(),
  urls: z.array(z.string()).nullable(),
  physical_address: jsonObject.nullable(),
  mailing_address: jsonObject.nullable(),
  person_applications: z.array(businessPersonRef).nullable(),
  /** Documents about the business (formation papers, EIN letter). */
  document_ids: z.array(z.string()).nullable(),
  bank_id: z.string(),
  bankdata: jsonObject.nullable(),
  userdata: jsonObject.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type BusinessApplication = z.infer<typeof businessApplication>;

/** What a client sends (the reference's create request); whether the people and documents exist is the bank's to check. */
export const businessApplicationCreateRequest = z.strictObject({
  name: text,
  dba: text.nullable().optional(),
  description: nonEmptyText.max(1000, { message: 'must be at most 1000 characters' }).nullable().optional(),
  established_on: isoDate,
  incorporation_state: z.string().regex(/^[A-Z]{2}$/, { message: 'must be a two-letter state code, like DE' }),
  legal_structure: nonEmptyText.max(40, { message: 'must be at most 40 characters' }),
  tin: z
    .string()
    .regex(/^[0-9]{2}-?[0-9]{7}$/, { message: 'must be an EIN, like 11-3344555' })
    .nullable()
    .optional(),
  identification_number: text.nullable().optional(),
  identification_number_type: text.nullable().optional(),
  naics: z
    .string()
    .regex(/^[0-9]{2,6}$/, { message: 'must be a NAICS code of 2 to 6 digits, like 42' })
    .optional(),
  naics_description: text.nullable().optional(),
  phone_number: z
    .string()
    .regex(/^[+0-9][0-9 ()-]{6,24}$/, { message: 'must be a phone number, like +1 415-555-1111' }),
  urls: z
    .array(z.url({ message: 'must be a web address, like https://example.com' }))
    .max(10)
    .optional(),
  physical_address: businessAddress,
  mailing_address: businessAddress.nullable().optional(),
  person_applications: z
    .array(
      z.strictObject({
        id: idOf('personApplication'),
        roles: z.array(z.enum(BUSINESS_PERSON_ROLES)).min(1, { message: 'must name at least one role' }),
        ownership_percentage: z
          .number()
          .min(0, { message: 'must be from 0 to 100' })
          .max(100, { message: 'must be from 0 to 100' })
          .optional(),
        title: text.nullable().optional(),
      }),
    )
    .min(1, { message: 'must name at least one person' }),
  document_ids: z.array(idOf('document')).max(50).optional(),
  userdata: userdata.optional(),
  bankdata: jsonObject.optional(),
});
export type BusinessApplicationCreateRequest = z.infer<typeof businessApplicationCreateRequest>;

export const businessApplicationResponse = responseOf({ record: businessApplication, required: ['id'] });
export type BusinessApplicationResponse = z.output<typeof businessApplicationResponse.schema>;
