/**
 * A profile's secret as the keychain keeps it: together with the origin (scheme, host, port)
 * and auth scheme it was entered for. The binding lives in the keychain entry itself, not in
 * the profiles file, so editing `config.json` (any process of the user can) cannot steer a
 * stored secret to another host: the credentials layer compares the two before every request.
 */
import type { AuthScheme } from '../profiles/profile.ts';

/** Entries written before secrets were bound are plain strings, and are never used. */
const FORMAT = 'ledgerdesk.bound-secret.v1';

export interface BoundSecret {
  origin: string;
  authScheme: AuthScheme;
  secret: string;
}

/** What a keychain entry turned out to hold. */
export type StoredSecret = { kind: 'bound'; bound: BoundSecret } | { kind: 'unbound' };

export function encodeBoundSecret(bound: BoundSecret): string {
  return JSON.stringify({ format: FORMAT, ...bound });
}

export function decodeStoredSecret(stored: string): StoredSecret {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return { kind: 'unbound' };
  }
  if (typeof parsed !== 'object' || parsed === null) return { kind: 'unbound' };
  const entry = parsed as Record<string, unknown>;
  const { format, origin, authScheme, secret } = entry;
  if (
    format !== FORMAT ||
    typeof origin !== 'string' ||
    (authScheme !== 'basic' && authScheme !== 'bearer') ||
    typeof secret !== 'string' ||
    secret === ''
  ) {
    return { kind: 'unbound' };
  }
  return { kind: 'bound', bound: { origin, authScheme, secret } };
}
