/**
 * The WHERE of a webhook-send read, from its named filters: clear columns compared in SQL,
 * and for a text search the sealed error reason opened only for attempts in error.
 */
import { reviewClause } from './reviewFilterSql.ts';
import { foldText, SEALED_MATCHES_FUNCTION } from './sealedSearch.ts';
import type { WebhookSendQuery } from './webhookSendQuery.ts';

export interface SendFilters {
  where: string[];
  parameters: (string | number | null)[];
}

/**
 * A literal, not a parameter: only then can SQLite use the partial index of retrying attempts
 * (migration 7), which makes "still retrying" fast in a log of mostly delivered ones.
 */
export function willRetryClause(willRetry: boolean): string {
  return willRetry ? 'will_retry = 1' : 'will_retry = 0';
}

export function webhookSendFilters(query: WebhookSendQuery): SendFilters {
  const where = ['profile_id = ?'];
  const parameters: (string | number | null)[] = [query.profileId];
  const equal: [string, string | undefined][] = [
    ['webhook_id', query.webhookId],
    ['status', query.status],
    ['object_id', query.objectId],
    ['event', query.event],
  ];
  for (const [column, value] of equal) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    parameters.push(value);
  }
  if (query.fromDate !== undefined) {
    where.push('created_at >= ?');
    parameters.push(query.fromDate);
  }
  if (query.toDate !== undefined) {
    where.push('created_at < ?');
    parameters.push(query.toDate);
  }
  if (query.willRetry !== undefined) where.push(willRetryClause(query.willRetry));
  const needle = foldText(query.search?.trim() ?? '');
  if (needle !== '') {
    // Clear columns first; the sealed error reason only for failed attempts (few), so a
    // search never opens the whole log.
    where.push(
      `(instr(lower(object_id), ?) > 0 OR instr(lower(webhook_id), ?) > 0 OR instr(lower(COALESCE(event, '')), ?) > 0
        OR (status = 'error' AND ${SEALED_MATCHES_FUNCTION}('webhook_send', profile_id, send_id, body, ?)))`,
    );
    parameters.push(needle, needle, needle, needle);
  }
  if (query.review !== undefined) {
    const review = reviewClause(query.profileId, 'webhook-send', query.review, 'webhook_sends.send_id');
    where.push(review.clause);
    parameters.push(...review.parameters);
  }
  if (query.notificationReview !== undefined) {
    // The review of the notification the attempt belongs to (reviewTerms.ts notificationRef):
    // every attempt of one notification has the same, so a group is kept or left whole.
    const review = reviewClause(
      query.profileId,
      'webhook-send',
      query.notificationReview,
      "('notification/' || webhook_sends.webhook_id || '/' || webhook_sends.object_id || '/' || COALESCE(webhook_sends.event, ''))",
    );
    where.push(review.clause);
    parameters.push(...review.parameters);
  }
  return { where, parameters };
}
