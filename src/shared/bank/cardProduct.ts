/** Card product: the target of card-art uploads; records which file is each asset. */
import { z } from 'zod';
import { timestamp } from './common.ts';

export const cardProduct = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  card_art: z.looseObject({
    front: z.string().nullable(),
    back: z.string().nullable(),
    thumbnail: z.string().nullable(),
  }),
  created_at: timestamp,
  updated_at: timestamp,
});
export type CardProduct = z.infer<typeof cardProduct>;
