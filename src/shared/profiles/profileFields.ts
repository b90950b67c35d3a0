/**
 * The rules of a profile's name and base URL, defined once: the IPC contract checks them
 * before a handler runs, the profile service checks them again before it stores anything,
 * and the renderer's form checks them before it sends. One rule, so a name the form accepts
 * is never refused further down.
 */
import { z } from 'zod';

export const PROFILE_NAME_MAX = 64;
const PROFILE_BASE_URL_MAX = 4_096;

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

/**
 * Loopback hosts, where plain http never leaves the machine: 127.0.0.0/8, ::1 and localhost.
 * `URL.hostname` has already normalised them (`127.1` becomes `127.0.0.1`, IPv6 keeps its
 * brackets), so a literal match is enough.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * What is wrong with a bank's base URL, in a sentence, or null when it is fine. The rule:
 * absolute, https (plain http only to loopback, where the secret never crosses a network),
 * no user name or password in it (they would be stored in clear and sent in the clear
 * Authorization of the URL), no query or fragment (paths are appended to it).
 */
export function baseUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute https:// address';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an absolute https:// address';
  if (url.username !== '' || url.password !== '') {
    return 'must not contain a user name or password: the key id and secret go in their own fields';
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return 'must use https:// for a remote bank (plain http:// is only for 127.0.0.1, ::1 or localhost)';
  }
  if (url.search !== '' || url.hash !== '') return 'must not have a query (?…) or fragment (#…)';
  return null;
}

/**
 * The origin (scheme, host, port) a secret is bound to: `https://bank.example`,
 * `http://127.0.0.1:8080`. Null when the text is not a URL.
 */
export function originOf(text: string): string | null {
  try {
    return new URL(text).origin;
  } catch {
    return null;
  }
}

/**
 * A saved base URL as it may be shown (the renderer, `ledger profile list`): a password that
 * an earlier version let into it is masked. The path stays; user name and host are not secret.
 */
export function maskedBaseUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password === '') return text;
    const path = url.pathname === '/' && !text.endsWith('/') ? '' : url.pathname;
    return `${url.protocol}//${url.username}:***@${url.host}${path}${url.search}${url.hash}`;
  } catch {
    return text;
  }
}

/** A bank's base URL as a new or changed profile may have it (see baseUrlProblem). */
export const profileBaseUrl = z
  .string()
  .trim()
  .max(PROFILE_BASE_URL_MAX, { message: `must be at most ${PROFILE_BASE_URL_MAX} characters` })
  .superRefine((text, context) => {
    const problem = baseUrlProblem(text);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });

/**
 * A base URL as profiles saved by earlier versions may hold it (any absolute http(s)):
 * such a profile still opens, and is shown as needing attention instead of being refused
 * as damaged or silently rewritten.
 */
export const storedProfileBaseUrl = z
  .string()
  .max(PROFILE_BASE_URL_MAX)
  .refine(
    (text) => {
      try {
        const url = new URL(text);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http:// or https:// address' },
  );
