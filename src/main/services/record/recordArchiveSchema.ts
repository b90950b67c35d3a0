/**
 * The shapes a record archive's lines must have to be read (recordArchiveEntries.ts): whoever
 * made the file, a line of another shape is a line that does not match, never a crash.
 */
import { z } from 'zod';

const sealedValue = z.object({ iv: z.string(), tag: z.string(), sealed: z.string() });
const rowValue = z.union([z.string(), z.number(), z.null(), z.strictObject({ b64: z.string() })]);
/** Column names as the record's tables have them: nothing else reaches an INSERT of the import. */
const row = z.record(z.string().regex(/^[a-z_]{1,64}$/), rowValue);
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

const text = z.string();
const maybe = z.string().nullable();

export const archiveEntrySchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('review'),
    profile: text,
    kind: text,
    item: text,
    ref: text,
    account: maybe,
    state: text,
    disposition: maybe,
    reviewer: maybe,
    byRule: maybe,
    reviewedAt: maybe,
    updatedAt: text,
    version: z.number().int(),
    row,
  }),
  z.object({
    t: z.literal('step'),
    profile: text,
    kind: text,
    item: text,
    ref: text,
    version: z.number().int(),
    at: text,
    state: text,
    reviewer: maybe,
    byRule: maybe,
    row,
  }),
  z.object({
    t: z.literal('row'),
    table: z.enum([
      'watch_rule_names',
      'watch_rules',
      'review_settings',
      'record_retention',
      'record_hold',
      'team_outbox',
      'team_acknowledged',
    ]),
    row,
  }),
  z.object({
    t: z.literal('audit'),
    id: z.number().int(),
    profileId: text,
    profileName: text,
    action: text,
    target: text,
    at: text,
    result: text,
    detail: maybe,
    actor: maybe,
    mac: maybe,
  }),
  z.object({ t: z.literal('keys'), sealed: sealedValue }),
]);
