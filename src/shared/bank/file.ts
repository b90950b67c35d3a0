/** Files: raw bytes uploaded with their media type, no multipart (conventions.md). */
import { z } from 'zod';
import { timestamp } from './common.ts';
import { responseOf } from './response.ts';

/** Uploads larger than this are refused with 413. */
export const FILE_MAX_BYTES = 10 * 1024 * 1024;

export const fileRecord = z.looseObject({
  id: z.string().min(1),
  content_type: z.string(),
  content_length: z.number().int().min(0),
  /** SHA-1 of the bytes, lowercase hex. */
  content_hash: z.string().regex(/^[0-9a-f]{40}$/, { message: 'must be a SHA-1 hex digest' }),
  /** Where the bytes can be fetched (the real service sends it; hack-examples.json). */
  content_url: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type FileRecord = z.infer<typeof fileRecord>;

export const fileResponse = responseOf({ record: fileRecord, required: ['id'] });
export type FileResponse = z.output<typeof fileResponse.schema>;
