/**
 * Field formats shared by every resource of the interface (spec §2, conventions.md).
 * Each helper carries a message that says what the value must look like; the field's
 * name is added by `describeIssues` from the path, so every rejection names it.
 */
import { z } from 'zod';

/** Money is a string with exactly two decimals (spec §2.1); never a float. */
export const MONEY_PATTERN = /^-?[0-9]+[.][0-9][0-9]$/;
export const money = z
  .string()
  .regex(MONEY_PATTERN, { message: 'must be an amount with two decimals, like 12.34 or -0.50' });

/** An amount that is not zero, and one greater than zero; the patterns say so in /openapi.json. */
// A non-zero digit before the point, or in the cents (no lookahead: generators such as
// fast-check's stringMatching build values from these patterns and cannot follow one).
const NON_ZERO_MONEY_PATTERN = '^-?(?:[0-9]*[1-9][0-9]*[.][0-9]{2}|[0-9]+[.](?:[1-9][0-9]|[0-9][1-9]))$';
const POSITIVE_MONEY_PATTERN = '^(?:[0-9]*[1-9][0-9]*[.][0-9]{2}|[0-9]+[.](?:[1-9][0-9]|[0-9][1-9]))$';
export const nonZeroMoney = money
  .refine((amount) => new RegExp(NON_ZERO_MONEY_PATTERN).test(amount), { message: 'must not be zero' })
  .meta({ pattern: NON_ZERO_MONEY_PATTERN });
export const positiveMoney = money
  .refine((amount) => new RegExp(POSITIVE_MONEY_PATTERN).test(amount), { message: 'must be greater than 0.00' })
  .meta({ pattern: POSITIVE_MONEY_PATTERN });

/**
 * An e-mail address as JSON Schema's `format: email` means it (RFC 5321 mailbox, host names
 * as RFC 1123 labels: no label begins or ends with a hyphen), so a value the sandbox takes is
 * one a validator of the document takes too. The top-level domain is letters, two or more
 * (zod's rule, kept: `a@b.c` was refused before and still is). The pattern goes into the
 * document beside the format.
 */
const EMAIL_PATTERN =
  "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:[.][A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?[.])+[A-Za-z]{2,63}$";
export const emailAddress = z
  .email({ pattern: new RegExp(EMAIL_PATTERN), message: 'must be an email address' })
  .max(254, { message: 'must be at most 254 characters' })
  .meta({ pattern: EMAIL_PATTERN });

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

function calendarDateOf(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  return isCalendarDate(year, month, day);
}

function clockTimeOf(text: string): boolean {
  const hours = Number(text.slice(11, 13));
  const minutes = Number(text.slice(14, 16));
  const seconds = Number(text.slice(17, 19));
  return hours <= 23 && minutes <= 59 && seconds <= 59;
}

/** ISO 8601 calendar date `YYYY-MM-DD`, checked against the real calendar. */
const DATE_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
export const isoDate = z
  .string()
  .regex(DATE_PATTERN, { message: 'must be a date in the form YYYY-MM-DD' })
  .refine(calendarDateOf, { message: 'must be a real calendar date (YYYY-MM-DD)' })
  // JSON Schema's `date` format is a real calendar date, the refinement above.
  .meta({ format: 'date' });

/** `YYYY-MM-DDThh:mm:ssZ`, always UTC (spec §2.1 extended_timestamp, §2.2 created_at). */
const TIMESTAMP_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$/;
export const timestamp = z
  .string()
  .regex(TIMESTAMP_PATTERN, { message: 'must be a UTC timestamp in the form YYYY-MM-DDThh:mm:ssZ' })
  .refine((text) => calendarDateOf(text) && clockTimeOf(text), {
    message: 'must be a real UTC date and time (YYYY-MM-DDThh:mm:ssZ)',
  });

/** `YYYY-MM-DDThh:mm:ss.SSS[SSS]Z`: milliseconds or microseconds, always UTC. */
const PRECISE_TIMESTAMP_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.]([0-9]{3}|[0-9]{6})Z$/;
export const preciseTimestamp = z
  .string()
  .regex(PRECISE_TIMESTAMP_PATTERN, {
    message: 'must be a UTC timestamp with 3 or 6 fractional digits, like 2024-01-31T12:00:00.123Z',
  })
  .refine((text) => calendarDateOf(text) && clockTimeOf(text), {
    message: 'must be a real UTC date and time',
  });

/** Current time in the `YYYY-MM-DDThh:mm:ssZ` form the service uses. */
export function timestampOf(moment: Date): string {
  return moment.toISOString().slice(0, 19) + 'Z';
}

/** Arbitrary JSON object (bankdata, userdata, document fields). */
export const jsonObject = z.record(z.string(), z.unknown());

/** The real service caps userdata at 1 KB once serialized (conventions.md). */
const USERDATA_MAX_BYTES = 1024;
export const userdata = jsonObject.refine(
  (value) => new TextEncoder().encode(JSON.stringify(value)).length <= USERDATA_MAX_BYTES,
  { message: `must serialize to at most ${String(USERDATA_MAX_BYTES)} bytes of JSON` },
);

/** A non-empty string, for names and descriptions supplied by a client. */
export const nonEmptyText = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  // The trim above makes white space alone empty; the document says it with a pattern.
  .meta({ pattern: '\\S' });
