/**
 * What a read of the cached send log asks for: shared by the table (webhookSendsTable.ts), its
 * filters (webhookSendFilters.ts) and its notification groups (webhookSendGroups.ts), so none of
 * them imports another for these shapes.
 */
import type { WebhookSendStatus } from '../../../shared/bank/index.ts';
import type { ReviewSelection } from './reviewFilterSql.ts';

/** By time, or by attempt number (then time): `highest-attempt` shows the most retried first. */
export const WEBHOOK_SEND_SORTS = ['newest', 'oldest', 'highest-attempt', 'lowest-attempt'] as const;
export type WebhookSendSort = (typeof WEBHOOK_SEND_SORTS)[number];

export interface WebhookSendQuery {
  profileId: string;
  webhookId?: string;
  status?: WebhookSendStatus;
  objectId?: string;
  event?: string;
  willRetry?: boolean;
  /**
   * Text in the object id, webhook id or event (clear columns), or in the error reason of a
   * failed attempt (sealed: opened only for sends in error status).
   */
  search?: string;
  /** YYYY-MM-DD, inclusive, on created_at. */
  fromDate?: string;
  /** YYYY-MM-DD, exclusive. */
  toDate?: string;
  /** The officer's review of each send: unreviewed, a state, or any (`reviewed`). */
  review?: ReviewSelection;
  /** For groups: the review of each notification (its ref is notificationRef's). */
  notificationReview?: ReviewSelection;
  sort?: WebhookSendSort;
  limit?: number;
  cursor?: string | null;
  withTotal?: boolean;
}

export type WebhookSendGroupQuery = Omit<WebhookSendQuery, 'sort' | 'withTotal'>;
