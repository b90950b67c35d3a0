/** Cache migration 20. Shipped: its SQL is pinned by tests/unit/services/migrationChecksums.test.ts; change the schema with a new migration. */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 20,
  name: 'counts kept with the rows and reviews they count',
  sql: `
      -- The officer's queue and the Overview ask "how many" of every account at once: counting
      -- a million-row cache at each read cost one index range per account (1.6 s for the queue
      -- counts, 3.5 s for the Overview under load, docs/officer-desk.md). These tables keep the
      -- counts instead, written by triggers in the transaction of the very write they count (a
      -- sync's page, a disposition, a rule's flags, a row the bank stopped listing), so a count
      -- is never behind the rows, and a read of the counts is a few dozen rows.
      CREATE TABLE pending_transaction_counts (
        scope INTEGER PRIMARY KEY,
        total INTEGER NOT NULL
      ) STRICT;
      INSERT INTO pending_transaction_counts (scope, total)
        SELECT scope, count(*) FROM pending_transactions GROUP BY scope;
      CREATE TRIGGER pending_transactions_counted AFTER INSERT ON pending_transactions BEGIN
        INSERT INTO pending_transaction_counts (scope, total) VALUES (new.scope, 1)
          ON CONFLICT (scope) DO UPDATE SET total = total + 1;
      END;
      CREATE TRIGGER pending_transactions_uncounted AFTER DELETE ON pending_transactions BEGIN
        UPDATE pending_transaction_counts SET total = total - 1 WHERE scope = old.scope;
      END;
      CREATE TRIGGER pending_transaction_scopes_uncounted AFTER DELETE ON pending_transaction_scopes BEGIN
        DELETE FROM pending_transaction_counts WHERE scope = old.id;
        DELETE FROM pending_transaction_days WHERE scope = old.id;
      END;

      -- The Overview's volume by day: per account and bank date, credits, debits and holds
      -- (holds and their releases are money set aside, whatever their sign) counted and summed.
      -- It replaces migration 19's index, which only that read used: a sync writes one small
      -- row per day here instead of an index entry per transaction.
      DROP INDEX pending_transactions_by_day;
      CREATE TABLE pending_transaction_days (
        scope INTEGER NOT NULL,
        date TEXT NOT NULL,
        flow TEXT NOT NULL CHECK (flow IN ('credits', 'debits', 'holds')),
        n INTEGER NOT NULL,
        cents INTEGER NOT NULL,
        PRIMARY KEY (scope, date, flow)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO pending_transaction_days (scope, date, flow, n, cents)
        SELECT scope, date,
          CASE WHEN type IN ('hold', 'hold_release') THEN 'holds' WHEN amount_cents >= 0 THEN 'credits' ELSE 'debits' END,
          count(*), sum(amount_cents)
        FROM pending_transactions GROUP BY 1, 2, 3;
      CREATE TRIGGER pending_transactions_counted_by_day AFTER INSERT ON pending_transactions BEGIN
        INSERT INTO pending_transaction_days (scope, date, flow, n, cents)
          VALUES (new.scope, new.date,
            CASE WHEN new.type IN ('hold', 'hold_release') THEN 'holds' WHEN new.amount_cents >= 0 THEN 'credits' ELSE 'debits' END,
            1, new.amount_cents)
          ON CONFLICT DO UPDATE SET n = n + 1, cents = cents + excluded.cents;
      END;
      CREATE TRIGGER pending_transactions_uncounted_by_day AFTER DELETE ON pending_transactions BEGIN
        UPDATE pending_transaction_days SET n = n - 1, cents = cents - old.amount_cents
          WHERE scope = old.scope AND date = old.date
            AND flow = CASE WHEN old.type IN ('hold', 'hold_release') THEN 'holds'
              WHEN old.amount_cents >= 0 THEN 'credits' ELSE 'debits' END;
      END;
      -- A row's scope, date, type and amount are never rewritten today (a changed record is a
      -- new row); should one be, it moves between the counts all the same.
      CREATE TRIGGER pending_transactions_recounted
        AFTER UPDATE OF scope, date, type, amount_cents ON pending_transactions BEGIN
        UPDATE pending_transaction_counts SET total = total - 1 WHERE scope = old.scope;
        INSERT INTO pending_transaction_counts (scope, total) VALUES (new.scope, 1)
          ON CONFLICT (scope) DO UPDATE SET total = total + 1;
        UPDATE pending_transaction_days SET n = n - 1, cents = cents - old.amount_cents
          WHERE scope = old.scope AND date = old.date
            AND flow = CASE WHEN old.type IN ('hold', 'hold_release') THEN 'holds'
              WHEN old.amount_cents >= 0 THEN 'credits' ELSE 'debits' END;
        INSERT INTO pending_transaction_days (scope, date, flow, n, cents)
          VALUES (new.scope, new.date,
            CASE WHEN new.type IN ('hold', 'hold_release') THEN 'holds' WHEN new.amount_cents >= 0 THEN 'credits' ELSE 'debits' END,
            1, new.amount_cents)
          ON CONFLICT DO UPDATE SET n = n + 1, cents = cents + excluded.cents;
      END;

      -- Reviews by what the queue and the Overview group them by. account_key is the account
      -- of a pending transaction's review, '' for the other kinds (a key column cannot be NULL).
      CREATE TABLE review_counts (
        profile_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        account_key TEXT NOT NULL,
        state TEXT NOT NULL,
        by_rule INTEGER NOT NULL,
        row_listed INTEGER NOT NULL,
        total INTEGER NOT NULL,
        PRIMARY KEY (profile_id, kind, account_key, state, by_rule, row_listed)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO review_counts (profile_id, kind, account_key, state, by_rule, row_listed, total)
        SELECT profile_id, kind, coalesce(account_id, ''), state, rule_name IS NOT NULL, row_listed, count(*)
        FROM reviews GROUP BY 1, 2, 3, 4, 5, 6;
      CREATE TRIGGER reviews_counted AFTER INSERT ON reviews BEGIN
        INSERT INTO review_counts (profile_id, kind, account_key, state, by_rule, row_listed, total)
          VALUES (new.profile_id, new.kind, coalesce(new.account_id, ''), new.state, new.rule_name IS NOT NULL,
            new.row_listed, 1)
          ON CONFLICT DO UPDATE SET total = total + 1;
      END;
      CREATE TRIGGER reviews_uncounted AFTER DELETE ON reviews BEGIN
        UPDATE review_counts SET total = total - 1
          WHERE profile_id = old.profile_id AND kind = old.kind AND account_key = coalesce(old.account_id, '')
            AND state = old.state AND by_rule = (old.rule_name IS NOT NULL) AND row_listed = old.row_listed;
      END;
      CREATE TRIGGER reviews_recounted
        AFTER UPDATE OF profile_id, kind, account_id, state, rule_name, row_listed ON reviews BEGIN
        UPDATE review_counts SET total = total - 1
          WHERE profile_id = old.profile_id AND kind = old.kind AND account_key = coalesce(old.account_id, '')
            AND state = old.state AND by_rule = (old.rule_name IS NOT NULL) AND row_listed = old.row_listed;
        INSERT INTO review_counts (profile_id, kind, account_key, state, by_rule, row_listed, total)
          VALUES (new.profile_id, new.kind, coalesce(new.account_id, ''), new.state, new.rule_name IS NOT NULL,
            new.row_listed, 1)
          ON CONFLICT DO UPDATE SET total = total + 1;
      END;
    `,
};
