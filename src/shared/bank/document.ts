/** Document (spec §2.2) and its create request (spec §4.2). */
import { z } from 'zod';
import { jsonObject, nonEmptyText, timestamp, userdata } from './common.ts';
import { idOf } from './ids.ts';
import { responseOf } from './response.ts';

export const DOCUMENT_TYPES = ['drivers_license', 'military_id', 'passport', 'state_id', 'other'] as const;

export const document = z.looseObject({
  id: z.string().min(1),
  type: z.enum(DOCUMENT_TYPES),
  name: z.string(),
  file_id: z.string(),
  fields: jsonObject,
  bankdata: jsonObject,
  userdata: jsonObject,
  bank_id: z.string(),
  organization_id: z.string(),
  /** Deprecated (spec §2.2, §9); still sent by the service. */
  description: z.string().nullable().meta({ deprecated: true }),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Document = z.infer<typeof document>;

/**
 * Which body fields are required is not shown (spec §4.2); we require what a document
 * cannot be without: its type, name, file and fields. Unknown fields are refused.
 */
export const documentCreateRequest = z.strictObject({
  type: z.enum(DOCUMENT_TYPES),
  name: nonEmptyText,
  file_id: idOf('file'),
  fields: jsonObject,
  bankdata: jsonObject.optional(),
  userdata: userdata.optional(),
});
export type DocumentCreateRequest = z.infer<typeof documentCreateRequest>;

/** A document as read from the bank: public docs and the real service say `org_id`. */
export const documentResponse = responseOf({
  record: document,
  required: ['id'],
  aliases: { org_id: 'organization_id' },
});
export type DocumentResponse = z.output<typeof documentResponse.schema>;
