/**
 * Posted transactions (`GET /account/{id}/transaction`, real-wire get_transactions_success) are
 * the sandbox's pending transactions that move the balance (every type but hold and
 * hold_release), served in the real record's shape. Unlike a pending transaction a posted one
 * has an id, and the list pages by it (page_cursor = the last id seen, conventions.md): the id
 * encodes the row's position, with a tag of its account so an id of another account is refused.
 */
import { createHash } from 'node:crypto';
import { ID_PREFIX, type PendingTransaction, type Transaction } from '../../shared/bank/index.ts';

const TAG_LENGTH = 6;
const POSITION_LENGTH = 8;

function tagOf(accountId: string): string {
  const digest = createHash('sha256').update(accountId).digest();
  return (digest.readUIntBE(0, 5) % 36 ** TAG_LENGTH).toString(36).padStart(TAG_LENGTH, '0');
}

export function transactionIdOf(accountId: string, position: number): string {
  return `${ID_PREFIX.transaction}${tagOf(accountId)}${position.toString(36).padStart(POSITION_LENGTH, '0')}`;
}

/** The position a transaction id of this account names, or null when it is not one of its ids. */
export function positionOfTransactionId(id: string, accountId: string): number | null {
  const prefix = `${ID_PREFIX.transaction}${tagOf(accountId)}`;
  if (!id.startsWith(prefix)) return null;
  const rest = id.slice(prefix.length);
  if (!/^[0-9a-z]{8}$/.test(rest)) return null;
  return parseInt(rest, 36);
}

/** The posted transaction of a stored pending row, as the real record has it. */
export function transactionOf(id: string, row: PendingTransaction): Transaction {
  return {
    id,
    amount: row.amount,
    balance: row.balance,
    date: row.date,
    desc: row.desc,
    summary: row.summary,
    type: row.type,
    type_source: row.type_source,
    ach_id: row.ach_id,
    billpay_payment_id: row.billpay_payment_id,
    book_id: row.book_id,
    check_id: row.check_id,
    check_number: row.check_number,
    wire_id: row.wire_id,
    wire: null,
    trace_id: row.trace_id,
    fingerprint: id,
  };
}
