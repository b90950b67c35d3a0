/**
 * Text search inside sealed bodies, for the small tables that have no keyed-token index
 * (account applications, documents) and for the send log's error reasons. A SQL function,
 * `ledgerdesk_sealed_matches(kind, profile_id, key, body, needle)`, opens the row's body
 * with the cache's sealer (the same identity the table seals it under) and tells whether
 * any of its text values contains the needle, case- and accent-insensitively. The read stays
 * one SQL statement with keyset paging; the cost is one decryption per row the filter
 * reaches, so tables call it only after cheaper clear-column filters (see each table).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { RecordSealer } from './sealing.ts';

export const SEALED_MATCHES_FUNCTION = 'ledgerdesk_sealed_matches';

/** Lower-cased and accent-free, so "Zoë" finds "zoe". */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

function textValuesOf(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) textValuesOf(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) textValuesOf(item, into);
}

/** The row identities tables seal under: `<kind>\0<profile>\0<key>`. */
function identityOf(kind: string, profileId: string, key: string): string {
  return `${kind}\u0000${profileId}\u0000${key}`;
}

export function registerSealedSearch(database: DatabaseSync, sealer: () => RecordSealer): void {
  database.function(
    SEALED_MATCHES_FUNCTION,
    { deterministic: true, directOnly: true },
    (kind, profileId, key, body, needle) => {
      if (
        typeof kind !== 'string' ||
        typeof profileId !== 'string' ||
        typeof key !== 'string' ||
        !(body instanceof Uint8Array) ||
        typeof needle !== 'string'
      ) {
        return 0;
      }
      const values: string[] = [];
      textValuesOf(sealer().openJson(body, identityOf(kind, profileId, key)), values);
      return values.some((value) => foldText(value).includes(needle)) ? 1 : 0;
    },
  );
}
