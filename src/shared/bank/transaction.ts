/**
 * Transaction: a posted entry of an account (`GET /account/{id}/transaction`). The interface
 * covers only pending transactions; the real service also lists posted ones (real-wire
 * get_transactions_success), and this is that record's shape. Unlike a pending transaction it
 * has an id (`ttx_`), so its list pages by the last id.
 */
import { z } from 'zod';
import { isoDate, jsonObject, money } from './common.ts';
import { PENDING_TRANSACTION_TYPE_SOURCES, PENDING_TRANSACTION_TYPES } from './pendingTransaction.ts';
import { responseOf } from './response.ts';

const originId = z.string().nullable();

export const transaction = z.looseObject({
  id: z.string().min(1),
  amount: money,
  balance: money,
  date: isoDate,
  desc: z.string(),
  summary: z.string().nullable(),
  type: z.enum(PENDING_TRANSACTION_TYPES).nullable(),
  type_source: z.enum(PENDING_TRANSACTION_TYPE_SOURCES).nullable(),
  ach_id: originId,
  billpay_payment_id: originId,
  book_id: originId,
  check_id: originId,
  check_number: z.string().nullable(),
  wire_id: originId,
  /** The wire's details when the transaction is a wire; null otherwise in the recordings. */
  wire: jsonObject.nullable(),
  trace_id: z.string().nullable(),
  /** Identifies the entry across corrections; the recordings show the transaction's own id. */
  fingerprint: z.string(),
});
export type Transaction = z.infer<typeof transaction>;

export const transactionResponse = responseOf({ record: transaction, required: ['id'] });
export type TransactionResponse = z.output<typeof transactionResponse.schema>;
