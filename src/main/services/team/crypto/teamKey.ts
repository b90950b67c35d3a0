/**
 * The per-workspace team key (32 random bytes, one per key version) and what it protects.
 *
 * - Sealing: notes, reviewed records and diffs are sealed with AES-256-GCM under a key HKDF
 *   derives from the team key, with the event's identity as associated data, before they leave
 *   the laptop: the database holds ciphertext only. Layout: 0x01 | IV (12) | tag (16) | body.
 * - Naming: item refs and record digests are HMACs under a key derived from the *first* team
 *   key, so every laptop of the team names one bank record identically, and names stay stable
 *   across key rotations.
 * - Wrapping: the team key is sealed for one officer with an ephemeral X25519 agreement,
 *   HKDF-SHA-256 and AES-256-GCM. Layout: 0x01 | ephemeral public (32) | IV | tag | key.
 * - Invites: the team keys sealed under a key derived from the invite's one-time secret.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { publicKeyOfRaw, rawPublicKey } from './officerKeys.ts';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const TEAM_KEY_BYTES = 32;

class TeamSealBroken extends Error {
  constructor(what: string) {
    super(`${what} does not open with the team key (altered, or sealed with another key).`);
    this.name = 'TeamSealBroken';
  }
}

function aeadSeal(key: KeyObject | Buffer, plaintext: Uint8Array, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

function aeadOpen(key: KeyObject | Buffer, sealed: Uint8Array, aad: string, what: string): Buffer {
  const bytes = Buffer.from(sealed);
  if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw new TeamSealBroken(what);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 1 + IV_BYTES));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new TeamSealBroken(what);
  }
}

function derive(secret: Uint8Array, salt: Uint8Array, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, salt, info, 32));
}

export function newTeamKey(): Buffer {
  return randomBytes(TEAM_KEY_BYTES);
}

/** What a sealed body is bound to: moved to another event or item, it does not open. */
export function sealIdentity(eventId: string, workspace: string, kind: string, ref: string): string {
  return [eventId, workspace, kind, ref].join('\u0000');
}

/** The team keys of a workspace, by version, held in memory while the app runs. */
export class TeamKeyring {
  readonly #sealing = new Map<number, KeyObject>();
  readonly #naming: KeyObject;
  readonly current: number;

  constructor(keys: ReadonlyMap<number, Buffer>, current: number) {
    for (const [version, key] of keys) {
      if (key.length !== TEAM_KEY_BYTES) throw new Error('A team key is 32 bytes.');
      this.#sealing.set(version, createSecretKey(derive(key, Buffer.alloc(0), 'ledgerdesk team: sealing v1')));
    }
    const first = keys.get(1);
    if (first === undefined) throw new Error('The first team key (version 1) is missing.');
    if (!this.#sealing.has(current)) throw new Error(`Team key version ${String(current)} is missing.`);
    this.#naming = createSecretKey(derive(first, Buffer.alloc(0), 'ledgerdesk team: record digests v1'));
    this.current = current;
  }

  seal(plaintext: string, identity: string): Buffer {
    return aeadSeal(this.#key(this.current), Buffer.from(plaintext, 'utf8'), identity);
  }

  open(sealed: Uint8Array, identity: string, version: number): string {
    return aeadOpen(this.#key(version), sealed, identity, 'A sealed note').toString('utf8');
  }

  /** The team's name for a bank record: the same on every laptop of the team. */
  itemDigest(text: string): string {
    return createHmac('sha256', this.#naming).update(text, 'utf8').digest('base64url');
  }

  #key(version: number): KeyObject {
    const key = this.#sealing.get(version);
    if (key === undefined)
      throw new TeamSealBroken(`Team key version ${String(version)} is not held by this laptop: it`);
    return key;
  }
}

function wrapInfo(workspace: string, version: number, recipient: string): string {
  return ['ledgerdesk team key wrap v1', workspace, String(version), recipient].join('\u0000');
}

/** The team key sealed for one recipient's X25519 public key. */
export function wrapTeamKey(
  teamKey: Buffer,
  recipientBoxPublic: Uint8Array,
  workspace: string,
  version: number,
  recipient: string,
): Buffer {
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralPublic = rawPublicKey(ephemeral.publicKey);
  const shared = diffieHellman({
    privateKey: ephemeral.privateKey,
    publicKey: publicKeyOfRaw(recipientBoxPublic, 'X25519'),
  });
  const info = wrapInfo(workspace, version, recipient);
  const key = derive(shared, Buffer.concat([ephemeralPublic, Buffer.from(recipientBoxPublic)]), info);
  const sealed = aeadSeal(key, teamKey, info);
  return Buffer.concat([Buffer.from([VERSION]), ephemeralPublic, sealed.subarray(1)]);
}

export function unwrapTeamKey(
  wrapped: Uint8Array,
  boxPrivate: KeyObject,
  boxPublic: Uint8Array,
  workspace: string,
  version: number,
  recipient: string,
): Buffer {
  const bytes = Buffer.from(wrapped);
  if (bytes.length < 1 + 32 || bytes[0] !== VERSION)
    throw new TeamSealBroken(`The wrapped team key (version ${String(version)})`);
  const ephemeralPublic = bytes.subarray(1, 33);
  const shared = diffieHellman({ privateKey: boxPrivate, publicKey: publicKeyOfRaw(ephemeralPublic, 'X25519') });
  const info = wrapInfo(workspace, version, recipient);
  const key = derive(shared, Buffer.concat([ephemeralPublic, Buffer.from(boxPublic)]), info);
  const opened = aeadOpen(
    key,
    Buffer.concat([Buffer.from([VERSION]), bytes.subarray(33)]),
    info,
    `The wrapped team key (version ${String(version)})`,
  );
  if (opened.length !== TEAM_KEY_BYTES) throw new TeamSealBroken(`The wrapped team key (version ${String(version)})`);
  return opened;
}

function inviteInfo(workspace: string, login: string): string {
  return ['ledgerdesk team invite v1', workspace, login].join('\u0000');
}

/** Every team key version, sealed under the invite's one-time secret. Layout: 0x01 | salt (16) | sealed. */
export function sealForInvite(
  keys: ReadonlyMap<number, Buffer>,
  secret: string,
  workspace: string,
  login: string,
): Buffer {
  const salt = randomBytes(16);
  const body = JSON.stringify(
    Object.fromEntries([...keys].map(([version, key]) => [String(version), key.toString('base64')])),
  );
  const sealed = aeadSeal(
    derive(Buffer.from(secret, 'utf8'), salt, inviteInfo(workspace, login)),
    Buffer.from(body, 'utf8'),
    inviteInfo(workspace, login),
  );
  return Buffer.concat([Buffer.from([VERSION]), salt, sealed.subarray(1)]);
}

export function openInvite(sealed: Uint8Array, secret: string, workspace: string, login: string): Map<number, Buffer> {
  const bytes = Buffer.from(sealed);
  if (bytes.length < 17 || bytes[0] !== VERSION) throw new TeamSealBroken('The invite\u2019s team keys');
  const salt = bytes.subarray(1, 17);
  const opened = aeadOpen(
    derive(Buffer.from(secret, 'utf8'), salt, inviteInfo(workspace, login)),
    Buffer.concat([Buffer.from([VERSION]), bytes.subarray(17)]),
    inviteInfo(workspace, login),
    'The invite\u2019s team keys',
  );
  const parsed = JSON.parse(opened.toString('utf8')) as Record<string, string>;
  return new Map(Object.entries(parsed).map(([version, key]) => [Number(version), Buffer.from(key, 'base64')]));
}
