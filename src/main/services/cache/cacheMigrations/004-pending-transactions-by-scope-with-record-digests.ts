/** Cache migration 4. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 4,
  name: 'pending transactions by scope, with record digests as row keys',
  sql: `
      -- A bulk sync's cost is mostly the index entries of each row. Keying the rows by a small
      -- integer scope (one per profile and account) instead of two text columns shrinks both
      -- index keys from ~70 bytes to a few, which cuts the writer's work per row by about a
      -- quarter. Row keys are now record digests (sealing.ts), so rows cached by earlier
      -- builds could not be matched again: they are dropped with their checkpoints, and the
      -- next sync of each account fetches them afresh (the bank has them all).
      DROP TRIGGER pending_transactions_unindex;
      DROP TRIGGER pending_transactions_unfacet;
      DROP TABLE pending_transaction_search;
      DROP TABLE pending_transaction_facets;
      DROP TABLE pending_transactions;
      DELETE FROM sync_state WHERE kind = 'pending-transactions';

      CREATE TABLE pending_transaction_scopes (
        id INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        UNIQUE (profile_id, account_id)
      ) STRICT;
      -- scope is not declared a foreign key: with foreign_keys on, that would add a lookup to
      -- every insert of a sync. Scopes are removed only with their profile (dropProfile).
      CREATE TABLE pending_transactions (
        id INTEGER PRIMARY KEY,
        scope INTEGER NOT NULL,
        row_key TEXT NOT NULL,
        posted_at TEXT NOT NULL,
        date TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        type TEXT,
        type_source TEXT,
        seen_generation INTEGER NOT NULL,
        body BLOB NOT NULL
      ) STRICT;
      -- type_source (the rail: card, ach, wire…) is in clear beside type, written with the row:
      -- it replaces migration 2's facet table, which was filled lazily by opening the rows.
      -- The time index is also the identity (a record's time is part of it): a sync writes it
      -- near one end. The amount index breaks ties by rowid, which every index entry holds.
      CREATE UNIQUE INDEX pending_transactions_by_time ON pending_transactions (scope, posted_at, row_key);
      CREATE INDEX pending_transactions_by_amount ON pending_transactions (scope, amount_cents);

      CREATE VIRTUAL TABLE pending_transaction_search USING fts5(
        tokens, content = '', contentless_delete = 1, detail = 'none', tokenize = 'ascii'
      );
      CREATE TRIGGER pending_transactions_unindex AFTER DELETE ON pending_transactions BEGIN
        DELETE FROM pending_transaction_search WHERE rowid = old.id;
      END;
    `,
};
