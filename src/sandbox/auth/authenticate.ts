/**
 * Who is calling (spec §5): Basic with the API key id and secret, or a Bearer JWT minted by
 * POST /auth/token. Secrets are compared in constant time (digests of equal length), and no
 * credential ever appears in an answer or a log.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { verifyToken } from './jwt.ts';

export interface ApiKey {
  keyId: string;
  keySecret: string;
}

export type Authentication = { ok: true; keyId: string; scheme: 'basic' | 'bearer' } | { ok: false; reason: string };

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function createAuthenticator(key: ApiKey): {
  authenticate(header: string | undefined): Authentication;
  checkBasic(header: string | undefined): Authentication;
} {
  const expectedId = digest(key.keyId);
  const expectedSecret = digest(key.keySecret);

  function checkBasicCredentials(encoded: string): Authentication {
    if (encoded === '' || !STRICT_BASE64.test(encoded)) {
      return { ok: false, reason: 'The Basic credentials are not valid base64.' };
    }
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { ok: false, reason: 'The Basic credentials must be base64 of key_id:key_secret.' };
    const idMatches = timingSafeEqual(digest(decoded.slice(0, colon)), expectedId);
    const secretMatches = timingSafeEqual(digest(decoded.slice(colon + 1)), expectedSecret);
    // Both compared every time, and one answer for either mistake: no hint which was wrong.
    if (!idMatches || !secretMatches) return { ok: false, reason: 'The API key id or secret is wrong.' };
    return { ok: true, keyId: key.keyId, scheme: 'basic' };
  }

  function split(header: string | undefined): { scheme: string; value: string } | Authentication {
    if (header === undefined || header.trim() === '') {
      return { ok: false, reason: 'Authentication required: send Authorization: Basic or Bearer.' };
    }
    const space = header.indexOf(' ');
    if (space < 0) {
      return { ok: false, reason: 'The Authorization header must be "Basic <credentials>" or "Bearer <token>".' };
    }
    return { scheme: header.slice(0, space).toLowerCase(), value: header.slice(space + 1).trim() };
  }

  return {
    authenticate(header) {
      const parts = split(header);
      if ('ok' in parts) return parts;
      if (parts.scheme === 'basic') return checkBasicCredentials(parts.value);
      if (parts.scheme === 'bearer') {
        const check = verifyToken(parts.value, key.keySecret);
        if (!check.ok) return check;
        if (!sameSecret(check.claims.sub, key.keyId))
          return { ok: false, reason: 'The bearer token is for another API key.' };
        return { ok: true, keyId: key.keyId, scheme: 'bearer' };
      }
      return {
        ok: false,
        reason: `The authentication scheme ${JSON.stringify(header?.slice(0, header.indexOf(' ')))} is not supported: use Basic or Bearer.`,
      };
    },
    checkBasic(header) {
      const parts = split(header);
      if ('ok' in parts) return parts;
      if (parts.scheme !== 'basic') {
        return { ok: false, reason: 'POST /auth/token takes Basic authentication with the API key id and secret.' };
      }
      return checkBasicCredentials(parts.value);
    },
  };
}
