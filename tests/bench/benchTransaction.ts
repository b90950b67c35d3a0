/**
 * The benchmarks' made-up pending transaction: a card purchase from the bench account at a
 * moment, for a number of cents, with the fields a bench varies given as overrides. Five
 * benches wrote the same 30-line record by hand; the rows they make are unchanged.
 */
import type { PendingTransaction } from '../../src/shared/bank/index.ts';

/** `-12.34` for 1234 cents (a debit), `12.34` for a credit. */
export function amountOf(cents: number, debit = true): string {
  return `${debit ? '-' : ''}${String(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, '0')}`;
}

export function benchTransaction(
  accountId: string,
  n: number,
  moment: string,
  cents: number,
  overrides: Partial<PendingTransaction> = {},
): PendingTransaction {
  return {
    account_id: accountId,
    ach_id: null,
    amount: amountOf(cents),
    balance: '1000000.00',
    billpay_payment_id: null,
    book_id: null,
    card_id: `card_${String(n % 50)}`,
    category: null,
    check_id: null,
    check_number: null,
    date: moment.slice(0, 10),
    desc: `MERCHANT${String(n % 200)} PURCHASE ${String(n % 997)}`,
    extended_timestamp: moment.slice(0, 19) + 'Z',
    extended_timestamp_precise: moment.slice(0, 19) + `.${String(n % 1_000_000).padStart(6, '0')}Z`,
    fednow_id: null,
    partner_deposit_id: null,
    incoming_ach_id: null,
    incoming_wire_id: null,
    issued_check_id: null,
    network_transfer_id: null,
    related_transfer_ids: [],
    summary: `Card purchase ${String(n)}`,
    trace_id: `trace_${n.toString(36)}`,
    type: 'charge',
    type_source: 'card',
    wire_id: null,
    ...overrides,
  };
}
