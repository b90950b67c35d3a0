/**
 * The tables of working with a real bank (issue 14): drift counts per profile and resource,
 * and creates whose answer could not be read. They live in the cache database with their own
 * bookkeeping (`bank_compat_migrations`), like the listener's: they hold names, counts, ids
 * and keyed digests, never a record, so nothing here is sealed, and they survive a lost data
 * key (a digest made under the old key then simply never matches again).
 */
import type { Migration } from './migrations.ts';

export const BANK_COMPAT_MIGRATIONS_TABLE = 'bank_compat_migrations';

export const BANK_COMPAT_MIGRATIONS: readonly Migration[] = [
  {
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
  },
  {
    version: 2,
    name: 'drift counts of malformed records',
    sql: `
      -- A person or business application that does not fit its schema is kept as received
      -- (issue 24); the ledger counts, per field, the records that carried it malformed.
      -- SQLite cannot widen a CHECK in place: the table is rebuilt with its rows.
      CREATE TABLE bank_drift_next (
        profile_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('read', 'missing', 'unknown', 'malformed')),
        field TEXT NOT NULL,
        count INTEGER NOT NULL,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        PRIMARY KEY (profile_id, resource, kind, field)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO bank_drift_next SELECT profile_id, resource, kind, field, count, first_seen, last_seen FROM bank_drift;
      DROP TABLE bank_drift;
      ALTER TABLE bank_drift_next RENAME TO bank_drift;
    `,
  },
  {
    version: 3,
    name: 'drift names dropped to keep the ledger bounded',
    sql: `
      -- The ledger keeps at most so many field names per profile and resource, and so many
      -- bytes of names per profile (security review of 3b75e6a, I8: drift/driftLedger.ts);
      -- the oldest go first, and a 'dropped' row (field '') counts the names let go, so the
      -- report says it. SQLite cannot widen a CHECK in place: the table is rebuilt.
      CREATE TABLE bank_drift_next (
        profile_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('read', 'missing', 'unknown', 'malformed', 'dropped')),
        field TEXT NOT NULL,
        count INTEGER NOT NULL,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        PRIMARY KEY (profile_id, resource, kind, field)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO bank_drift_next SELECT profile_id, resource, kind, field, count, first_seen, last_seen FROM bank_drift;
      DROP TABLE bank_drift;
      ALTER TABLE bank_drift_next RENAME TO bank_drift;
    `,
  },
];
