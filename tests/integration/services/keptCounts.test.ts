/**
 * The counts the cache keeps with its writes (cache migration 20) on a real cache file: after
 * every kind of write that moves them (a sync's page, a sweep of rows the bank stopped listing,
 * dispositions, a rule's flags, a change, a profile's reviews dropped, the sealed data dropped)
 * they (rows per account, volume per account, day and flow, reviews by part) equal a count
 * of the rows themselves; the migration fills them for a cache that already
 * holds rows and reviews; the queue's counts read from them agree with its filtered reading.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE } from '../../../src/main/services/cache/cacheMigrations.ts';
import { dropSealedData } from '../../../src/main/services/cache/dataKey.ts';
import { KeptCounts } from '../../../src/main/services/cache/keptCounts.ts';
import { applyMigrations } from '../../../src/main/services/migrations/migrationRunner.ts';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { ReviewQueue } from '../../../src/main/services/review/reviewQueue.ts';
import { ReviewService } from '../../../src/main/services/review/reviewService.ts';
import { pendingTransactionOf, webhookSendOf } from './support/records.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const PROFILE = 'prof_kept';
const ACCOUNTS = ['acct_a', 'acct_b', 'acct_c'];
const KEPT = CACHE_MIGRATIONS.findIndex((migration) => migration.name.startsWith('counts kept with the rows'));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What the kept counts must say, counted from the rows and reviews themselves. */
function counted(database: DatabaseSync): { rows: unknown[]; days: unknown[]; reviews: unknown[] } {
  return {
    rows: database
      .prepare(
        `SELECT s.account_id, count(p.id) AS total FROM pending_transaction_scopes AS s
         LEFT JOIN pending_transactions AS p ON p.scope = s.id
         WHERE s.profile_id = ? GROUP BY s.account_id ORDER BY s.account_id`,
      )
      .all(PROFILE),
    days: database
      .prepare(
        `SELECT p.scope, p.date,
           CASE WHEN p.type IN ('hold', 'hold_release') THEN 'holds' WHEN p.amount_cents >= 0 THEN 'credits' ELSE 'debits' END AS flow,
           count(*) AS n, sum(p.amount_cents) AS cents
         FROM pending_transactions AS p JOIN pending_transaction_scopes AS s ON s.id = p.scope
         WHERE s.profile_id = ? GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      )
      .all(PROFILE),
    reviews: database
      .prepare(
        `SELECT kind, coalesce(account_id, '') AS account_key, state, rule_name IS NOT NULL AS by_rule, row_listed,
           count(*) AS total
         FROM reviews WHERE profile_id = ? GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
      )
      .all(PROFILE),
  };
}

function kept(database: DatabaseSync): { rows: unknown[]; days: unknown[]; reviews: unknown[] } {
  const counts = new KeptCounts(database);
  return {
    rows: [...counts.pendingRowsByAccount(PROFILE)].map(([account_id, total]) => ({ account_id, total })),
    days: database
      .prepare(
        `SELECT d.scope, d.date, d.flow, d.n, d.cents FROM pending_transaction_days AS d
         JOIN pending_transaction_scopes AS s ON s.id = d.scope
         WHERE s.profile_id = ? AND d.n <> 0 ORDER BY 1, 2, 3`,
      )
      .all(PROFILE),
    reviews: counts
      .reviews(PROFILE)
      .map((count) => ({
        kind: count.kind,
        account_key: count.accountId ?? '',
        state: count.state,
        by_rule: count.byRule ? 1 : 0,
        row_listed: count.rowListed ? 1 : 0,
        total: count.total,
      }))
      .sort((a, b) => {
        const left = [a.kind, a.account_key, a.state, a.by_rule, a.row_listed].join('|');
        const right = [b.kind, b.account_key, b.state, b.by_rule, b.row_listed].join('|');
        return left < right ? -1 : left > right ? 1 : 0;
      }),
  };
}

/** A person's dispositions per day, counted from the history itself (what migration 25 keeps). */
function countedDispositionDays(database: DatabaseSync): unknown[] {
  return database
    .prepare(
      `SELECT profile_id, substr(at, 1, 10) AS date, state, count(*) AS n FROM review_history
       WHERE rule_name IS NULL AND state IN ('cleared', 'flagged', 'escalated') GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    )
    .all();
}

function keptDispositionDays(database: DatabaseSync): unknown[] {
  return database.prepare('SELECT profile_id, date, state, n FROM review_days WHERE n <> 0 ORDER BY 1, 2, 3').all();
}

async function openCache(): Promise<{ cache: OfflineCache; reviews: ReviewService; queue: ReviewQueue }> {
  const temp = makeTempFolder('ledgerdesk-kept-counts-');
  const cache = await OfflineCache.open({
    folder: temp.folder,
    credentials: new Credentials(new InMemorySecretStore()),
    writer: 'inline',
  });
  cleanups.push(temp.remove, () => cache.close());
  const reviews = new ReviewService({ cache, profileName: () => 'Kept' });
  return { cache, reviews, queue: new ReviewQueue(cache, reviews) };
}

describe('counts kept with the writes', () => {
  it('equal the rows and reviews after syncs, sweeps, dispositions, rule flags, changes and drops', async () => {
    const { cache, reviews, queue } = await openCache();
    const database = cache.database;
    const sync = (accountId: string, from: number, to: number, sweep: boolean): void => {
      const { checkpoint } = cache.checkpoints.begin(
        PROFILE,
        'pending-transactions',
        accountId,
        '{}',
        new Date().toISOString(),
      );
      const rows = Array.from({ length: to - from }, (_, n) => pendingTransactionOf(accountId, from + n, 400));
      cache.transaction(() => {
        cache.pendingTransactions.writePage(PROFILE, accountId, rows, checkpoint.generation);
        if (sweep) cache.pendingTransactions.sweep(PROFILE, accountId, checkpoint.generation, {});
      });
    };
    for (const accountId of ACCOUNTS) sync(accountId, 0, 300, false);
    expect(kept(database)).toEqual(counted(database));
    const refs = (
      database.prepare('SELECT row_key FROM pending_transactions ORDER BY id').all() as { row_key: string }[]
    ).map((row) => row.row_key);
    reviews.give({
      profileId: PROFILE,
      kind: 'pending-transaction',
      refs: refs.filter((_, i) => i % 5 === 0),
      disposition: 'cleared',
    });
    reviews.give({
      profileId: PROFILE,
      kind: 'pending-transaction',
      refs: refs.filter((_, i) => i % 7 === 1),
      disposition: 'flagged',
    });
    reviews.give({
      profileId: PROFILE,
      kind: 'pending-transaction',
      refs: refs.filter((_, i) => i % 11 === 2),
      disposition: 'escalated',
    });
    // A disposition given again moves the item from one count to another.
    reviews.give({
      profileId: PROFILE,
      kind: 'pending-transaction',
      refs: refs.filter((_, i) => i % 35 === 0),
      disposition: 'escalated',
    });
    cache.transaction(() => {
      for (const ref of refs.filter((_, i) => i % 13 === 3))
        reviews.table.markChanged(PROFILE, 'pending-transaction', ref, [], new Date().toISOString());
    });
    reviews.saveRule(PROFILE, { name: 'Large debit', kind: 'pending-transaction', amountBeyond: '-150.00' });
    reviews.afterSync(PROFILE, 'pending-transactions');
    cache.transaction(() =>
      cache.webhookSends.writePage(
        PROFILE,
        [0, 1, 2].map((n) => webhookSendOf(n)),
        new Date().toISOString(),
      ),
    );
    reviews.give({
      profileId: PROFILE,
      kind: 'webhook-send',
      refs: ['whsend_00000001', 'whsend_00000002'],
      disposition: 'flagged',
    });
    expect(kept(database)).toEqual(counted(database));
    expect(counted(database).reviews.length).toBeGreaterThan(8);

    // The bank stops listing half of acct_b's rows: they leave, and their reviews are no longer listed.
    sync('acct_b', 0, 150, true);
    const unlisted = database
      .prepare(`SELECT count(*) AS n FROM reviews WHERE profile_id = ? AND row_listed = 0`)
      .get(PROFILE) as { n: number };
    expect(unlisted.n).toBeGreaterThan(0);
    expect(kept(database)).toEqual(counted(database));
    expect(new KeptCounts(database).pendingRowsByAccount(PROFILE).get('acct_b')).toBe(150);
    // ...and lists them again: the same rows come back, their reviews listed again.
    sync('acct_b', 0, 300, false);
    reviews.afterSync(PROFILE, 'pending-transactions');
    expect(kept(database)).toEqual(counted(database));

    // The queue's counts read from the kept counts agree with its own filtered reading (an
    // amount filter that keeps every row goes through the index counts instead).
    const fromKept = queue.counts({ profileId: PROFILE, kind: 'pending-transaction' });
    const fromIndex = queue.counts({ profileId: PROFILE, kind: 'pending-transaction', minAmountCents: 0 });
    expect(fromKept.states).toEqual(fromIndex.states);
    expect(fromKept.accounts).toEqual(fromIndex.accounts);
    expect(fromKept.states.unreviewed).toBeGreaterThan(0);
    expect(queue.counts({ profileId: PROFILE, accountId: 'acct_c' }).accounts).toEqual(
      queue.counts({ profileId: PROFILE, accountId: 'acct_c', minAmountCents: 0 }).accounts,
    );

    // A person's dispositions per day (migration 25): the same as the history says.
    expect(countedDispositionDays(database)).not.toEqual([]);
    expect(keptDispositionDays(database)).toEqual(countedDispositionDays(database));

    reviews.dropProfile(PROFILE, true);
    expect(kept(database)).toEqual(counted(database));
    expect(kept(database).reviews).toEqual([]);
    expect(keptDispositionDays(database)).toEqual([]);
    cache.pendingTransactions.dropProfile(PROFILE);
    expect(kept(database)).toEqual(counted(database));
    expect(database.prepare('SELECT count(*) AS n FROM pending_transaction_counts WHERE total <> 0').get()).toEqual({
      n: 0,
    });
  });

  it('are emptied with the sealed data', async () => {
    const { cache, reviews } = await openCache();
    const { checkpoint } = cache.checkpoints.begin(
      PROFILE,
      'pending-transactions',
      'k',
      '{}',
      new Date().toISOString(),
    );
    const rows = Array.from({ length: 50 }, (_, n) => pendingTransactionOf('acct_a', n, 50));
    cache.transaction(() => cache.pendingTransactions.writePage(PROFILE, 'acct_a', rows, checkpoint.generation));
    const refs = cache.pendingTransactions.list({ profileId: PROFILE, accountId: 'acct_a', limit: 10 }).rows;
    reviews.give({
      profileId: PROFILE,
      kind: 'pending-transaction',
      refs: refs.map((row) => row.row_key),
      disposition: 'flagged',
    });
    expect(kept(cache.database).reviews).not.toEqual([]);
    expect(keptDispositionDays(cache.database)).toEqual(countedDispositionDays(cache.database));
    expect(keptDispositionDays(cache.database)).not.toEqual([]);
    dropSealedData(cache.database);
    expect(keptDispositionDays(cache.database)).toEqual([]);
    expect(kept(cache.database)).toEqual(counted(cache.database));
    expect(kept(cache.database).reviews).toEqual([]);
    expect(cache.database.prepare('SELECT sum(total) AS n FROM pending_transaction_counts').get()).toEqual({ n: 0 });
  });

  it('are filled by the migration for a cache that already holds rows and reviews', () => {
    expect(KEPT).toBeGreaterThan(0);
    const temp = makeTempFolder('ledgerdesk-kept-migration-');
    cleanups.push(temp.remove);
    const file = new DatabaseSync(join(temp.folder, 'cache.sqlite'));
    cleanups.push(() => {
      file.close();
    });
    applyMigrations(file, CACHE_MIGRATIONS.slice(0, KEPT), CACHE_MIGRATIONS_TABLE);
    const scope = file.prepare('INSERT INTO pending_transaction_scopes (profile_id, account_id) VALUES (?, ?)');
    scope.run(PROFILE, 'acct_a');
    scope.run(PROFILE, 'acct_b');
    const row = file.prepare(
      `INSERT INTO pending_transactions (scope, row_key, posted_at, date, amount_cents, type, type_source, seen_generation, body)
       VALUES (?, ?, '2025-12-01T00:00:00Z', '2025-12-01', -100, 'charge', 'card', 1, x'00')`,
    );
    for (let n = 0; n < 40; n += 1) row.run(n % 4 === 0 ? 2 : 1, `row_${String(n)}`);
    const review = file.prepare(
      `INSERT INTO reviews (profile_id, kind, ref, account_id, posted_at, state, rule_name, version, updated_at, row_listed)
       VALUES (?, ?, ?, ?, '2025-12-01T00:00:00Z', ?, ?, 1, '2025-12-02T00:00:00Z', ?)`,
    );
    review.run(PROFILE, 'pending-transaction', 'row_1', 'acct_a', 'cleared', null, 1);
    review.run(PROFILE, 'pending-transaction', 'row_2', 'acct_a', 'flagged', 'rule_ref', 1);
    review.run(PROFILE, 'pending-transaction', 'row_gone', 'acct_b', 'flagged', null, 0);
    review.run(PROFILE, 'webhook-send', 'whsend_1', null, 'escalated', null, 1);
    applyMigrations(file, CACHE_MIGRATIONS.slice(0, KEPT + 1), CACHE_MIGRATIONS_TABLE);
    expect(kept(file)).toEqual(counted(file));
    expect(kept(file).rows).toEqual([
      { account_id: 'acct_a', total: 30 },
      { account_id: 'acct_b', total: 10 },
    ]);
    // And kept from then on by the triggers.
    row.run(2, 'row_new');
    file.prepare(`UPDATE reviews SET state = 'escalated' WHERE ref = 'row_1'`).run();
    file.prepare(`DELETE FROM pending_transactions WHERE row_key = 'row_3'`).run();
    file
      .prepare(`UPDATE pending_transactions SET amount_cents = 500, type = 'hold', scope = 2 WHERE row_key = 'row_5'`)
      .run();
    expect(kept(file)).toEqual(counted(file));
  });

  it("fill a person's dispositions per day from the history already there (migration 25), then keep them", () => {
    const DAYS = CACHE_MIGRATIONS.findIndex((migration) =>
      migration.name.startsWith("a person's dispositions per day"),
    );
    expect(DAYS).toBeGreaterThan(KEPT);
    const temp = makeTempFolder('ledgerdesk-kept-days-');
    cleanups.push(temp.remove);
    const file = new DatabaseSync(join(temp.folder, 'cache.sqlite'));
    cleanups.push(() => {
      file.close();
    });
    applyMigrations(file, CACHE_MIGRATIONS.slice(0, DAYS), CACHE_MIGRATIONS_TABLE);
    const step = file.prepare(
      `INSERT INTO review_history (profile_id, kind, ref, version, at, state, rule_name, body)
       VALUES (?, 'pending-transaction', ?, ?, ?, ?, ?, x'00')`,
    );
    step.run(PROFILE, 'row_1', 1, '2026-11-01T09:00:00.000Z', 'flagged', null);
    step.run(PROFILE, 'row_1', 2, '2026-11-01T23:59:59.999Z', 'cleared', null);
    step.run(PROFILE, 'row_2', 1, '2026-11-01T10:00:00.000Z', 'flagged', 'rule_ref');
    step.run(PROFILE, 'row_2', 2, '2026-11-02T10:00:00.000Z', 'changed', null);
    step.run(PROFILE, 'row_3', 1, '2026-11-02T00:00:00.000Z', 'flagged', null);
    step.run('prof_other', 'row_1', 1, '2026-11-02T08:00:00.000Z', 'escalated', null);
    applyMigrations(file, CACHE_MIGRATIONS.slice(0, DAYS + 1), CACHE_MIGRATIONS_TABLE);
    expect(keptDispositionDays(file)).toEqual([
      { profile_id: PROFILE, date: '2026-11-01', state: 'cleared', n: 1 },
      { profile_id: PROFILE, date: '2026-11-01', state: 'flagged', n: 1 },
      { profile_id: PROFILE, date: '2026-11-02', state: 'flagged', n: 1 },
      { profile_id: 'prof_other', date: '2026-11-02', state: 'escalated', n: 1 },
    ]);
    // A rule's flag and a change are no one's work; a person's step counts on its UTC date.
    step.run(PROFILE, 'row_3', 2, '2026-11-02T12:00:00.000Z', 'escalated', null);
    step.run(PROFILE, 'row_4', 1, '2026-11-02T12:00:00.000Z', 'flagged', 'rule_ref');
    file.prepare(`DELETE FROM review_history WHERE profile_id = 'prof_other'`).run();
    expect(keptDispositionDays(file)).toEqual(countedDispositionDays(file));
    expect(keptDispositionDays(file)).toHaveLength(4);
  });
});
