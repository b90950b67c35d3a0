/**
 * The send log grouped by notification (webhook, object, event), the most recently attempted
 * first, without grouping the whole log for every page. The attempts are walked newest first
 * along the time index; an attempt heads a group on this page when it is its notification's
 * latest (one probe of the object index, for the first attempt of each notification met),
 * and the walk stops as soon as the page is full. A page costs about its groups times their
 * attempts, where grouping the log in SQL (a window over every attempt) cost the size of the
 * log: 0.8 s a page at 200,000 attempts.
 *
 * Row filters narrow the attempts that count (a group's latest is its latest matching one);
 * `willRetry` applies to each group's latest attempt (is the bank still retrying it?).
 */
import type { WebhookSendStatus } from '../../../shared/bank/index.ts';
import type { Statements } from './statements.ts';
import { webhookSendFilters, willRetryClause } from './webhookSendFilters.ts';
import type { WebhookSendGroupQuery } from './webhookSendQuery.ts';

/** A group's latest attempt, where the walk met it, with the group's totals. */
export interface GroupHead {
  webhookId: string;
  objectId: string;
  event: string | null;
  status: WebhookSendStatus;
  willRetry: boolean;
  sendId: string;
  lastAttemptAt: string;
  attemptNumber: number;
  attempts: number;
  firstAttemptAt: string;
}

/** Where the previous page stopped: its last head's time, attempt number and send id. */
export type GroupPosition = [createdAt: string, attemptNumber: number, sendId: string];

interface AttemptRow {
  webhook_id: string;
  object_id: string;
  event: string | null;
  status: WebhookSendStatus;
  will_retry: number;
  send_id: string;
  created_at: string;
  attempt_number: number;
}

const NEWEST_FIRST = 'ORDER BY created_at DESC, attempt_number DESC, send_id DESC';
/** The attempts of one notification: the object index narrows them to a handful. */
const SAME_NOTIFICATION = 'object_id = ? AND webhook_id = ? AND event IS ?';

/** Up to `count` group heads after `after` (newest first). */
export function readGroupHeads(
  statements: Statements,
  query: WebhookSendGroupQuery,
  count: number,
  after: GroupPosition | null,
): GroupHead[] {
  const { where, parameters } = webhookSendFilters({ ...query, willRetry: undefined });
  const filter = where.join(' AND ');
  // With willRetry, only attempts that say so can head a group that qualifies: the walk skips
  // the others (through the partial index of retrying attempts, for willRetry true). A group
  // whose latest attempt says otherwise is met, if at all, at an older attempt, where the
  // probe finds the newer one and passes it by.
  const walked = query.willRetry === undefined ? filter : `${filter} AND ${willRetryClause(query.willRetry)}`;
  const walk = statements.get(
    `SELECT webhook_id, object_id, event, status, will_retry, send_id, created_at, attempt_number
     FROM webhook_sends WHERE ${walked}${after === null ? '' : ' AND (created_at, attempt_number, send_id) < (?, ?, ?)'}
     ${NEWEST_FIRST}`,
  );
  const newer = statements.get(
    `SELECT 1 FROM webhook_sends INDEXED BY webhook_sends_by_object
     WHERE ${filter} AND ${SAME_NOTIFICATION} AND (created_at, attempt_number, send_id) > (?, ?, ?) LIMIT 1`,
  );
  const totals = statements.get(
    `SELECT COUNT(*) AS attempts, MIN(created_at) AS first_at FROM webhook_sends INDEXED BY webhook_sends_by_object
     WHERE ${filter} AND ${SAME_NOTIFICATION}`,
  );
  const met = new Set<string>();
  const heads: GroupHead[] = [];
  const rows = walk.iterate(...parameters, ...(after ?? [])) as Iterator<AttemptRow>;
  try {
    for (let next = rows.next(); next.done !== true && heads.length < count; next = rows.next()) {
      const row = next.value;
      const key = JSON.stringify([row.webhook_id, row.object_id, row.event]);
      // A notification's later attempts (older, further along the walk) are never heads.
      if (met.has(key)) continue;
      met.add(key);
      const notification = [row.object_id, row.webhook_id, row.event] as const;
      // Met first here, it is the latest unless the notification has a newer attempt, which
      // then was a head on an earlier page.
      if (newer.get(...parameters, ...notification, row.created_at, row.attempt_number, row.send_id) !== undefined) {
        continue;
      }
      const total = totals.get(...parameters, ...notification) as { attempts: number; first_at: string };
      heads.push({
        webhookId: row.webhook_id,
        objectId: row.object_id,
        event: row.event,
        status: row.status,
        willRetry: row.will_retry === 1,
        sendId: row.send_id,
        lastAttemptAt: row.created_at,
        attemptNumber: row.attempt_number,
        attempts: total.attempts,
        firstAttemptAt: total.first_at,
      });
    }
  } finally {
    // Stopped early: release the statement so the connection can write again.
    rows.return?.();
  }
  return heads;
}
