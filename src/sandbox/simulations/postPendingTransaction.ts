/**
 * A new pending transaction on an account, as the bank would post it: timestamped now (never
 * before the account's newest row, so list order and cursors hold), the balance moved unless
 * it is a hold, the account updated, `account.update` emitted, and that account's cached
 * pages dropped.
 */
import type { Account, PendingTransactionType, PendingTransactionTypeSource } from '../../shared/bank/index.ts';
import { timestampOf } from '../../shared/bank/index.ts';
import type { OriginField } from '../pendingTransactions/pendingTransactionRecord.ts';
import { pendingTransactionOf } from '../pendingTransactions/pendingTransactionRecord.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { centsOf, moneyOf } from '../seed/money.ts';
import { inTransaction } from '../store/database.ts';

export interface NewPendingTransaction {
  accountId: string;
  amountCents: number;
  type: PendingTransactionType;
  typeSource: PendingTransactionTypeSource | null;
  origin: { field: OriginField; id: string } | null;
  desc: string;
  summary: string;
}

export function accountPath(accountId: string): string {
  return `/account/${accountId}`;
}

export function postPendingTransaction(context: SandboxContext, posting: NewPendingTransaction): void {
  inTransaction(context.database, () => {
    const account = context.records.read('account', posting.accountId) as Account | undefined;
    if (account === undefined) throw new RequestProblem(404, `No account with id ${posting.accountId}.`);
    const newest = context.pendingTransactions.newestMicros(posting.accountId) ?? 0;
    const micros = Math.max(Date.now() * 1000 + Math.floor(Math.random() * 1000), newest + 1);
    const holdLike = posting.type === 'hold' || posting.type === 'hold_release';
    const balanceCents = centsOf(account.balance) + (holdLike ? 0 : posting.amountCents);
    // A hold reserves funds (available drops); its release gives them back; neither moves the balance.
    const availableCents = centsOf(account.available_balance) + posting.amountCents;
    const transaction = pendingTransactionOf({
      accountId: posting.accountId,
      micros,
      precision: 'microseconds',
      bankDateOffsetHours: 0,
      amountCents: posting.amountCents,
      balanceCents,
      type: posting.type,
      typeSource: posting.typeSource,
      origin: posting.origin,
      category: posting.type === 'interest' ? 'interest' : null,
      checkNumber: null,
      desc: posting.desc,
      summary: posting.summary,
      traceId: null,
      relatedTransferIds: [],
    });
    context.pendingTransactions.append(posting.accountId, micros, JSON.stringify(transaction));
    context.records.replace('account', posting.accountId, {
      ...account,
      balance: moneyOf(balanceCents),
      available_balance: moneyOf(availableCents),
      updated_at: timestampOf(new Date()),
    });
    context.events.publish({
      event: 'account.update',
      objectId: posting.accountId,
      objectPath: accountPath(posting.accountId),
    });
  });
  context.pageCache.invalidate(posting.accountId);
}
