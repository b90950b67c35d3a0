/**
 * The offline cache on real SQLite files: sealing at rest, named keyset-paged queries, search
 * on encrypted data, CSV export, and the faults: a corrupt file, a lost or changed data key,
 * a full disk, migrations from another build.
 */
import {
  existsSync,
  readFileSync,
  readdirSync,
  writeFileSync,
  openSync,
  writeSync,
  closeSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CacheError } from '../../../src/main/services/cache/cacheError.ts';
import { PAGE_BYTES } from '../../../src/main/services/cache/cacheFile.ts';
import { applyMigrations } from '../../../src/main/services/migrations/migrationRunner.ts';
import { CACHE_MIGRATIONS, RECORD_MOVED_VERSION } from '../../../src/main/services/cache/cacheMigrations.ts';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { exportCsv } from '../../../src/main/services/cache/exportViews.ts';
import type { PendingTransaction } from '../../../src/shared/bank/index.ts';
import { accountApplicationOf, pendingTransactionOf, webhookSendOf } from './support/records.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const PROFILE = 'prof_test';
const ACCOUNT = 'acct_test';

let temp: { folder: string; remove: () => void };
let store: InMemorySecretStore;
let credentials: Credentials;
const opened: OfflineCache[] = [];

async function openCache(): Promise<OfflineCache> {
  const cache = await OfflineCache.open({ folder: temp.folder, credentials });
  opened.push(cache);
  return cache;
}

/** Writes `rows` as one synced page of the account, for `profileId`; the sync is not finished. */
function writeTransactions(cache: OfflineCache, profileId: string, rows: PendingTransaction[]): void {
  const { checkpoint } = cache.checkpoints.begin(
    profileId,
    'pending-transactions',
    `pt/${ACCOUNT}`,
    '{}',
    new Date().toISOString(),
  );
  cache.transaction(() => {
    cache.pendingTransactions.writePage(profileId, ACCOUNT, rows, checkpoint.generation);
  });
}

function fillTransactions(cache: OfflineCache, count: number): void {
  writeTransactions(
    cache,
    PROFILE,
    Array.from({ length: count }, (_, n) => pendingTransactionOf(ACCOUNT, n, count)),
  );
  cache.checkpoints.finish(PROFILE, 'pending-transactions', `pt/${ACCOUNT}`, 'done', '2026-01-01T00:00:00.000Z');
}

beforeEach(() => {
  temp = makeTempFolder();
  store = new InMemorySecretStore();
  credentials = new Credentials(store);
});

afterEach(async () => {
  for (const cache of opened.splice(0)) await cache.close();
  temp.remove();
});

/** The cache's migrations up to the one that drops the record's tables (the cut-over, issue 34). */
const BEFORE_THE_MOVE = CACHE_MIGRATIONS.filter((migration) => migration.version < RECORD_MOVED_VERSION);

describe('opening', () => {
  it('applies numbered migrations in its own table, next to another module’s', async () => {
    const cache = await openCache();
    const applied = cache.database.prepare('SELECT version, name FROM cache_migrations').all();
    // Opened without the officer's record, the cache keeps the record's tables: it stops before
    // the migration that drops them (cache/recordMove.ts).
    expect(applied).toHaveLength(BEFORE_THE_MOVE.length);
    // The listener migrates the same database with its own bookkeeping table.
    applyMigrations(
      cache.database,
      [{ version: 1, name: 'listener requests', sql: 'CREATE TABLE listener_probe (id INTEGER)' }],
      'listener_migrations',
    );
    await cache.close();
    const again = await openCache();
    expect(again.opened.messages).toEqual([]);
    expect(again.database.prepare('SELECT COUNT(*) AS n FROM listener_migrations').get()).toEqual({ n: 1 });
    expect(again.database.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
  });

  it('opens a database changed by another build read-only, saying so, and keeps it as it was', async () => {
    const first = await openCache();
    fillTransactions(first, 5);
    await first.close();
    const raw = new DatabaseSync(join(temp.folder, 'cache.db'));
    raw.exec("UPDATE cache_migrations SET checksum = 'other' WHERE version = 1");
    raw.close();
    const cache = await openCache();
    expect(cache.opened.readOnly).toMatch(
      /^The offline cache's migration 1 \(“.+”\) differs from this build's.*open read-only/,
    );
    expect(cache.opened.messages).toContain(cache.opened.readOnly);
    // Still read: the officer can look and export.
    expect(cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT }).rows).toHaveLength(5);
    // Never written: SQLite refuses, and the error says why in words.
    expect(() => {
      writeTransactions(cache, PROFILE, [pendingTransactionOf(ACCOUNT, 9, 10)]);
    }).toThrow(/readonly/);
    let refusal: unknown = null;
    try {
      cache.transaction(() => cache.database.prepare('DELETE FROM pending_transactions').run());
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(CacheError);
    expect(refusal).toMatchObject({ kind: 'read-only', message: expect.stringMatching(/open read-only/) as string });
    await cache.close();
    const after = new DatabaseSync(join(temp.folder, 'cache.db'));
    expect(after.prepare('SELECT checksum FROM cache_migrations WHERE version = 1').get()).toEqual({
      checksum: 'other',
    });
    expect(after.prepare('SELECT COUNT(*) AS n FROM pending_transactions').get()).toEqual({ n: 5 });
    after.close();
  });

  it('opens a database made by a newer version read-only, naming the migration it does not know', async () => {
    await (await openCache()).close();
    const fix = new DatabaseSync(join(temp.folder, 'cache.db'));
    fix.exec(
      `INSERT INTO cache_migrations VALUES (${String(CACHE_MIGRATIONS.length + 1)}, 'from the future', 'x', '2030-01-01')`,
    );
    fix.close();
    const cache = await openCache();
    expect(cache.opened.readOnly).toMatch(
      /^The offline cache was made by a newer Ledgerdesk \(its migration \d+, “from the future”/,
    );
    expect(cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT }).rows).toEqual([]);
  });

  it('migration 4 drops the pending transactions of earlier builds with their checkpoints, and keeps the rest', () => {
    const raw = new DatabaseSync(join(temp.folder, 'cache.db'));
    try {
      applyMigrations(raw, CACHE_MIGRATIONS.slice(0, 3), 'cache_migrations');
      const checkpoint = raw.prepare(
        `INSERT INTO sync_state (profile_id, kind, key, scope, state, generation, started_at)
         VALUES (?, ?, ?, '{}', 'done', 1, '2026-01-01T00:00:00Z')`,
      );
      checkpoint.run(PROFILE, 'pending-transactions', `pt/${ACCOUNT}`);
      checkpoint.run(PROFILE, 'webhook-sends', 'all');
      const old = raw
        .prepare(
          `INSERT INTO pending_transactions
           (profile_id, account_id, row_key, posted_at, date, amount_cents, type, seen_generation, body)
           VALUES (?, ?, 'key', '2026-01-01T00:00:00.000000Z', '2026-01-01', 100, 'charge', 1, x'00')`,
        )
        .run(PROFILE, ACCOUNT);
      raw
        .prepare('INSERT INTO pending_transaction_search (rowid, tokens) VALUES (?, ?)')
        .run(old.lastInsertRowid, 'w1');
      raw
        .prepare('INSERT INTO pending_transaction_facets (id, type_source) VALUES (?, ?)')
        .run(old.lastInsertRowid, 'card');
      raw
        .prepare(
          `INSERT INTO webhook_sends
           (profile_id, send_id, webhook_id, object_id, status, attempt_number, will_retry, created_at, body_digest, body)
           VALUES (?, 'whsend_1', 'wh_1', 'obj_1', 'sent', 1, 0, '2026-01-01T00:00:00Z', 'd', x'00')`,
        )
        .run(PROFILE);

      expect(applyMigrations(raw, CACHE_MIGRATIONS, 'cache_migrations').applied).toEqual(
        CACHE_MIGRATIONS.slice(3).map((migration) => migration.version),
      );

      const count = (table: string): number =>
        (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect(count('pending_transactions')).toBe(0);
      // type_source is a column of the row now; the lazily filled facet table is gone.
      expect(raw.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%facet%'").all()).toEqual([]);
      expect(count('webhook_sends')).toBe(1);
      expect(raw.prepare('SELECT kind FROM sync_state').all()).toEqual([{ kind: 'webhook-sends' }]);
      const columns = (raw.prepare('PRAGMA table_info(pending_transactions)').all() as { name: string }[]).map(
        (column) => column.name,
      );
      expect(columns).toContain('scope');
      expect(columns).toContain('type_source');
      expect(columns).not.toContain('profile_id');
    } finally {
      raw.close();
    }
  });

  it('migration 12 marks which reviews of an earlier build still have their row, and the trigger keeps it', () => {
    const raw = new DatabaseSync(join(temp.folder, 'cache.db'));
    try {
      applyMigrations(raw, CACHE_MIGRATIONS.slice(0, 11), 'cache_migrations');
      const scope = raw
        .prepare('INSERT INTO pending_transaction_scopes (profile_id, account_id) VALUES (?, ?)')
        .run(PROFILE, ACCOUNT).lastInsertRowid;
      raw
        .prepare(
          `INSERT INTO pending_transactions (scope, row_key, posted_at, date, amount_cents, type, seen_generation, body)
           VALUES (?, 'kept', '2026-01-01T00:00:00.000000Z', '2026-01-01', 100, 'charge', 1, x'00')`,
        )
        .run(scope);
      const review = raw.prepare(
        `INSERT INTO reviews (profile_id, kind, ref, account_id, posted_at, state, version, updated_at)
         VALUES (?, ?, ?, ?, ?, 'cleared', 1, '2026-01-02T00:00:00Z')`,
      );
      review.run(PROFILE, 'pending-transaction', 'kept', ACCOUNT, '2026-01-01T00:00:00.000000Z');
      // Its row was posted and left the cache before the upgrade.
      review.run(PROFILE, 'pending-transaction', 'posted', ACCOUNT, '2026-01-01T00:00:00.000000Z');
      // Same key, another profile: not this row.
      review.run('prof_other', 'pending-transaction', 'kept', ACCOUNT, '2026-01-01T00:00:00.000000Z');
      review.run(PROFILE, 'application', 'app_1', null, null);

      expect(applyMigrations(raw, BEFORE_THE_MOVE, 'cache_migrations').applied).toEqual(
        BEFORE_THE_MOVE.slice(11).map((migration) => migration.version),
      );
      const listed = (): unknown[] =>
        raw
          .prepare('SELECT profile_id, kind, ref, account_id, row_listed FROM reviews ORDER BY id')
          .all()
          .map((row) => ({ ...row }));
      expect(listed()).toEqual([
        { profile_id: PROFILE, kind: 'pending-transaction', ref: 'kept', account_id: ACCOUNT, row_listed: 1 },
        { profile_id: PROFILE, kind: 'pending-transaction', ref: 'posted', account_id: ACCOUNT, row_listed: 0 },
        { profile_id: 'prof_other', kind: 'pending-transaction', ref: 'kept', account_id: ACCOUNT, row_listed: 0 },
        { profile_id: PROFILE, kind: 'application', ref: 'app_1', account_id: null, row_listed: 1 },
      ]);

      raw.exec("DELETE FROM pending_transactions WHERE row_key = 'kept'");
      expect((listed()[0] as { row_listed: number }).row_listed).toBe(0);
      expect((listed()[3] as { row_listed: number }).row_listed).toBe(1);
    } finally {
      raw.close();
    }
  });

  it('makes new files with 16 KB pages, and keeps using a file made with 4 KB pages', async () => {
    const pageSizeOf = (file: string): number => {
      const raw = new DatabaseSync(file, { readOnly: true });
      try {
        return (raw.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
      } finally {
        raw.close();
      }
    };
    const fresh = await openCache();
    fillTransactions(fresh, 50);
    await fresh.close();
    expect(pageSizeOf(join(temp.folder, 'cache.db'))).toBe(PAGE_BYTES);

    const older = makeTempFolder();
    try {
      const raw = new DatabaseSync(join(older.folder, 'cache.db'));
      raw.exec('PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE made_before (n INTEGER)');
      raw.close();
      const cache = await OfflineCache.open({ folder: older.folder, credentials });
      opened.push(cache);
      fillTransactions(cache, 50);
      expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT })).toBe(50);
      await cache.close();
      expect(pageSizeOf(join(older.folder, 'cache.db'))).toBe(4096);
    } finally {
      older.remove();
    }
  });

  it('sets a corrupt file aside and starts a new cache, with a clear message', async () => {
    const file = join(temp.folder, 'cache.db');
    writeFileSync(file, 'this is not a database at all, just some text that fills a page'.repeat(100));
    const cache = await openCache();
    expect(cache.opened.setAsideAs).toMatch(/cache\.db\.corrupt-/);
    expect(cache.opened.messages[0]).toMatch(/damaged .* moved to .* new one was started/);
    expect(existsSync(cache.opened.setAsideAs ?? '')).toBe(true);
    fillTransactions(cache, 10);
    expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT })).toBe(10);
  });

  it('notices damage inside the file (quick_check) and rebuilds', async () => {
    const cache = await openCache();
    fillTransactions(cache, 3000);
    cache.database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    await cache.close();
    const file = join(temp.folder, 'cache.db');
    const size = statSync(file).size;
    // Overwrite pages in the middle (b-tree pages of the table and its indexes) with noise.
    const descriptor = openSync(file, 'r+');
    writeSync(descriptor, Buffer.alloc(4096 * 8, 0xa5), 0, 4096 * 8, Math.floor(size / 2 / 4096) * 4096);
    closeSync(descriptor);
    const rebuilt = await openCache();
    expect(rebuilt.opened.setAsideAs).not.toBeNull();
    expect(rebuilt.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT })).toBe(0);
    expect(readdirSync(temp.folder).some((name) => name.includes('.corrupt-'))).toBe(true);
  });
});

describe('sealing at rest', () => {
  it('keeps descriptions, summaries and ids out of the file in clear', async () => {
    const cache = await openCache();
    fillTransactions(cache, 200);
    cache.transaction(() => cache.webhookSends.writePage(PROFILE, [webhookSendOf(1)], '2026-01-01T00:00:00Z'));
    cache.database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const bytes = readFileSync(join(temp.folder, 'cache.db'));
    for (const clear of ['COFFEE SHOP', 'Fuel Station', 'trace_00000001', 'HTTP 500 from the receiver', 'card_0001']) {
      expect(bytes.includes(Buffer.from(clear))).toBe(false);
    }
    // The columns reads filter and sort on stay queryable.
    expect(bytes.includes(Buffer.from('whsend_00000001'))).toBe(true);
  });

  it('drops the sealed data when the data key is lost, keeping the audit log', async () => {
    const cache = await openCache();
    fillTransactions(cache, 50);
    cache.audit.record({
      profileId: PROFILE,
      profileName: 'Test',
      action: 'document.create',
      target: 'doc_1',
      result: 'ok',
    });
    await cache.close();
    const account = dataKeyAccount();
    expect(await store.has(account)).toBe(true);
    await store.delete(account);
    const reopened = await openCache();
    expect(reopened.opened.dataKeyReset).toBe('data-key-lost');
    expect(reopened.opened.messages[0]).toMatch(/no longer in the keychain/);
    expect(reopened.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT })).toBe(0);
    expect(reopened.pendingTransactions.asOf({ profileId: PROFILE, accountId: ACCOUNT })).toBeNull();
    // The log is kept, and says the reviews went with the sealed rows (not deleted behind its back).
    const entries = reopened.audit.list().rows;
    expect(entries.map((entry) => entry.action)).toEqual(['cache.data-key-reset', 'document.create']);
    expect(entries[0]?.detail).toMatch(/no longer in the keychain: every cached record and review was dropped/);
    expect((await reopened.audit.verify()).ok).toBe(true);
    fillTransactions(reopened, 5);
    expect(reopened.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT }).rows).toHaveLength(5);
  });

  it('drops the sealed data when the keychain holds another key', async () => {
    const cache = await openCache();
    fillTransactions(cache, 50);
    await cache.close();
    await store.set(dataKeyAccount(), Buffer.alloc(32, 1).toString('base64'));
    const reopened = await openCache();
    expect(reopened.opened.dataKeyReset).toBe('data-key-changed');
    expect(reopened.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT })).toBe(0);
  });
});

/** The keychain account of the cache's data key, named by the cache id kept in the file. */
function dataKeyAccount(): string {
  const raw = new DatabaseSync(join(temp.folder, 'cache.db'), { readOnly: true });
  const row = raw.prepare("SELECT value FROM cache_meta WHERE key = 'cache_id'").get() as { value: string };
  raw.close();
  return `cache:data-key:${row.value}`;
}

describe('named queries', () => {
  it('pages pending transactions with an opaque keyset cursor, no row twice, none missed', async () => {
    const cache = await openCache();
    fillTransactions(cache, 1050);
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT, limit: 100, cursor });
      expect(page.source).toBe('cache');
      expect(page.asOf).toBe('2026-01-01T00:00:00.000Z');
      for (const row of page.rows) seen.add(row.row_key);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 20);
    expect(pages).toBe(11);
    expect(seen.size).toBe(1050);
  });

  it('sorts newest first by default, or by amount, and filters by type and date', async () => {
    const cache = await openCache();
    fillTransactions(cache, 300);
    const newest = cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT, limit: 5 });
    expect(newest.rows.map((row) => row.desc)).toEqual([
      'COFFEE SHOP 000000',
      'FUEL STATION 000001',
      'GROCERY MARKET 000002',
      'BOOK STORE 000003',
      'PHARMACY 000004',
    ]);
    const largest = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: ACCOUNT,
      sort: 'largest',
      limit: 300,
    });
    const cents = largest.rows.map((row) => Number(String(row.amount).replace('.', '')));
    expect(cents).toEqual([...cents].sort((a, b) => b - a));
    const holds = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: ACCOUNT,
      type: 'hold',
      withTotal: true,
    });
    expect(holds.total).toBe(60);
    expect(holds.rows.every((row) => row.type === 'hold')).toBe(true);
    const lastDay = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: ACCOUNT,
      fromDate: '2025-12-31',
      limit: 1000,
    });
    expect(lastDay.rows.every((row) => row.date === '2025-12-31')).toBe(true);
    expect(lastDay.rows.length).toBeGreaterThan(0);
  });

  it('searches whole words of descriptions and summaries on encrypted rows', async () => {
    const cache = await openCache();
    fillTransactions(cache, 600);
    const coffee = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: ACCOUNT,
      search: 'coffee',
      limit: 1000,
      withTotal: true,
    });
    expect(coffee.total).toBe(100);
    expect(coffee.rows.every((row) => String(row.desc).startsWith('COFFEE SHOP'))).toBe(true);
    const one = cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT, search: 'Coffee 000006' });
    expect(one.rows.map((row) => row.desc)).toEqual(['COFFEE SHOP 000006']);
    const combined = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: ACCOUNT,
      search: 'railway',
      type: 'deposit',
      withTotal: true,
    });
    expect(combined.rows.every((row) => row.summary === 'Railway Tickets' && row.type === 'deposit')).toBe(true);
    expect(combined.total).toBe(20);
    expect(
      cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT, search: 'nothing-like-this' }).rows,
    ).toEqual([]);
  });

  it('searches a word held by most rows (walking the sorted index) as correctly as a rare one', async () => {
    const cache = await openCache();
    const count = 24_000;
    const { checkpoint } = cache.checkpoints.begin(
      PROFILE,
      'pending-transactions',
      'many',
      '{}',
      new Date().toISOString(),
    );
    cache.transaction(() =>
      cache.pendingTransactions.writePage(
        PROFILE,
        ACCOUNT,
        Array.from({ length: count }, (_, n) => ({
          ...pendingTransactionOf(ACCOUNT, n, count),
          summary: 'Card purchase',
        })),
        checkpoint.generation,
      ),
    );
    // More hits than the sparse plan takes: every row has "purchase".
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < 3; page += 1) {
      const read = cache.pendingTransactions.list({
        profileId: PROFILE,
        accountId: ACCOUNT,
        search: 'purchase',
        limit: 100,
        cursor,
      });
      expect(read.rows).toHaveLength(100);
      for (const row of read.rows) seen.add(row.row_key);
      cursor = read.nextCursor;
    }
    expect(seen.size).toBe(300);
    const newest = cache.pendingTransactions
      .list({ profileId: PROFILE, accountId: ACCOUNT, limit: 100 })
      .rows.map((row) => row.row_key);
    const searched = cache.pendingTransactions.list({
      profileId: PROFILE,
      accountId: ACCOUNT,
      search: 'card purchase',
      limit: 100,
    });
    expect(searched.rows.map((row) => row.row_key)).toEqual(newest);
    expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT, search: 'purchase' })).toBe(count);
    expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT, search: 'purchase coffee' })).toBe(
      count / 6,
    );
  });

  it('pages by amount through ties, every row once and in order, and refuses a forged tie-breaker', async () => {
    const cache = await openCache();
    const amounts = ['-5.00', '12.34', '99.99'];
    writeTransactions(
      cache,
      PROFILE,
      Array.from({ length: 250 }, (_, n) => ({
        ...pendingTransactionOf(ACCOUNT, n, 250),
        amount: amounts[n % 3] ?? '0.00',
      })),
    );
    for (const sort of ['largest', 'smallest'] as const) {
      const seen: string[] = [];
      const cents: number[] = [];
      let cursor: string | null = null;
      let firstCursor: string | null = null;
      do {
        const page = cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT, sort, limit: 7, cursor });
        for (const row of page.rows) {
          seen.push(row.row_key);
          cents.push(Number(String(row.amount).replace('.', '')));
        }
        cursor = page.nextCursor;
        firstCursor ??= cursor;
      } while (cursor !== null);
      expect(seen).toHaveLength(250);
      expect(new Set(seen).size).toBe(250);
      expect(cents).toEqual([...cents].sort((a, b) => (sort === 'largest' ? b - a : a - b)));

      // The same query's cursor with its rowid tie-breaker replaced: refused, not misread.
      const content = JSON.parse(Buffer.from(firstCursor ?? '', 'base64url').toString('utf8')) as {
        q: string;
        k: [number, string];
      };
      const forged = Buffer.from(JSON.stringify({ q: content.q, k: [content.k[0], 'x; DROP'] })).toString('base64url');
      expect(() =>
        cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT, sort, cursor: forged }),
      ).toThrow(CacheError);
    }
  });

  it('forgets a removed profile’s transactions and nobody else’s', async () => {
    const cache = await openCache();
    fillTransactions(cache, 40);
    writeTransactions(
      cache,
      'prof_other',
      Array.from({ length: 30 }, (_, n) => pendingTransactionOf(ACCOUNT, n, 30)),
    );
    cache.dropProfile(PROFILE);
    expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT })).toBe(0);
    expect(cache.pendingTransactions.accounts(PROFILE)).toEqual([]);
    expect(cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT }).rows).toEqual([]);
    expect(cache.pendingTransactions.count({ profileId: 'prof_other', accountId: ACCOUNT })).toBe(30);
    expect(cache.pendingTransactions.accounts('prof_other')).toEqual([ACCOUNT]);
    // Written again after the removal, the profile's account gets a new scope and reads back.
    fillTransactions(cache, 5);
    expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT })).toBe(5);
  });

  it('refuses a cursor from another query', async () => {
    const cache = await openCache();
    fillTransactions(cache, 300);
    const page = cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT, limit: 10 });
    expect(() =>
      cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT, type: 'hold', cursor: page.nextCursor }),
    ).toThrow(/another query/);
  });

  it('sweeps transactions the bank no longer lists after a complete sync', async () => {
    const cache = await openCache();
    fillTransactions(cache, 100);
    const { checkpoint } = cache.checkpoints.begin(
      PROFILE,
      'pending-transactions',
      'again',
      '{}',
      new Date().toISOString(),
    );
    cache.transaction(() => {
      cache.pendingTransactions.writePage(
        PROFILE,
        ACCOUNT,
        Array.from({ length: 60 }, (_, n) => pendingTransactionOf(ACCOUNT, n, 100)),
        checkpoint.generation,
      );
      expect(cache.pendingTransactions.sweep(PROFILE, ACCOUNT, checkpoint.generation, {})).toBe(40);
    });
    expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT })).toBe(60);
    // The search index forgets the swept rows too.
    expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT, search: '000099' })).toBe(0);
  });

  it('filters webhook sends, writes only what changed, and says how fresh each view is', async () => {
    const cache = await openCache();
    const sends = Array.from({ length: 400 }, (_, n) => webhookSendOf(n));
    expect(cache.transaction(() => cache.webhookSends.writePage(PROFILE, sends, '2026-01-01T00:00:00Z'))).toBe(400);
    expect(cache.transaction(() => cache.webhookSends.writePage(PROFILE, sends, '2026-01-01T00:00:00Z'))).toBe(0);
    const errors = cache.webhookSends.list({
      profileId: PROFILE,
      status: 'error',
      webhookId: 'wh_002',
      limit: 10,
      withTotal: true,
    });
    expect(errors.rows.every((row) => row.status === 'error' && row.webhook_id === 'wh_002')).toBe(true);
    expect(errors.total).toBe(20);
    expect(errors.rows[0]?.created_at).toBe(webhookSendOf(382).created_at);
    expect(errors.asOf).toBeNull();
    cache.checkpoints.begin(
      PROFILE,
      'webhook-sends',
      'one',
      JSON.stringify({ webhookId: 'wh_002' }),
      '2026-01-01T00:00:00Z',
    );
    cache.checkpoints.finish(PROFILE, 'webhook-sends', 'one', 'done', '2026-01-02T00:00:00.000Z');
    expect(cache.webhookSends.asOf({ profileId: PROFILE, webhookId: 'wh_002', status: 'error' })).toBe(
      '2026-01-02T00:00:00.000Z',
    );
    expect(cache.webhookSends.asOf({ profileId: PROFILE })).toBeNull();
  });

  it('lists the attempts made within one second in attempt order, page after page', async () => {
    const cache = await openCache();
    // Retries of one notification in the same second; the send ids sort the other way round.
    const attempts = [0, 1, 2, 3, 4].map((attempt) => ({
      ...webhookSendOf(1),
      id: `whsend_${String(9 - attempt)}`,
      attempt_number: attempt,
      status: attempt === 4 ? ('sent' as const) : ('error' as const),
      created_at: '2025-06-01T12:00:00Z',
    }));
    cache.transaction(() => cache.webhookSends.writePage(PROFILE, attempts, '2025-06-01T12:00:01Z'));
    for (const [sort, expected] of [
      ['newest', [4, 3, 2, 1, 0]],
      ['oldest', [0, 1, 2, 3, 4]],
    ] as const) {
      const seen: number[] = [];
      let cursor: string | null = null;
      let firstCursor: string | null = null;
      do {
        const page = cache.webhookSends.list({
          profileId: PROFILE,
          objectId: attempts[0]?.object_id,
          sort,
          limit: 2,
          cursor,
        });
        seen.push(...page.rows.map((row) => Number(row.attempt_number)));
        cursor = page.nextCursor;
        firstCursor ??= cursor;
      } while (cursor !== null);
      expect(seen).toEqual(expected);
      const content = JSON.parse(Buffer.from(firstCursor ?? '', 'base64url').toString('utf8')) as {
        q: string;
        k: [string, string];
      };
      const forged = Buffer.from(
        JSON.stringify({ q: content.q, k: [content.k[0], JSON.stringify(['1 OR 1', 'whsend_1'])] }),
      ).toString('base64url');
      expect(() =>
        cache.webhookSends.list({ profileId: PROFILE, objectId: attempts[0]?.object_id, sort, cursor: forged }),
      ).toThrow(CacheError);
    }
  });

  it('keeps every distinct version of an account application for its status history', async () => {
    const cache = await openCache();
    const fetches = [
      accountApplicationOf('aact_1', 'submitted', '2025-01-01T00:00:00Z'),
      accountApplicationOf('aact_1', 'submitted', '2025-01-01T00:00:00Z'),
      accountApplicationOf('aact_1', 'kyc', '2025-01-02T00:00:00Z'),
      accountApplicationOf('aact_1', 'approved', '2025-01-03T00:00:00Z'),
    ];
    const created = fetches.map((application, index) =>
      cache.transaction(() =>
        cache.accountApplications.record(PROFILE, application, `2026-01-0${String(index + 1)}T00:00:00Z`),
      ),
    );
    expect(created).toEqual([true, false, true, true]);
    const history = cache.accountApplications.history(PROFILE, 'aact_1');
    expect(history.rows.map((version) => version.status)).toEqual(['submitted', 'kyc', 'approved']);
    expect(history.asOf).toBe('2026-01-04T00:00:00Z');
    expect(cache.accountApplications.list({ profileId: PROFILE, status: 'approved' }).rows).toHaveLength(1);
  });

  it('keeps the audit log append-only', async () => {
    const cache = await openCache();
    cache.audit.record({
      profileId: PROFILE,
      profileName: 'Test',
      action: 'webhook.delete',
      target: 'wh_1',
      result: 'failed',
      detail: 'DELETE /webhook/{id} (404): not found.',
    });
    expect(() => {
      cache.database.exec("UPDATE audit_log SET result = 'ok'");
    }).toThrow(/append-only/);
    expect(() => {
      cache.database.exec('DELETE FROM audit_log');
    }).toThrow(/append-only/);
    expect(cache.audit.list({ profileId: PROFILE }).rows[0]).toMatchObject({
      action: 'webhook.delete',
      result: 'failed',
    });
  });
});

describe('faults while writing', () => {
  it('reports a full disk clearly and keeps what was written before', async () => {
    const cache = await openCache();
    fillTransactions(cache, 100);
    const pages = (cache.database.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;
    cache.database.exec(`PRAGMA max_page_count = ${String(pages + 2)}`);
    const many = Array.from({ length: 5000 }, (_, n) => pendingTransactionOf('acct_other', n, 5000));
    const error = (() => {
      try {
        cache.transaction(() => cache.pendingTransactions.writePage(PROFILE, 'acct_other', many, 99));
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(CacheError);
    expect((error as CacheError).kind).toBe('disk-full');
    expect((error as Error).message).toMatch(/is full: nothing was lost/);
    expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: 'acct_other' })).toBe(0);
    expect(cache.pendingTransactions.count({ profileId: PROFILE, accountId: ACCOUNT })).toBe(100);
    expect(cache.database.isTransaction).toBe(false);
  });
});

describe('CSV export', () => {
  it('streams a filtered view to a file, every page, and only then gives it its name', async () => {
    const cache = await openCache();
    fillTransactions(cache, 2500);
    const file = join(temp.folder, 'holds.csv');
    const result = await exportCsv(
      cache,
      { kind: 'pending-transactions', query: { profileId: PROFILE, accountId: ACCOUNT, type: 'hold' } },
      file,
    );
    expect(result.rows).toBe(500);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
    expect(
      lines[0]?.startsWith('account_id,date,extended_timestamp,extended_timestamp_precise,amount,balance,type'),
    ).toBe(true);
    expect(lines[1]).toContain(',hold,');
    expect(lines).toHaveLength(501);
    expect(existsSync(`${file}.partial`)).toBe(false);
  });
});
