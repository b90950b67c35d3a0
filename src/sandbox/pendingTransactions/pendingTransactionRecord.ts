/**
 * Builds a pending transaction (spec §2.1) with every field present, in the spec's order, and
 * every originating-object field null unless the origin says otherwise. Used by the seed
 * generator and by simulations, so both produce the same shape.
 */
import type {
  PendingTransaction,
  PendingTransactionType,
  PendingTransactionTypeSource,
} from '../../shared/bank/index.ts';
import { dateAt, preciseTimestampOf, secondsTimestampOf } from '../seed/clock.ts';
import { moneyOf } from '../seed/money.ts';

export type OriginField =
  | 'ach_id'
  | 'billpay_payment_id'
  | 'book_id'
  | 'card_id'
  | 'check_id'
  | 'fednow_id'
  | 'partner_deposit_id'
  | 'incoming_ach_id'
  | 'incoming_wire_id'
  | 'issued_check_id'
  | 'network_transfer_id'
  | 'wire_id';

export interface PendingTransactionFacts {
  accountId: string;
  micros: number;
  precision: 'milliseconds' | 'microseconds';
  /** Hours from UTC of the clock the bank dated the row with (0 = UTC, -5 = US Eastern). */
  bankDateOffsetHours: number;
  amountCents: number;
  balanceCents: number;
  type: PendingTransactionType | null;
  typeSource: PendingTransactionTypeSource | null;
  origin: { field: OriginField; id: string } | null;
  category: 'interest' | 'fees' | null;
  checkNumber: string | null;
  desc: string;
  summary: string;
  traceId: string | null;
  relatedTransferIds: string[] | null;
}

export function pendingTransactionOf(facts: PendingTransactionFacts): PendingTransaction {
  const originOf = (field: OriginField): string | null => (facts.origin?.field === field ? facts.origin.id : null);
  return {
    account_id: facts.accountId,
    ach_id: originOf('ach_id'),
    amount: moneyOf(facts.amountCents),
    balance: moneyOf(facts.balanceCents),
    billpay_payment_id: originOf('billpay_payment_id'),
    book_id: originOf('book_id'),
    card_id: originOf('card_id'),
    category: facts.category,
    check_id: originOf('check_id'),
    check_number: facts.checkNumber,
    date: dateAt(facts.micros, facts.bankDateOffsetHours),
    desc: facts.desc,
    extended_timestamp: secondsTimestampOf(facts.micros),
    extended_timestamp_precise: preciseTimestampOf(facts.micros, facts.precision),
    fednow_id: originOf('fednow_id'),
    partner_deposit_id: originOf('partner_deposit_id'),
    incoming_ach_id: originOf('incoming_ach_id'),
    incoming_wire_id: originOf('incoming_wire_id'),
    issued_check_id: originOf('issued_check_id'),
    network_transfer_id: originOf('network_transfer_id'),
    related_transfer_ids: facts.relatedTransferIds,
    summary: facts.summary,
    trace_id: facts.traceId,
    type: facts.type,
    type_source: facts.typeSource,
    wire_id: originOf('wire_id'),
  };
}
