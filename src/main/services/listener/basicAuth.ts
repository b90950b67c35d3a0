/**
 * Verification of the bank's inbound Basic header (spec §5): each request gets exactly one
 * verdict. Credentials are compared as SHA-256 digests with `timingSafeEqual`, so neither
 * the length nor the first differing byte of a guess leaks through timing, and the expected
 * secret is held only as a digest once loaded from the keychain.
 */
import { hash, timingSafeEqual } from 'node:crypto';

export const VERDICTS = [
  'ok',
  'missing_header',
  'malformed_header',
  'wrong_user',
  'wrong_secret',
  'not_configured',
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What a listener (or one registered route of it) expects. The user is not a secret. */
export interface ExpectedBasic {
  readonly user: string;
  readonly userDigest: Buffer;
  readonly secretDigest: Buffer;
}

export interface Verification {
  verdict: Verdict;
  /** The user name the request presented, when its header could be read; never the secret. */
  presentedUser: string | null;
}

function digestOf(text: string): Buffer {
  return hash('sha256', text, 'buffer');
}

export function expectBasic(user: string, secret: string): ExpectedBasic {
  return { user, userDigest: digestOf(user), secretDigest: digestOf(secret) };
}

/** RFC 4648 alphabet; padding optional because some senders strip it. */
const BASE64_TOKEN = /^[A-Za-z0-9+/]+={0,2}$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** `user:secret` out of `Basic <base64>`, or null when the header cannot be read as one. */
export function readBasicHeader(authorization: string): { user: string; secret: string } | null {
  const parts = authorization.trim().split(/\s+/);
  if (parts.length !== 2) return null;
  const [scheme, token] = parts as [string, string];
  if (scheme.toLowerCase() !== 'basic') return null;
  if (!BASE64_TOKEN.test(token) || token.replace(/=+$/, '').length % 4 === 1) return null;
  let decoded: string;
  try {
    decoded = strictUtf8.decode(Buffer.from(token, 'base64'));
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/**
 * The verdict for one request. "not configured" wins over everything else: without
 * expected credentials no header can be judged. Both digests are always compared, so a
 * wrong user and a wrong secret take the same time.
 */
export function verifyBasic(authorization: string | undefined, expected: ExpectedBasic | null): Verification {
  if (expected === null) return { verdict: 'not_configured', presentedUser: presentedUserOf(authorization) };
  if (authorization === undefined || authorization.trim() === '') {
    return { verdict: 'missing_header', presentedUser: null };
  }
  const presented = readBasicHeader(authorization);
  if (presented === null) return { verdict: 'malformed_header', presentedUser: null };
  const userMatches = timingSafeEqual(digestOf(presented.user), expected.userDigest);
  const secretMatches = timingSafeEqual(digestOf(presented.secret), expected.secretDigest);
  const verdict: Verdict = !userMatches ? 'wrong_user' : !secretMatches ? 'wrong_secret' : 'ok';
  return { verdict, presentedUser: presented.user };
}

function presentedUserOf(authorization: string | undefined): string | null {
  if (authorization === undefined) return null;
  return readBasicHeader(authorization)?.user ?? null;
}

/**
 * What is kept of an Authorization header: its scheme, never its credentials. A header of
 * one word keeps nothing, since that word may be the credential itself. The user name of a
 * readable Basic header is kept beside it (in its own column) by the caller.
 */
export function redactAuthorization(value: string): string {
  const parts = value.trim().split(/\s+/);
  const scheme = parts[0] ?? '';
  return parts.length >= 2 && /^[A-Za-z][A-Za-z0-9._~+-]{0,31}$/.test(scheme) ? `${scheme} [redacted]` : '[redacted]';
}
