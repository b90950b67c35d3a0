/**
 * Counts under an amount filter from the rows kept per amount band (cache migration 26,
 * services/cache/amountBands.ts), on a real cache file: the triggers' band of every row is
 * the code's; the kept counts equal a recount after writes, moves and deletes; and for every
 * range tried (band edges, inside one band, across decades, zero, either sign, open-ended)
 * the count equals a plain count of the matching rows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AmountBands, bandOf, sizesOf } from '../../../src/main/services/cache/amountBands.ts';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { pendingTransactionOf } from './support/records.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const PROFILE = 'prof_bands';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Amounts at and around band edges, of either sign, from zero to millions. */
const EDGES = [0, 1, 9, 10, 99, 100, 101, 109, 110, 119, 999, 1000, 1099, 1100, 9999, 10000, 123456, 99999999];
const AMOUNTS = EDGES.flatMap((cents) => (cents === 0 ? [0] : [cents, -cents]));

function money(cents: number): string {
  const size = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${String(Math.floor(size / 100))}.${String(size % 100).padStart(2, '0')}`;
}

async function filled(): Promise<{ cache: OfflineCache; scopes: Map<string, number> }> {
  const temp = makeTempFolder('ledgerdesk-amount-bands-');
  const cache = await OfflineCache.open({
    folder: temp.folder,
    credentials: new Credentials(new InMemorySecretStore()),
    writer: 'inline',
  });
  cleanups.push(temp.remove, () => cache.close());
  const { checkpoint } = cache.checkpoints.begin(PROFILE, 'pending-transactions', 'k', '{}', new Date().toISOString());
  for (const accountId of ['acct_a', 'acct_b']) {
    const rows = Array.from({ length: 600 }, (_, n) => ({
      ...pendingTransactionOf(accountId, n, 600),
      // Every edge several times, and a spread of others.
      amount: money(n < AMOUNTS.length * 3 ? (AMOUNTS[n % AMOUNTS.length] ?? 0) : ((n * 7919) % 2_000_000) - 1_000_000),
    }));
    cache.transaction(() => cache.pendingTransactions.writePage(PROFILE, accountId, rows, checkpoint.generation));
  }
  const scopes = new Map(
    (
      cache.database
        .prepare('SELECT id, account_id FROM pending_transaction_scopes WHERE profile_id = ?')
        .all(PROFILE) as {
        id: number;
        account_id: string;
      }[]
    ).map((row) => [row.account_id, row.id] as const),
  );
  return { cache, scopes };
}

function recounted(cache: OfflineCache): unknown[] {
  const rows = cache.database.prepare('SELECT scope, amount_cents FROM pending_transactions').all() as {
    scope: number;
    amount_cents: number;
  }[];
  const counts = new Map<string, { scope: number; band: number; n: number }>();
  for (const row of rows) {
    const key = `${String(row.scope)}|${String(bandOf(row.amount_cents))}`;
    const entry = counts.get(key) ?? { scope: row.scope, band: bandOf(row.amount_cents), n: 0 };
    entry.n += 1;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => a.scope - b.scope || a.band - b.band);
}

function kept(cache: OfflineCache): unknown[] {
  return cache.database
    .prepare('SELECT scope, band, n FROM pending_transaction_amounts WHERE n <> 0 ORDER BY scope, band')
    .all();
}

describe('pending transactions counted by amount band', () => {
  it('bands as the code does, sizes each band, and keeps the counts through writes, moves and deletes', async () => {
    expect(bandOf(0)).toBe(0);
    expect(bandOf(99)).toBe(99);
    expect(bandOf(100)).toBe(110);
    expect(bandOf(-109)).toBe(-110);
    expect(bandOf(110)).toBe(111);
    expect(bandOf(123456)).toBe(412);
    expect(sizesOf(412)).toEqual({ low: 120000, high: 129999 });
    for (const cents of EDGES) {
      const { low, high } = sizesOf(bandOf(cents));
      expect(cents).toBeGreaterThanOrEqual(low);
      expect(cents).toBeLessThanOrEqual(high);
      expect(bandOf(low)).toBe(bandOf(high));
    }
    const { cache } = await filled();
    expect(kept(cache)).toEqual(recounted(cache));
    cache.database.prepare('UPDATE pending_transactions SET amount_cents = -amount_cents * 3 WHERE id % 7 = 0').run();
    cache.database.prepare('DELETE FROM pending_transactions WHERE id % 11 = 0').run();
    cache.pendingTransactions.dropProfile('nobody');
    expect(kept(cache)).toEqual(recounted(cache));
    cache.pendingTransactions.dropProfile(PROFILE);
    expect(kept(cache)).toEqual([]);
  });

  it('counts every range exactly as a plain count of the rows does', async () => {
    const { cache, scopes } = await filled();
    const bands = new AmountBands(cache.database);
    const plain = cache.database.prepare(
      `SELECT count(*) AS n FROM pending_transactions
       WHERE scope = ? AND (amount_cents BETWEEN ? AND ? OR amount_cents BETWEEN ? AND ?)`,
    );
    const ranges: [number, number | null][] = [[0, null]];
    for (const min of EDGES) {
      ranges.push([min, null]);
      for (const max of EDGES) if (max >= min) ranges.push([min, max]);
      ranges.push([min, min + 55], [min + 3, null]);
    }
    let nonEmpty = 0;
    for (const scope of scopes.values()) {
      for (const [min, max] of ranges) {
        const high = max ?? Number.MAX_SAFE_INTEGER;
        const expected = (plain.get(scope, min, high, -high, -min) as { n: number }).n;
        expect(bands.count(scope, min, max), `${String(min)}..${String(max)}`).toBe(expected);
        if (expected > 0) nonEmpty += 1;
      }
    }
    expect(nonEmpty).toBeGreaterThan(ranges.length);
    expect(bands.count([...scopes.values()][0] ?? 0, 500, 100)).toBe(0);
  });
});
