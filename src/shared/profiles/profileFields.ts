/**
 * The rules of a profile's name and base URL, defined once: the IPC contract checks them
 * before a handler runs, the profile service checks them again before it stores anything,
 * and the renderer's form checks them before it sends. One rule, so a name the form accepts
 * is never refused further down.
 */
import { z } from 'zod';

export const PROFILE_NAME_MAX = 64;
export const PROFILE_BASE_URL_MAX = 4_096;

/** Letters and digits of any script; a name starts with one (not with punctuation or a space). */
const STARTS_WITH_LETTER_OR_DIGIT = /^[\p{L}\p{N}]/u;
/** Control and format characters (line breaks, tabs, bidi overrides, zero-width marks). */
const CONTROL_OR_FORMAT = /\p{C}/u;

/**
 * A profile's name, as shown in the switcher, the Production banner, confirmations, the audit
 * log and the command line (`--profile NAME`): trimmed, 1 to 64 characters, starting with a
 * letter or digit, with no control or invisible characters. Punctuation such as parentheses,
 * dashes and ampersands is fine ("Acme (staging)", "R&D – Sandbox").
 */
export const profileName = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(PROFILE_NAME_MAX, { message: `must be at most ${PROFILE_NAME_MAX} characters` })
  .refine((text) => STARTS_WITH_LETTER_OR_DIGIT.test(text), { message: 'must start with a letter or digit' })
  .refine((text) => !CONTROL_OR_FORMAT.test(text), {
    message: 'must not contain line breaks, tabs or invisible characters',
  });

/** A bank's base URL: absolute http(s), no query or fragment (paths are appended to it). */
export const profileBaseUrl = z
  .string()
  .trim()
  .max(PROFILE_BASE_URL_MAX, { message: `must be at most ${PROFILE_BASE_URL_MAX} characters` })
  .refine(
    (text) => {
      try {
        const url = new URL(text);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.search === '' && url.hash === '';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http:// or https:// address without query or fragment' },
  );
