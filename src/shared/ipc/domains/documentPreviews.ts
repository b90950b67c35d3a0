/**
 * Previews of the documents an applicant names (issue 24, item 3): the file behind the document,
 * from the cache or fetched from the bank on demand (and then kept, sealed), handed to the window
 * as bytes with their media type. Only the media types the window can show safely are read, and
 * only up to the bank's own file size limit.
 */
import { z } from 'zod';
import { FILE_MAX_BYTES } from '../../bank/index.ts';
import { idText, profileId } from '../common.ts';

/** What a preview shows: images the window draws from a blob: URL, PDFs it renders page by page. */
export const PREVIEW_MEDIA_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export type PreviewMediaType = (typeof PREVIEW_MEDIA_TYPES)[number];

/** The most a preview reads: the bank's own limit on a file (10 MiB). */
export const PREVIEW_MAX_BYTES = FILE_MAX_BYTES;

const documentPreview = z.object({
  documentId: z.string(),
  fileId: z.string(),
  contentType: z.enum(PREVIEW_MEDIA_TYPES),
  /**
   * The file's bytes in base64: text crosses every transport the same way (Electron's IPC, web
   * mode's WebSocket JSON, the test harness), where raw bytes would not.
   */
  contentBase64: z.string(),
  byteLength: z.number().int().min(0),
  /** cache: read from the offline cache; bank: fetched just now (and kept for next time). */
  source: z.enum(['cache', 'bank']),
  fetchedAt: z.string(),
});
export type DocumentPreview = z.infer<typeof documentPreview>;

export const documentPreviewsOperations = {
  /** The file of one document an applicant names; the bank is asked only when the cache lacks it. */
  get: {
    input: z.strictObject({ profileId, applicantId: idText, documentId: idText }),
    output: documentPreview,
  },
} as const;
