/**
 * The shapes a record archive's lines must have to be read (recordArchiveEntries.ts): whoever
 * made the file, a line of another shape is a line that does not match, never a crash.
 */
import { z } from 'zod';
import type { ArchiveEntry } from './recordArchiveEntries.ts';

const sealedValue = z.object({ iv: z.string(), tag: z.string(), sealed: z.string() });
const counts = z.object({
  reviews: z.number().int().min(0),
  steps: z.number().int().min(0),
  rows: z.number().int().min(0),
  auditEntries: z.number().int().min(0),
});
const anchor = z.object({ entries: z.number().int(), id: z.number().int(), mac: z.string() });

export const archiveHeaderSchema = z.object({
  t: z.literal('header'),
  format: z.string(),
  version: z.number(),
  archiveId: z.string().min(1),
  recordId: z.string(),
  madeAt: z.string(),
  profiles: z.array(z.looseObject({ id: z.string(), name: z.string() })),
  only: z.string().nullable(),
  counts,
  signingKey: z.string(),
  auditHead: z
    .object({ entries: z.number().int(), id: z.number().int().nullable(), mac: z.string().nullable() })
    .nullable(),
  anchor: anchor.nullable(),
  liveVerify: z.object({ ok: z.boolean(), message: z.string().nullable() }),
  wraps: z.object({
    recovery: sealedValue.extend({ ephemeral: z.string() }).nullable(),
    passphrase: sealedValue
      .extend({
        kdf: z.object({ name: z.string(), N: z.number(), r: z.number(), p: z.number(), salt: z.string() }),
      })
      .nullable(),
  }),
});

type Fields = Record<string, unknown>;

const COLUMN = /^[a-z_]{1,64}$/;
const TABLES = new Set([
  'watch_rule_names',
  'watch_rules',
  'review_settings',
  'record_retention',
  'record_hold',
  'team_outbox',
  'team_acknowledged',
]);

function isText(value: unknown): boolean {
  return typeof value === 'string';
}

function isMaybeText(value: unknown): boolean {
  return value === null || typeof value === 'string';
}

function isWhole(value: unknown): boolean {
  return Number.isSafeInteger(value);
}

/** A row of a table: column names as the record's tables have them, nothing else reaches an INSERT. */
function isRow(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const [column, cell] of Object.entries(value as Fields)) {
    if (!COLUMN.test(column)) return false;
    if (cell === null || typeof cell === 'string' || typeof cell === 'number') continue;
    if (typeof cell !== 'object' || Array.isArray(cell)) return false;
    const keys = Object.keys(cell);
    if (keys.length !== 1 || keys[0] !== 'b64' || typeof (cell as Fields)['b64'] !== 'string') return false;
  }
  return true;
}

function all(fields: Fields, names: readonly string[], check: (value: unknown) => boolean): boolean {
  return names.every((name) => check(fields[name]));
}

/**
 * The entry a line holds, checked by hand (a schema library costs more than the hash chain itself
 * over 100,000 lines); null when it is not one this build reads.
 */
export function archiveEntryOf(value: unknown): ArchiveEntry | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const fields = value as Fields;
  switch (fields['t']) {
    case 'review':
      return all(fields, ['profile', 'kind', 'item', 'ref', 'state', 'updatedAt'], isText) &&
        all(fields, ['account', 'disposition', 'reviewer', 'byRule', 'reviewedAt'], isMaybeText) &&
        isWhole(fields['version']) &&
        isRow(fields['row'])
        ? (value as ArchiveEntry)
        : null;
    case 'step':
      return all(fields, ['profile', 'kind', 'item', 'ref', 'at', 'state'], isText) &&
        all(fields, ['reviewer', 'byRule'], isMaybeText) &&
        isWhole(fields['version']) &&
        isRow(fields['row'])
        ? (value as ArchiveEntry)
        : null;
    case 'row':
      return TABLES.has(String(fields['table'])) && isRow(fields['row']) ? (value as ArchiveEntry) : null;
    case 'audit':
      return isWhole(fields['id']) &&
        all(fields, ['profileId', 'profileName', 'action', 'target', 'at', 'result'], isText) &&
        all(fields, ['detail', 'actor', 'mac'], isMaybeText)
        ? (value as ArchiveEntry)
        : null;
    case 'keys': {
      const sealed = fields['sealed'] as Fields | null | undefined;
      return typeof sealed === 'object' && sealed !== null && all(sealed, ['iv', 'tag', 'sealed'], isText)
        ? (value as ArchiveEntry)
        : null;
    }
    default:
      return null;
  }
}
