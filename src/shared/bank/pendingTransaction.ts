/**
 * Pending transaction (spec §2.1). It has no id of its own; lists page through it with an
 * opaque cursor chosen by the service.
 */
import { z } from 'zod';
import { isoDate, money, preciseTimestamp, timestamp } from './common.ts';
import { responseOf } from './response.ts';

export const PENDING_TRANSACTION_TYPES = [
  'charge',
  'deposit',
  'hold',
  'hold_release',
  'interest',
  'payment',
  'reversal',
  'withdrawal',
] as const;
export type PendingTransactionType = (typeof PENDING_TRANSACTION_TYPES)[number];

export const PENDING_TRANSACTION_TYPE_SOURCES = ['ach', 'bank', 'book', 'card', 'check', 'wire'] as const;
export type PendingTransactionTypeSource = (typeof PENDING_TRANSACTION_TYPE_SOURCES)[number];

/** conventions.md: category is `interest`, `fees` or null. */
const PENDING_TRANSACTION_CATEGORIES = ['interest', 'fees'] as const;

const originId = z.string().nullable();

export const pendingTransaction = z.looseObject({
  account_id: z.string().min(1),
  ach_id: originId,
  amount: money,
  balance: money,
  billpay_payment_id: originId,
  book_id: originId,
  card_id: originId,
  category: z.enum(PENDING_TRANSACTION_CATEGORIES).nullable(),
  check_id: originId,
  check_number: z.string().nullable(),
  date: isoDate,
  desc: z.string(),
  extended_timestamp: timestamp,
  extended_timestamp_precise: preciseTimestamp,
  fednow_id: originId,
  partner_deposit_id: originId,
  incoming_ach_id: originId,
  incoming_wire_id: originId,
  issued_check_id: originId,
  network_transfer_id: originId,
  /** Described as null when there are none; the sample shows an empty array. */
  related_transfer_ids: z.array(z.string()).nullable(),
  summary: z.string(),
  trace_id: z.string().nullable(),
  type: z.enum(PENDING_TRANSACTION_TYPES).nullable(),
  type_source: z.enum(PENDING_TRANSACTION_TYPE_SOURCES).nullable(),
  wire_id: originId,
});
export type PendingTransaction = z.infer<typeof pendingTransaction>;

/** The originating-object fields, in the order a detail view lists them. */
export const PENDING_TRANSACTION_ORIGIN_FIELDS = [
  'ach_id',
  'billpay_payment_id',
  'book_id',
  'card_id',
  'check_id',
  'fednow_id',
  'partner_deposit_id',
  'incoming_ach_id',
  'incoming_wire_id',
  'issued_check_id',
  'network_transfer_id',
  'wire_id',
] as const;

/** Hold transactions carry an amount but never change the balance (spec §2.1). */
export function changesBalance(transaction: { type?: PendingTransactionType | null | undefined }): boolean {
  return transaction.type !== 'hold' && transaction.type !== 'hold_release';
}

/**
 * A pending transaction as read from the bank (response.ts): it has no id, so nothing is
 * required; the partner's own name for the cash-deposit field is read as partner_deposit_id.
 */
export const pendingTransactionResponse = responseOf({
  record: pendingTransaction,
  required: [],
  aliases: { greendot_deposit_id: 'partner_deposit_id' },
});
export type PendingTransactionResponse = z.output<typeof pendingTransactionResponse.schema>;
