/** Cache migration 26. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 26,
  name: 'pending transactions counted by amount band',
  sql: `
      -- The queue's counts under an amount filter ("at least 1,000.00") walked every matching
      -- entry of the amount index: 1.96 s over 1,000,000 rows on a quiet machine. Kept here, per
      -- account (scope) and amount band, by triggers in the transaction of the write: a band is
      -- the amount's sign, its number of digits and its two leading digits (services/cache/
      -- amountBands.ts), so a range of amounts is the bands wholly inside it plus two short
      -- walks of the amount index at its ends. The band of x, in cents, is
      --   sign(x) * (|x| < 100 ? |x| : (digits(|x|) - 2) * 100 + leading two digits of |x|).
      CREATE TABLE pending_transaction_amounts (
        scope INTEGER NOT NULL,
        band INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (scope, band)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO pending_transaction_amounts (scope, band, n)
        SELECT scope, (CASE WHEN amount_cents < 0 THEN -(CASE WHEN abs(amount_cents) < 100 THEN abs(amount_cents) ELSE (length(abs(amount_cents)) - 2) * 100 + CAST(substr(abs(amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(amount_cents) < 100 THEN abs(amount_cents) ELSE (length(abs(amount_cents)) - 2) * 100 + CAST(substr(abs(amount_cents), 1, 2) AS INTEGER) END) END), count(*)
        FROM pending_transactions GROUP BY 1, 2;
      CREATE TRIGGER pending_transactions_banded AFTER INSERT ON pending_transactions BEGIN
        INSERT INTO pending_transaction_amounts (scope, band, n)
          VALUES (new.scope, (CASE WHEN new.amount_cents < 0 THEN -(CASE WHEN abs(new.amount_cents) < 100 THEN abs(new.amount_cents) ELSE (length(abs(new.amount_cents)) - 2) * 100 + CAST(substr(abs(new.amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(new.amount_cents) < 100 THEN abs(new.amount_cents) ELSE (length(abs(new.amount_cents)) - 2) * 100 + CAST(substr(abs(new.amount_cents), 1, 2) AS INTEGER) END) END), 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER pending_transactions_unbanded AFTER DELETE ON pending_transactions BEGIN
        UPDATE pending_transaction_amounts SET n = n - 1
          WHERE scope = old.scope AND band = (CASE WHEN old.amount_cents < 0 THEN -(CASE WHEN abs(old.amount_cents) < 100 THEN abs(old.amount_cents) ELSE (length(abs(old.amount_cents)) - 2) * 100 + CAST(substr(abs(old.amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(old.amount_cents) < 100 THEN abs(old.amount_cents) ELSE (length(abs(old.amount_cents)) - 2) * 100 + CAST(substr(abs(old.amount_cents), 1, 2) AS INTEGER) END) END);
      END;
      CREATE TRIGGER pending_transactions_rebanded AFTER UPDATE OF scope, amount_cents ON pending_transactions
        WHEN old.scope IS NOT new.scope OR old.amount_cents IS NOT new.amount_cents BEGIN
        UPDATE pending_transaction_amounts SET n = n - 1
          WHERE scope = old.scope AND band = (CASE WHEN old.amount_cents < 0 THEN -(CASE WHEN abs(old.amount_cents) < 100 THEN abs(old.amount_cents) ELSE (length(abs(old.amount_cents)) - 2) * 100 + CAST(substr(abs(old.amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(old.amount_cents) < 100 THEN abs(old.amount_cents) ELSE (length(abs(old.amount_cents)) - 2) * 100 + CAST(substr(abs(old.amount_cents), 1, 2) AS INTEGER) END) END);
        INSERT INTO pending_transaction_amounts (scope, band, n)
          VALUES (new.scope, (CASE WHEN new.amount_cents < 0 THEN -(CASE WHEN abs(new.amount_cents) < 100 THEN abs(new.amount_cents) ELSE (length(abs(new.amount_cents)) - 2) * 100 + CAST(substr(abs(new.amount_cents), 1, 2) AS INTEGER) END) ELSE (CASE WHEN abs(new.amount_cents) < 100 THEN abs(new.amount_cents) ELSE (length(abs(new.amount_cents)) - 2) * 100 + CAST(substr(abs(new.amount_cents), 1, 2) AS INTEGER) END) END), 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END;
    `,
};
