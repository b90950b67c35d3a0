/** Card art upload to the processor's UX toolkit (spec §2.3, §4.3; conventions.md). */
import { z } from 'zod';
import { idOf } from './ids.ts';

/** The spec shows `front`; the processor's toolkit also accepts `back` and `thumbnail`. */
export const CARD_ART_ASSET_TYPES = ['front', 'back', 'thumbnail'] as const;
export type CardArtAssetType = (typeof CARD_ART_ASSET_TYPES)[number];

export const cardArtUploadRequest = z.strictObject({
  asset_type: z.enum(CARD_ART_ASSET_TYPES),
  file_id: idOf('file'),
});
export type CardArtUploadRequest = z.infer<typeof cardArtUploadRequest>;

/** Success answers an empty JSON object. */
export const cardArtUploadResponse = z.looseObject({});

/** Only PNG images are accepted as card art. */
export const CARD_ART_MEDIA_TYPE = 'image/png';
