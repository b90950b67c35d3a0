/**
 * The signed terms of membership and workspace events (issue 35, T2): what a lead signs when
 * founding a workspace, inviting an officer or signing the roster at an upgrade, what a joining
 * officer signs, and what a member signs when confirming another after comparing fingerprints.
 *
 * They travel in the event's `disposition` as JSON: the intent the officer signs covers those
 * exact bytes, so laptops check the signature first and only then parse them (strictly: an
 * unknown field or a wrong type is tampering, never ignored). Keys are base64 of their 32 raw
 * bytes.
 *
 * An invite carries a one-time Ed25519 key derived from the invite's secret (which only the
 * invite file holds; the server sees a SCRAM verifier): the lead's signed invite names its
 * public half, and the join is countersigned with it. So nobody without the invite file (a
 * database administrator included) can join in the invited officer's name.
 */
import { createPrivateKey, createPublicKey, hkdfSync, sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { publicKeyOfRaw, rawPublicKey } from '../crypto/officerKeys.ts';
import { taggedBytes } from '../crypto/teamCanonical.ts';

const login = z.string().regex(/^[a-z][a-z0-9_]{0,47}$/);
const role = z.enum(['lead', 'officer']);
const key = z.string().regex(/^[A-Za-z0-9+/]{43}=$/);
const signature = z.string().regex(/^[A-Za-z0-9+/]{86}==$/);
const time = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const rule = z.string().regex(/^(unreviewed|cleared|flagged|escalated|closed)>(cleared|flagged|escalated|closed)$/);

const genesisTerms = z.strictObject({
  v: z.literal(1),
  lead: login,
  sign: key,
  box: key,
  rules: z.array(rule).max(20),
  members: z.array(z.strictObject({ login, role, inviteKey: key, expires: time })).max(200),
});

const rosterTerms = z.strictObject({
  v: z.literal(1),
  rules: z.array(rule).max(20),
  members: z
    .array(z.strictObject({ login, role, sign: key, box: key }))
    .min(1)
    .max(500),
});

const inviteTerms = z.strictObject({ v: z.literal(1), role, inviteKey: key, expires: time });

const joinTerms = z.strictObject({ v: z.literal(1), invite: z.uuid(), sign: key, box: key, proof: signature });
export type JoinTerms = z.infer<typeof joinTerms>;

const confirmTerms = z.strictObject({ v: z.literal(1), sign: key });

const SCHEMAS = {
  genesis: genesisTerms,
  roster: rosterTerms,
  invite: inviteTerms,
  join: joinTerms,
  confirm: confirmTerms,
} as const;
export type TermsKind = keyof typeof SCHEMAS;
export type TermsOf<Kind extends TermsKind> = z.infer<(typeof SCHEMAS)[Kind]>;

/** The terms as they are signed (a fixed field order: the text is what the signature covers). */
export function termsText<Kind extends TermsKind>(kind: Kind, terms: TermsOf<Kind>): string {
  return JSON.stringify(SCHEMAS[kind].parse(terms));
}

/** The terms an event carries, or null when they are not well-formed ones of that kind. */
export function parseTerms<Kind extends TermsKind>(kind: Kind, text: string | null): TermsOf<Kind> | null {
  if (text === null || text.length > 200_000) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = SCHEMAS[kind].safeParse(value);
  return parsed.success ? (parsed.data as TermsOf<Kind>) : null;
}

export function keyText(raw: Uint8Array): string {
  return Buffer.from(raw).toString('base64');
}

export function keyOfText(text: string): Buffer {
  return Buffer.from(text, 'base64');
}

// --- the invite's one-time key ----------------------------------------------------------------

/** PKCS#8 DER of an Ed25519 private key is this prefix followed by its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The invite's Ed25519 key, derived from its one-time secret, the workspace and the login. */
export function inviteKeyOf(
  secret: string,
  workspace: string,
  invitee: string,
): { private: KeyObject; public: Buffer } {
  const seed = Buffer.from(
    hkdfSync(
      'sha256',
      Buffer.from(secret, 'utf8'),
      Buffer.from('ledgerdesk-team-invite-key-v1', 'utf8'),
      `${workspace}\n${invitee}`,
      32,
    ),
  );
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { private: privateKey, public: rawPublicKey(createPublicKey(privateKey)) };
}

function proofBytes(workspace: string, invitee: string, inviteId: string, signKey: string, boxKey: string): Buffer {
  return taggedBytes('ledgerdesk-team-join-proof-v1\n', [workspace, invitee, inviteId, signKey, boxKey]);
}

/** The invite key's signature over the joining officer's new keys: proof they hold the invite. */
export function joinProof(
  inviteKey: KeyObject,
  workspace: string,
  invitee: string,
  inviteId: string,
  signKey: string,
  boxKey: string,
): string {
  return sign(null, proofBytes(workspace, invitee, inviteId, signKey, boxKey), inviteKey).toString('base64');
}

export function joinProofHolds(invitePublic: string, workspace: string, invitee: string, terms: JoinTerms): boolean {
  const raw = keyOfText(invitePublic);
  if (raw.length !== 32) return false;
  return verify(
    null,
    proofBytes(workspace, invitee, terms.invite, terms.sign, terms.box),
    publicKeyOfRaw(raw, 'Ed25519'),
    Buffer.from(terms.proof, 'base64'),
  );
}
