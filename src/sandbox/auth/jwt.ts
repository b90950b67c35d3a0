/**
 * HS256 JSON Web Tokens for the sandbox's own API key (spec §5; conventions.md
 * "Authentication"). Only HS256 is accepted: `alg: none`, other algorithms, bad signatures,
 * malformed parts and expired tokens are all refused with a reason.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

interface TokenClaims {
  /** The API key id the token was minted for. */
  sub: string;
  iat: number;
  exp: number;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function encodeSegment(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function signatureOf(signingInput: string, secret: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

export function mintToken(keyId: string, secret: string, lifetimeSeconds: number, nowMs = Date.now()): string {
  const iat = Math.floor(nowMs / 1000);
  const signingInput = `${encodeSegment({ alg: 'HS256', typ: 'JWT' })}.${encodeSegment({ sub: keyId, iat, exp: iat + lifetimeSeconds })}`;
  return `${signingInput}.${signatureOf(signingInput, secret).toString('base64url')}`;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: string };

function decodeJsonSegment(segment: string): unknown {
  if (!BASE64URL.test(segment) || segment.length % 4 === 1) return undefined;
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function verifyToken(token: string, secret: string, nowMs = Date.now()): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'The bearer token is not a JWT (three dot-separated parts).' };
  const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
  const header = decodeJsonSegment(headerPart);
  const payload = decodeJsonSegment(payloadPart);
  if (!isRecord(header) || !isRecord(payload)) {
    return { ok: false, reason: 'The bearer token is malformed: its header or payload is not base64url-encoded JSON.' };
  }
  if (header.alg !== 'HS256') {
    return {
      ok: false,
      reason: `The bearer token's algorithm ${JSON.stringify(header.alg ?? null)} is not accepted: tokens must be signed with HS256.`,
    };
  }
  if (signaturePart === '' || !BASE64URL.test(signaturePart)) {
    return { ok: false, reason: 'The bearer token is unsigned or its signature is not base64url.' };
  }
  const expected = signatureOf(`${headerPart}.${payloadPart}`, secret);
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'The bearer token signature is not valid.' };
  }
  const { sub, iat, exp } = payload;
  if (typeof sub !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') {
    return { ok: false, reason: 'The bearer token lacks its sub, iat or exp claim.' };
  }
  if (exp * 1000 <= nowMs)
    return { ok: false, reason: 'The bearer token has expired: mint a new one with POST /auth/token.' };
  return { ok: true, claims: { sub, iat, exp } };
}
