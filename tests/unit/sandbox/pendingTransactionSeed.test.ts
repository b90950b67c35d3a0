/** The seed generator honours every field rule of spec §2.1, deterministically. */
import { describe, expect, it } from 'vitest';
import {
  PENDING_TRANSACTION_ORIGIN_FIELDS,
  PENDING_TRANSACTION_TYPES,
  PENDING_TRANSACTION_TYPE_SOURCES,
  changesBalance,
  parseWith,
  pendingTransaction,
  type PendingTransaction,
} from '../../../src/shared/bank/index.ts';
import { seededRandom } from '../../../src/sandbox/random.ts';
import { microsOf } from '../../../src/sandbox/seed/clock.ts';
import { centsOf } from '../../../src/sandbox/seed/money.ts';
import { seedPendingTransactions, type SeedRow } from '../../../src/sandbox/seed/pendingTransactionSeed.ts';

const END = microsOf(new Date('2025-12-31T23:00:00Z'));

function generate(
  seed: number,
  count: number,
): { rows: SeedRow[]; summary: ReturnType<typeof seedPendingTransactions> } {
  const rows: SeedRow[] = [];
  const summary = seedPendingTransactions(seededRandom(seed), 'acct_test', count, END, (row) => rows.push(row));
  return { rows, summary };
}

/** Which originating field each type_source allows (spec §2.1 "ID of the ... object that originated"). */
const ORIGINS_BY_SOURCE: Record<string, readonly string[]> = {
  ach: ['ach_id', 'incoming_ach_id'],
  wire: ['wire_id', 'incoming_wire_id'],
  book: ['book_id'],
  card: ['card_id'],
  check: ['check_id', 'issued_check_id'],
  bank: [],
  null: ['billpay_payment_id', 'fednow_id', 'partner_deposit_id', 'network_transfer_id'],
};

describe('pending transaction seed', () => {
  const { rows, summary } = generate(1, 6000);
  const transactions = rows.map((row) => row.transaction);

  it('produces exactly the rows asked for, every one valid against the shared schema', () => {
    expect(rows).toHaveLength(6000);
    expect(summary.count).toBe(6000);
    for (const transaction of transactions) {
      const parsed = parseWith(pendingTransaction, transaction);
      expect(parsed.ok ? [] : parsed.problems).toEqual([]);
    }
  });

  it('is deterministic for a seed and different for another', () => {
    expect(generate(1, 300).rows).toEqual(generate(1, 300).rows);
    expect(generate(2, 300).rows).not.toEqual(generate(1, 300).rows);
  });

  it('is strictly increasing in time, ending before the seed end', () => {
    for (let index = 1; index < rows.length; index += 1) {
      expect(rows[index]?.micros ?? 0).toBeGreaterThan(rows[index - 1]?.micros ?? 0);
    }
    expect(rows.at(-1)?.micros ?? Infinity).toBeLessThan(END + 40 * 3600 * 1_000_000);
  });

  it('covers every type and every type_source, and some rows with neither', () => {
    expect(new Set(transactions.map((row) => row.type))).toEqual(new Set([...PENDING_TRANSACTION_TYPES, null]));
    expect(new Set(transactions.map((row) => row.type_source))).toEqual(
      new Set([...PENDING_TRANSACTION_TYPE_SOURCES, null]),
    );
  });

  it('sets the originating *_id field that matches type_source, and no other', () => {
    for (const row of transactions) {
      const set = PENDING_TRANSACTION_ORIGIN_FIELDS.filter((field) => row[field] !== null);
      const allowed = ORIGINS_BY_SOURCE[String(row.type_source)] ?? [];
      expect(set.length).toBeLessThanOrEqual(1);
      for (const field of set) expect(allowed).toContain(field);
      if (row.type_source !== 'bank' && row.type !== null) expect(set).toHaveLength(1);
    }
    for (const field of PENDING_TRANSACTION_ORIGIN_FIELDS) {
      expect(
        transactions.some((row) => row[field] !== null),
        field,
      ).toBe(true);
    }
  });

  it('moves the balance by each amount, except holds and their releases', () => {
    for (let index = 1; index < transactions.length; index += 1) {
      const previous = transactions[index - 1] as PendingTransaction;
      const row = transactions[index] as PendingTransaction;
      const expected = centsOf(previous.balance) + (changesBalance(row) ? centsOf(row.amount) : 0);
      expect(centsOf(row.balance)).toBe(expected);
    }
    expect(centsOf(transactions.at(-1)?.balance ?? '0.00')).toBe(summary.balanceCents);
  });

  it('ties each hold to its hold_release and its charge with one trace_id', () => {
    const byTrace = new Map<string, PendingTransaction[]>();
    for (const row of transactions) {
      if (row.trace_id === null) continue;
      byTrace.set(row.trace_id, [...(byTrace.get(row.trace_id) ?? []), row]);
    }
    const holds = transactions.filter((row) => row.type === 'hold');
    expect(holds.length).toBeGreaterThan(100);
    let complete = 0;
    for (const hold of holds) {
      const family = byTrace.get(hold.trace_id ?? '') ?? [];
      const release = family.find((row) => row.type === 'hold_release');
      if (release === undefined) continue; // still outstanding at the end of the seed
      complete += 1;
      expect(release.amount).toBe(hold.amount.replace('-', ''));
      expect(release.card_id).toBe(hold.card_id);
      expect(family.some((row) => row.type === 'charge')).toBe(true);
    }
    expect(complete).toBeGreaterThan(holds.length * 0.9);
  });

  it('gives both millisecond and microsecond precision, consistent with extended_timestamp', () => {
    const precisions = new Set(transactions.map((row) => row.extended_timestamp_precise.length));
    expect(precisions).toEqual(new Set(['2025-01-01T00:00:00.000Z'.length, '2025-01-01T00:00:00.000000Z'.length]));
    for (const row of transactions) {
      expect(row.extended_timestamp_precise.slice(0, 19)).toBe(row.extended_timestamp.slice(0, 19));
    }
  });

  it('has rows whose bank date differs from the date of extended_timestamp', () => {
    const differing = transactions.filter((row) => row.date !== row.extended_timestamp.slice(0, 10));
    expect(differing.length).toBeGreaterThan(10);
    for (const row of differing) expect(row.date < row.extended_timestamp.slice(0, 10)).toBe(true);
  });

  it('uses category interest and fees where they apply', () => {
    expect(transactions.filter((row) => row.type === 'interest').every((row) => row.category === 'interest')).toBe(
      true,
    );
    expect(transactions.some((row) => row.category === 'fees' && row.type === 'charge')).toBe(true);
  });

  it('carries a check_number only for outbound checks', () => {
    for (const row of transactions) expect(row.check_number !== null).toBe(row.issued_check_id !== null);
  });
});
