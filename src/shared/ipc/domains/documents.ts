/**
 * Documents, files and card art: the writes of a compliance officer. Each write is recorded
 * in the cache (the history shown beside the form) and in the audit log.
 */
import { z } from 'zod';
import {
  CARD_ART_ASSET_TYPES,
  cardArtUploadRequest,
  cardProductResponse,
  documentResponse,
  documentCreateRequest,
  FILE_MAX_BYTES,
  fileResponse,
  idOf,
} from '../../bank/index.ts';
import {
  asOf,
  cachePage,
  confirmProduction,
  idText,
  paging,
  profileId,
  searchText,
  SHORT_TEXT_MAX,
} from '../common.ts';

export const documentsOperations = {
  create: {
    input: z.strictObject({ profileId, request: documentCreateRequest, confirmProduction }),
    output: documentResponse.object,
  },
  /** Documents created from this app, newest first. */
  list: {
    input: z.strictObject({ profileId, search: searchText, ...paging }),
    output: cachePage(documentResponse.object),
  },
} as const;

/** Media types a file upload may declare. */
export const FILE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;

export const filesOperations = {
  /** Uploads raw bytes (POST /file); the answer's id goes into a document or card art. */
  upload: {
    input: z.strictObject({
      profileId,
      contentType: z.enum(FILE_MEDIA_TYPES),
      bytes: z
        .custom<Uint8Array>((value) => value instanceof Uint8Array, { message: 'must be the bytes of the file' })
        .refine((bytes) => bytes.byteLength > 0, { message: 'must not be empty' })
        .refine((bytes) => bytes.byteLength <= FILE_MAX_BYTES, {
          message: `must be at most ${FILE_MAX_BYTES / (1024 * 1024)} MiB`,
        }),
      confirmProduction,
    }),
    output: fileResponse.object,
  },
} as const;

/** A card-art upload made from this app. */
const cardArtUpload = z.object({
  id: z.string(),
  profileId: z.string(),
  cardProductId: z.string(),
  assetType: z.enum(CARD_ART_ASSET_TYPES),
  fileId: z.string(),
  uploadedAt: z.string(),
});
export type CardArtUpload = z.infer<typeof cardArtUpload>;

export const cardArtOperations = {
  upload: {
    input: z.strictObject({
      profileId,
      cardProductId: idOf('cardProduct').max(SHORT_TEXT_MAX, {
        message: `must be at most ${SHORT_TEXT_MAX} characters`,
      }),
      request: cardArtUploadRequest,
      confirmProduction,
    }),
    output: cardArtUpload,
  },
  /** Uploads made from this app, newest first. */
  list: {
    input: z.strictObject({ profileId, cardProductId: idText.optional(), ...paging }),
    output: cachePage(cardArtUpload),
  },
  /** Card products of the profile, for the picker. */
  products: {
    input: z.strictObject({ profileId }),
    output: z.object({ rows: z.array(cardProductResponse.object), asOf, source: z.enum(['cache', 'bank']) }),
  },
} as const;
