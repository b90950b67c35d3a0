/**
 * Handlers of the `webhookSends` domain: the cached send log, paged and counted with reviews,
 * and grouped by notification (webhook, object, event).
 */
import type { WebhookSendStatus } from '../../shared/bank/index.ts';
import { notificationRef, type ReviewFilter } from '../../shared/review/reviewTerms.ts';
import type { WebhookSendQuery, WebhookSendSort } from '../services/cache/webhookSendsTable.ts';
import { withReviews } from '../services/review/reviewColumn.ts';
import type { Handlers } from './handlerTypes.ts';
import { direction, ledgerOf, searchOf, type LedgerHandlerServices } from './ledgerAccess.ts';

function sendSort(
  sortBy: 'created_at' | 'attempt_number' | undefined,
  sortDirection: 'asc' | 'desc' | undefined,
): WebhookSendSort {
  if (sortBy === 'attempt_number') return sortDirection === 'asc' ? 'lowest-attempt' : 'highest-attempt';
  return direction(sortDirection);
}

/** The filter of the send log, shared by list, count, groups and export. */
export function sendFilterOf(input: {
  profileId: string;
  webhookId?: string | undefined;
  objectId?: string | undefined;
  status?: WebhookSendStatus | undefined;
  event?: string | undefined;
  willRetry?: boolean | undefined;
  fromDate?: string | undefined;
  toDate?: string | undefined;
  search?: string | undefined;
  review?: ReviewFilter | undefined;
}): WebhookSendQuery {
  return {
    profileId: input.profileId,
    ...(input.webhookId === undefined ? {} : { webhookId: input.webhookId }),
    ...(input.objectId === undefined ? {} : { objectId: input.objectId }),
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.event === undefined ? {} : { event: input.event }),
    ...(input.willRetry === undefined ? {} : { willRetry: input.willRetry }),
    ...(input.fromDate === undefined ? {} : { fromDate: input.fromDate }),
    ...(input.toDate === undefined ? {} : { toDate: input.toDate }),
    ...(input.review === undefined ? {} : { review: input.review }),
    ...searchOf(input.search),
  };
}

export function createWebhookSendHandlers(services: LedgerHandlerServices): Pick<Handlers, 'webhookSends'> {
  return {
    webhookSends: {
      list: (input) => {
        const ledger = ledgerOf(services);
        const page = ledger.cache.webhookSends.list({
          ...sendFilterOf(input),
          sort: sendSort(input.sortBy, input.sortDirection),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        return {
          ...page,
          rows: withReviews(ledger.reviews, input.profileId, 'webhook-send', page.rows, (row) => row.id),
        };
      },
      count: (input) => {
        const query = sendFilterOf(input);
        const table = ledgerOf(services).cache.webhookSends;
        return { count: table.count(query), asOf: table.asOf(query) };
      },
      groups: (input) => {
        const ledger = ledgerOf(services);
        const page = ledger.cache.webhookSends.groups({
          ...sendFilterOf({ ...input, review: undefined }),
          ...(input.review === undefined ? {} : { notificationReview: input.review }),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        const rows = withReviews(ledger.reviews, input.profileId, 'webhook-send', page.rows, (group) =>
          notificationRef(group.webhookId, group.objectId, group.event),
        );
        return { ...page, rows };
      },
    },
  };
}
