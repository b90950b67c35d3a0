/**
 * Card product: the target of card-art uploads. The real service's record (real-wire
 * `get_card_products_success`) names the art's files `card_front_image_file_id` and
 * `card_back_image_file_id` and has a `type`, a `status` and `userdata`; the sandbox serves
 * that shape and adds `name` and `card_art` (which also holds the thumbnail, a toolkit asset
 * the real record has no field for).
 */
import { z } from 'zod';
import { jsonObject, timestamp } from './common.ts';
import { responseOf } from './response.ts';
import type { CardArtAssetType } from './cardArt.ts';

export const cardProduct = z.looseObject({
  id: z.string().min(1),
  /** `physical` or `virtual` in the recordings; other values are kept as sent. */
  type: z.string(),
  /** `active` in the recordings. */
  status: z.string(),
  card_front_image_file_id: z.string().nullable(),
  card_back_image_file_id: z.string().nullable(),
  userdata: jsonObject.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  /** Sandbox extra: a name to pick the product by. */
  name: z.string(),
  /** Sandbox extra: the file of each toolkit asset. */
  card_art: z.looseObject({
    front: z.string().nullable(),
    back: z.string().nullable(),
    thumbnail: z.string().nullable(),
  }),
});
export type CardProduct = z.infer<typeof cardProduct>;

export const cardProductResponse = responseOf({
  record: cardProduct,
  required: ['id'],
  extras: ['name', 'card_art'],
});
export type CardProductResponse = z.output<typeof cardProductResponse.schema>;

/** The file of one asset, in the real shape first and the sandbox's beside it. */
export function cardArtFileOf(product: CardProductResponse, asset: CardArtAssetType): string | null {
  if (asset === 'front') return product.card_front_image_file_id ?? product.card_art?.front ?? null;
  if (asset === 'back') return product.card_back_image_file_id ?? product.card_art?.back ?? null;
  return product.card_art?.thumbnail ?? null;
}

/** How a product reads in a picker: its name when the bank sent one (the real record has none), else its type. */
export function cardProductLabelOf(product: CardProductResponse): string {
  const what =
    product.name ?? (product.type === undefined || product.type === null ? 'card product' : `${product.type} card`);
  const front = cardArtFileOf(product, 'front');
  return `${what} · ${product.id}${front === null ? '' : ` · front art ${front}`}`;
}
