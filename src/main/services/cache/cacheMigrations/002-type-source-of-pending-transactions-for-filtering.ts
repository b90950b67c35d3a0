/** Cache migration 2. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 2,
  name: 'type_source of pending transactions, for filtering',
  sql: `
      -- type_source lives in the sealed body. Filtering on it in SQL needs it in clear beside
      -- the row: one facet row per pending transaction, keyed by its rowid, filled after the
      -- rows are written (pendingTransactionFacets.ts), so the sync's insert path is unchanged.
      -- A missing facet row means "not indexed yet"; type_source NULL means the bank sent null.
      CREATE TABLE pending_transaction_facets (
        id INTEGER PRIMARY KEY,
        type_source TEXT
      ) STRICT;
      CREATE TRIGGER pending_transactions_unfacet AFTER DELETE ON pending_transactions BEGIN
        DELETE FROM pending_transaction_facets WHERE id = old.id;
      END;
    `,
};
