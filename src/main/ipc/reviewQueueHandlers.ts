/**
 * Handlers of the `reviewQueue` domain: the officer's one queue across accounts and kinds
 * (services/review/reviewQueue.ts). An account the cache does not hold is an error naming the
 * ones it does, never an empty queue that reads as "nothing to do".
 */
import type { ParsedInputOf } from '../../shared/ipc/contract.ts';
import type { LedgerServices } from '../services/ledgerServices.ts';
import { ReviewQueue, type QueueFilter } from '../services/review/reviewQueue.ts';
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';
import { IpcFailure } from './serviceErrors.ts';

const queues = new WeakMap<LedgerServices, ReviewQueue>();

/** The queue of the running services (one per services, reusing its prepared statements). */
function reviewQueueOf(ledger: LedgerServices): ReviewQueue {
  let queue = queues.get(ledger);
  if (queue === undefined) {
    queue = new ReviewQueue(ledger.cache, ledger.reviews);
    queues.set(ledger, queue);
  }
  return queue;
}

function filterOf(ledger: LedgerServices, input: ParsedInputOf<'reviewQueue', 'counts'>): QueueFilter {
  const profile = ledger.profiles.find(input.profileId);
  const queue = reviewQueueOf(ledger);
  if (input.accountId !== undefined && !queue.accounts(profile.id).includes(input.accountId)) {
    const known = queue.accounts(profile.id);
    throw new IpcFailure(
      'not_found',
      known.length === 0
        ? `No pending transactions of account ${input.accountId} are cached, and no account has any yet: sync an account first.`
        : `No pending transactions of account ${input.accountId} are cached. Cached accounts: ${known.join(', ')}.`,
      { field: 'accountId' },
    );
  }
  if (
    input.minAmountCents !== undefined &&
    input.maxAmountCents !== undefined &&
    input.minAmountCents > input.maxAmountCents
  ) {
    throw new IpcFailure('invalid_input', 'The smallest amount is larger than the largest: swap them.', {
      field: 'minAmountCents',
    });
  }
  return {
    profileId: profile.id,
    kind: input.kind,
    accountId: input.accountId,
    ruleName: input.ruleName,
    itemFrom: input.fromDate,
    itemTo: input.toDate,
    minAmountCents: input.minAmountCents,
    maxAmountCents: input.maxAmountCents,
  };
}

export function createReviewQueueHandlers(services: LedgerHandlerServices): Pick<Handlers, 'reviewQueue'> {
  return {
    reviewQueue: {
      counts: (input) => {
        const ledger = ledgerOf(services);
        return reviewQueueOf(ledger).counts(filterOf(ledger, input));
      },
      list: (input) => {
        const ledger = ledgerOf(services);
        return reviewQueueOf(ledger).list({
          ...filterOf(ledger, input),
          state: input.state,
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
      },
    },
  };
}
