/**
 * Building blocks shared by every domain of the IPC contract: bounded strings (so a huge
 * string is refused before a handler sees it), keyset paging, the shape of every cache read,
 * and the explicit confirmation a write against a Production profile needs.
 */
import { z } from 'zod';
import { isoDate, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../bank/index.ts';

/** The longest string any IPC input field accepts, unless a field says otherwise. */
export const TEXT_MAX = 2_000;
/** Ids, names and keys. */
export const SHORT_TEXT_MAX = 200;
/** URLs (browsers cap practical URLs around 2 KB; we allow twice that). */
const URL_MAX = 4_096;
/** Opaque paging cursors are produced by the cache; they stay small. */
const CURSOR_MAX = 1_024;
/** Free-text search: a phrase, not a document. */
const SEARCH_MAX = 200;

/** A non-empty id of something (profile, job, request, rule): short and single-line. */
export const idText = z
  .string()
  .min(1, { message: 'must not be empty' })
  .max(SHORT_TEXT_MAX, { message: `must be at most ${SHORT_TEXT_MAX} characters` })
  .regex(/^[^\s]+$/, { message: 'must not contain spaces or line breaks' });

/** A short human-entered name (profile name, rule name). */
export const nameText = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(SHORT_TEXT_MAX, { message: `must be at most ${SHORT_TEXT_MAX} characters` });

/** Free-text search over descriptions and summaries. */
export const searchText = z
  .string()
  .max(SEARCH_MAX, { message: `must be at most ${SEARCH_MAX} characters` })
  .optional();

/** An absolute http(s) URL of bounded length. */
export const httpUrl = z
  .string()
  .max(URL_MAX, { message: `must be at most ${URL_MAX} characters` })
  .refine(
    (text) => {
      try {
        const url = new URL(text);
        return url.protocol === 'http:' || url.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http:// or https:// URL' },
  );

/** The profile a call works on (an idText, named for what it holds). @alias */
export const profileId = idText;

/** Date range of a filter: from inclusive, to exclusive (as the bank's lists). */
export const dateRange = {
  fromDate: isoDate.optional(),
  toDate: isoDate.optional(),
};

const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const sortDirection = z.enum(SORT_DIRECTIONS).optional();

/** Keyset paging: pass back `nextCursor` of the previous page to get the next one. */
export const paging = {
  cursor: z
    .string()
    .min(1, { message: 'must not be empty' })
    .max(CURSOR_MAX, { message: `must be at most ${CURSOR_MAX} characters` })
    .optional(),
  limit: z
    .number()
    .int({ message: `must be a whole number from 1 to ${PAGE_SIZE_MAX}` })
    .min(1, { message: `must be a whole number from 1 to ${PAGE_SIZE_MAX}` })
    .max(PAGE_SIZE_MAX, { message: `must be a whole number from 1 to ${PAGE_SIZE_MAX}` })
    .default(PAGE_SIZE_DEFAULT),
};

/** When the cached data was last synced from the bank; null when never. ISO 8601 UTC. */
export const asOf = z.string().nullable();

/**
 * Every cache read answers this: a page of rows, the cursor of the next page (null at the
 * end), when the data was synced, where it came from, and optionally the total behind the
 * filter.
 */
export function cachePage<Row extends z.ZodType>(row: Row) {
  return z.object({
    rows: z.array(row),
    nextCursor: z.string().nullable(),
    asOf,
    source: z.literal('cache'),
    total: z.number().int().min(0).optional(),
  });
}

/** The answer of every count: how many rows match the filter, and how fresh they are. */
export const countResult = z.object({ count: z.number().int().min(0), asOf });

/**
 * Writes against a Production profile must carry `confirmProduction: true`; without it they
 * are refused with code `confirmation_required`. Harmless (and ignored) on other profiles.
 */
export const confirmProduction = z
  .literal(true, { message: 'must be true to confirm a change on a Production profile' })
  .optional();

/** An input with no parameters. */
export const noInput = z.strictObject({});

/** A file chosen through the save dialog of the main process, or nothing if cancelled. */
export const savedFile = z.object({
  saved: z.boolean(),
  /** Where it was written (the path the user chose), or null when the dialog was cancelled. */
  path: z.string().nullable(),
  rows: z.number().int().min(0),
});
