/**
 * Account application (spec §2.4). The three fields the interface leaves unnamed are
 * `account_number`, `product` and `ownership_type` (conventions.md).
 */
import { z } from 'zod';
import { jsonObject, timestamp, userdata } from './common.ts';
import { idOf, objectId } from './ids.ts';
import { responseOf } from './response.ts';

export const ACCOUNT_APPLICATION_STATUSES = [
  'unsubmitted',
  'submitted',
  'canceled',
  'kyc',
  'processing',
  'manual_review',
  'rejected',
  'approved',
] as const;
export type AccountApplicationStatus = (typeof ACCOUNT_APPLICATION_STATUSES)[number];

export const OWNERSHIP_TYPES = ['personal', 'business'] as const;
export type OwnershipType = (typeof OWNERSHIP_TYPES)[number];

const PERSON_APPLICATION_ROLES = ['owner', 'signer', 'minor'] as const;

const personApplicationRef = z.looseObject({
  id: z.string().min(1),
  roles: z.array(z.enum(PERSON_APPLICATION_ROLES)),
});

export const accountApplication = z.looseObject({
  id: z.string().min(1),
  account_id: z.string().nullable(),
  account_number: z.string().nullable(),
  account_number_reservation_id: z.string().nullable(),
  account_product_id: z.string(),
  bankdata: jsonObject.nullable(),
  business_application_id: z.string().nullable(),
  deposit_id: z.string(),
  ownership_type: z.enum(OWNERSHIP_TYPES),
  /** Always null for business accounts. */
  person_applications: z.array(personApplicationRef).nullable(),
  primary_person_application_id: z.string(),
  /** Deprecated account-product nickname; the real service rejects requests that send it. */
  product: z.string().nullable().meta({ deprecated: true }),
  status: z.enum(ACCOUNT_APPLICATION_STATUSES),
  userdata: jsonObject.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type AccountApplication = z.infer<typeof accountApplication>;

/** Filters of the account-application list (spec §2.4 "Filterable"). */
export const accountApplicationFilters = z.strictObject({
  status: z.enum(ACCOUNT_APPLICATION_STATUSES).optional(),
  account_product_id: z.string().min(1).optional(),
  ownership_type: z.enum(OWNERSHIP_TYPES).optional(),
  account_id: z.string().min(1).optional(),
  business_application_id: z.string().min(1).optional(),
  primary_person_application_id: z.string().min(1).optional(),
});
export type AccountApplicationFilters = z.infer<typeof accountApplicationFilters>;

/** The deprecated account-product nicknames (`product`): what the 2021 recordings create with. */
const ACCOUNT_PRODUCT_NICKNAMES = [
  'personal_checking',
  'personal_savings',
  'business_checking',
  'business_savings',
] as const;
export type AccountProductNickname = (typeof ACCOUNT_PRODUCT_NICKNAMES)[number];

/**
 * The body of `POST /apply/account_application` (not in the interface; the real service's).
 * `product` is not a field here: the real service now refuses it (conventions.md), so a client
 * never sends it. Whether the people named exist is the bank's to check.
 */
export const accountApplicationCreateFields = z.strictObject({
  primary_person_application_id: objectId,
  account_product_id: idOf('accountProduct').optional(),
  business_application_id: idOf('businessApplication').nullable().optional(),
  person_applications: z
    .array(z.strictObject({ id: idOf('personApplication'), roles: z.array(z.enum(PERSON_APPLICATION_ROLES)) }))
    .nullable()
    .optional(),
  deposit_id: idOf('deposit').nullable().optional(),
  account_number_reservation_id: z.string().min(1).nullable().optional(),
  userdata: userdata.nullable().optional(),
  bankdata: jsonObject.nullable().optional(),
});

export const accountApplicationCreateRequest = accountApplicationCreateFields.superRefine((request, context) => {
  if (request.account_product_id === undefined) {
    context.addIssue({ code: 'custom', path: ['account_product_id'], message: 'is required (the account product)' });
  }
});
export type AccountApplicationCreateRequest = z.infer<typeof accountApplicationCreateRequest>;

/**
 * What the sandbox takes (and its OpenAPI document describes): the client's fields, or the
 * deprecated `product` nickname in place of `account_product_id`, as the 2021 recordings
 * create. The real service now refuses `product` with 400; the sandbox's `--lean` does too.
 */
export const accountApplicationCreateWithNickname = accountApplicationCreateFields
  .extend({ product: z.enum(ACCOUNT_PRODUCT_NICKNAMES).optional() })
  .superRefine((request, context) => {
    if (request.account_product_id === undefined && request.product === undefined) {
      context.addIssue({ code: 'custom', path: ['account_product_id'], message: 'is required (the account product)' });
    }
  })
  .meta({ anyOf: [{ required: ['account_product_id'] }, { required: ['product'] }] });

export const accountApplicationResponse = responseOf({ record: accountApplication, required: ['id'] });
export type AccountApplicationResponse = z.output<typeof accountApplicationResponse.schema>;
