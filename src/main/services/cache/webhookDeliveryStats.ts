/**
 * Per webhook, how its deliveries are going, from the cached send log (issue 27, item 6): the
 * latest attempt, the attempts of a window (by default the last 24 hours) and how many were
 * delivered or retries, and the notifications the bank is still retrying. Each figure is one
 * SQL aggregate along the (profile, webhook, time) index, so a webhook with 200,000 attempts
 * costs its window, not its history, and the window gets numbers, never the attempts.
 */
import type { WebhookSendStatus } from '../../../shared/bank/index.ts';
import type { Statements } from './statements.ts';

export interface WebhookDeliveryFigures {
  webhookId: string;
  lastAttempt: { at: string; status: WebhookSendStatus; attemptNumber: number; willRetry: boolean } | null;
  attempts: number;
  delivered: number;
  retries: number;
  retrying: number;
  retryingSince: string | null;
}

const WINDOW = `SELECT COUNT(*) AS attempts,
    COALESCE(SUM(status = 'sent'), 0) AS delivered,
    COALESCE(SUM(attempt_number > 0), 0) AS retries
  FROM webhook_sends INDEXED BY webhook_sends_by_webhook
  WHERE profile_id = ? AND webhook_id = ? AND created_at >= ?`;

const LATEST = `SELECT created_at, status, attempt_number, will_retry
  FROM webhook_sends INDEXED BY webhook_sends_by_webhook
  WHERE profile_id = ? AND webhook_id = ?
  ORDER BY created_at DESC, attempt_number DESC, send_id DESC LIMIT 1`;

// A notification is still being retried when its latest attempt says another is scheduled:
// an attempt that says so, with no later attempt of the same notification.
const RETRYING = `SELECT COUNT(*) AS retrying, MIN(created_at) AS since
  FROM webhook_sends AS attempt
  WHERE attempt.profile_id = ? AND attempt.webhook_id = ? AND attempt.will_retry = 1
    AND NOT EXISTS (
      SELECT 1 FROM webhook_sends AS later INDEXED BY webhook_sends_by_object
      WHERE later.profile_id = attempt.profile_id AND later.object_id = attempt.object_id
        AND later.webhook_id = attempt.webhook_id AND later.event IS attempt.event
        AND (later.created_at, later.attempt_number, later.send_id)
          > (attempt.created_at, attempt.attempt_number, attempt.send_id))`;

/** The figures of each webhook asked for, in the order asked; `since` is a bank timestamp. */
export function readDeliveryFigures(
  statements: Statements,
  profileId: string,
  webhookIds: readonly string[],
  since: string,
): WebhookDeliveryFigures[] {
  const window = statements.get(WINDOW);
  const latest = statements.get(LATEST);
  const retrying = statements.get(RETRYING);
  return [...new Set(webhookIds)].map((webhookId) => {
    const counted = window.get(profileId, webhookId, since) as { attempts: number; delivered: number; retries: number };
    const last = latest.get(profileId, webhookId) as
      { created_at: string; status: WebhookSendStatus; attempt_number: number; will_retry: number } | undefined;
    const pending = retrying.get(profileId, webhookId) as { retrying: number; since: string | null };
    return {
      webhookId,
      lastAttempt:
        last === undefined
          ? null
          : {
              at: last.created_at,
              status: last.status,
              attemptNumber: last.attempt_number,
              willRetry: last.will_retry === 1,
            },
      attempts: counted.attempts,
      delivered: counted.delivered,
      retries: counted.retries,
      retrying: pending.retrying,
      retryingSince: pending.since,
    };
  });
}
