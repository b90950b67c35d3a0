/**
 * Lists: the `{data, page_next}` envelope and the query parameters shared by list
 * endpoints (spec §4.1, §4.5, §8; conventions.md "Wire conventions").
 */
import { z } from 'zod';
import { isoDate } from './common.ts';

export const PAGE_SIZE_DEFAULT = 100;
/** The interface publishes no maximum; ours is 1000 and larger sizes answer 400. */
export const PAGE_SIZE_MAX = 1000;

/**
 * The envelope of every list the sandbox serves: `page_next` is absolute, or null when
 * exhausted; `total_estimated` is how many objects the list holds, counted up to 10 000, as
 * the real service sends it. A client reads lists with listResponseOf (response.ts), which
 * requires only `data`.
 */
export function listEnvelope<Item extends z.ZodType>(item: Item) {
  return z.looseObject({
    data: z.array(item),
    page_next: z.string().nullable(),
    total_estimated: z.number().int().min(0),
  });
}

/**
 * page_size arrives as a query string ("100") or, from code, as a number. Anything but a
 * whole number from 1 to PAGE_SIZE_MAX is refused with a message naming the limits.
 */
const pageSizeMessage = `must be a whole number from 1 to ${String(PAGE_SIZE_MAX)}`;
const pageSize = z
  .union([z.number(), z.string().regex(/^[0-9]+$/, { message: pageSizeMessage })], {
    error: pageSizeMessage,
  })
  .transform(Number)
  .pipe(
    z
      .number()
      .int({ message: pageSizeMessage })
      .min(1, { message: pageSizeMessage })
      .max(PAGE_SIZE_MAX, { message: pageSizeMessage }),
  );

/** Query parameters shared by list endpoints. from_date is inclusive, to_date exclusive. */
export const listQuery = z
  .strictObject({
    page_cursor: z.string().min(1, { message: 'must not be empty' }).optional(),
    page_size: pageSize.default(PAGE_SIZE_DEFAULT),
    from_date: isoDate.optional(),
    to_date: isoDate.optional(),
  })
  .superRefine((query, context) => {
    if (query.from_date !== undefined && query.to_date !== undefined && query.from_date > query.to_date) {
      context.addIssue({
        code: 'custom',
        path: ['from_date'],
        message: `must not be after to_date (${query.to_date})`,
      });
    }
  });
