/** Cache migration 19. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 19,
  name: 'pending transactions by bank date, for the overview',
  sql: `
      -- The Overview's volume by day (per account; credits, debits and holds apart) groups the
      -- days of one window by the columns kept in clear. This index holds every column that
      -- read uses, in the order it groups, so a month of a million-row cache is one walk of
      -- an index range per account, never a lookup of each row (nor an opened, sealed body).
      CREATE INDEX pending_transactions_by_day ON pending_transactions (scope, date, type, amount_cents);
    `,
};
