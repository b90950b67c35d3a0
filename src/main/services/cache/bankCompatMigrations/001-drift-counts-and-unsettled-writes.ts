/** Bank-compat migration 1. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 1,
  name: 'drift counts and unsettled writes',
  sql: `
      -- Per profile and resource: records read (kind 'read', field ''), and per field how many
      -- of them left an expected field out ('missing') or carried one the interface does not
      -- list ('unknown'). Names and counts only, never a value.
      CREATE TABLE bank_drift (
        profile_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('read', 'missing', 'unknown')),
        field TEXT NOT NULL,
        count INTEGER NOT NULL,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        PRIMARY KEY (profile_id, resource, kind, field)
      ) STRICT, WITHOUT ROWID;

      -- A create the bank may have made but whose answer was not understood (unreadable, or
      -- none in time): its idempotency key, kept until the same write is tried again and
      -- answered, so the retry returns the first object instead of making a second. The
      -- request is known only by a digest keyed from the data key.
      CREATE TABLE unsettled_writes (
        profile_id TEXT NOT NULL,
        action TEXT NOT NULL,
        request_digest TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        object_id TEXT,
        reason TEXT NOT NULL CHECK (reason IN ('unread', 'no-answer')),
        first_tried_at TEXT NOT NULL,
        last_tried_at TEXT NOT NULL,
        tries INTEGER NOT NULL,
        PRIMARY KEY (profile_id, action, request_digest)
      ) STRICT, WITHOUT ROWID;
    `,
};
