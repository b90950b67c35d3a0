/**
 * An officer's two key pairs: Ed25519 signs every event they make; X25519 receives the team
 * key wrapped for them. The private halves live only in the OS keychain (as PKCS#8, base64);
 * the public halves are 32 raw bytes registered on the server and shown as fingerprints, which
 * officers can compare aloud to be sure the server did not swap a key.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

export interface OfficerKeys {
  signPrivate: KeyObject;
  signPublic: Buffer;
  boxPrivate: KeyObject;
  boxPublic: Buffer;
}

export function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new Error('Not an OKP public key.');
  return Buffer.from(jwk.x, 'base64url');
}

export function publicKeyOfRaw(raw: Uint8Array, curve: 'Ed25519' | 'X25519'): KeyObject {
  if (raw.length !== 32) throw new Error(`A ${curve} public key is 32 bytes.`);
  return createPublicKey({ key: { kty: 'OKP', crv: curve, x: Buffer.from(raw).toString('base64url') }, format: 'jwk' });
}

export function generateOfficerKeys(): OfficerKeys {
  const signing = generateKeyPairSync('ed25519');
  const box = generateKeyPairSync('x25519');
  return {
    signPrivate: signing.privateKey,
    signPublic: rawPublicKey(signing.publicKey),
    boxPrivate: box.privateKey,
    boxPublic: rawPublicKey(box.publicKey),
  };
}

/** The private key as the keychain keeps it. */
export function privateKeyText(key: KeyObject): string {
  return key.export({ format: 'der', type: 'pkcs8' }).toString('base64');
}

export function privateKeyOfText(text: string): KeyObject {
  return createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
}

export function signIntent(key: KeyObject, bytes: Uint8Array): Buffer {
  return sign(null, bytes, key);
}

export function verifyIntent(publicKey: Uint8Array | KeyObject, bytes: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  const key = publicKey instanceof Uint8Array ? publicKeyOfRaw(publicKey, 'Ed25519') : publicKey;
  return verify(null, bytes, key, signature);
}

/** A public key as people compare it: the first 16 bytes of its SHA-256, in groups of four hex digits. */
export function fingerprint(publicRaw: Uint8Array): string {
  const hex = createHash('sha256').update(publicRaw).digest('hex').slice(0, 32);
  return hex.match(/.{4}/g)?.join(' ') ?? hex;
}
