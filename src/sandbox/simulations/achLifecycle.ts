/**
 * ACH transfers in the sandbox: created `pending` by a simulation, then moved along
 *
 *   pending -> processing -> sent -> returned
 *   pending | processing -> canceled
 *
 * Each move emits ach.update (spec §6.3); creation emits ach.create and posts the transfer's
 * pending transaction on its account (account.update).
 */
import type { Ach, AchStatus } from '../../shared/bank/index.ts';
import { ACH_TRANSITIONS, timestampOf } from '../../shared/bank/index.ts';
import { freshId } from '../random.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { centsOf } from '../seed/money.ts';
import { inTransaction } from '../store/database.ts';
import { postPendingTransaction } from './postPendingTransaction.ts';

function achPath(id: string): string {
  return `/ach/${id}`;
}

export function createAch(
  context: SandboxContext,
  request: { account_id: string; amount: string; direction: 'credit' | 'debit' },
): Ach {
  return inTransaction(context.database, () => {
    if (context.records.text('account', request.account_id) === undefined) {
      throw new RequestProblem(
        400,
        `Invalid request body: simulation.account_id: no account with id ${request.account_id}.`,
      );
    }
    const now = timestampOf(new Date());
    const ach: Ach = {
      id: freshId('ach'),
      account_id: request.account_id,
      amount: request.amount,
      direction: request.direction,
      status: 'pending',
      created_at: now,
      updated_at: now,
    };
    context.records.insert('ach', ach.id, ach.created_at, ach);
    context.events.publish({ event: 'ach.create', objectId: ach.id, objectPath: achPath(ach.id) });
    const cents = centsOf(request.amount);
    postPendingTransaction(context, {
      accountId: request.account_id,
      amountCents: request.direction === 'credit' ? cents : -cents,
      type: request.direction === 'credit' ? 'deposit' : 'withdrawal',
      typeSource: 'ach',
      origin: { field: 'ach_id', id: ach.id },
      desc: request.direction === 'credit' ? 'ACH CREDIT SANDBOX' : 'ACH DEBIT SANDBOX',
      summary: request.direction === 'credit' ? 'ACH credit' : 'ACH debit',
    });
    return ach;
  });
}

export function moveAch(context: SandboxContext, achId: string, wanted: AchStatus | undefined): Ach {
  return inTransaction(context.database, () => {
    const ach = context.records.read('ach', achId) as Ach | undefined;
    if (ach === undefined) throw new RequestProblem(404, `No ACH with id ${achId}.`);
    const allowed = ACH_TRANSITIONS[ach.status];
    const status = wanted ?? allowed[0];
    if (status === undefined || !allowed.includes(status)) {
      throw new RequestProblem(
        409,
        `ACH ${achId} is ${ach.status} and cannot move to ${status ?? 'another status'}` +
          (allowed.length === 0 ? ': that status is final.' : `: it can move to ${allowed.join(' or ')}.`),
      );
    }
    const moved: Ach = { ...ach, status, updated_at: timestampOf(new Date()) };
    context.records.replace('ach', achId, moved);
    context.events.publish({ event: 'ach.update', objectId: achId, objectPath: achPath(achId) });
    return moved;
  });
}
