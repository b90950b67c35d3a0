/**
 * One webhook's deliveries over the last 24 hours (issue 27, item 6): the share delivered, the
 * retries, the notifications still being retried and when the next try comes after, the latest
 * attempt, and a link to its send log. The figures come from main (webhookDeliveries.stats).
 */
import type { WebhookDeliveryStats } from '../../../../shared/ipc/index.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { successRateOf } from './deliveryStatsStore.ts';
import { showSendLogOf } from './showSendLog.ts';
import './deliveryFigures.css';

function plural(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** The clock time for an attempt of today (UTC, as the send log shows), the whole timestamp otherwise. */
function whenOf(at: string): string {
  const full = formatTimestamp(at);
  return at.slice(0, 10) === new Date().toISOString().slice(0, 10) ? full.slice(11) : full;
}

const BACKOFF_UNPUBLISHED =
  'The bank retries on a backoff it does not publish: the next try comes after the last one shown.';

export function DeliveryFigures({
  profileId,
  webhookId,
  stats,
}: {
  profileId: string | null;
  webhookId: string;
  stats: WebhookDeliveryStats | undefined;
}) {
  const rate = stats === undefined ? null : successRateOf(stats);
  return (
    <div className="delivery-figures">
      {stats === undefined ? (
        <span className="faint">No send log figures yet</span>
      ) : (
        <>
          <span>
            {rate === null ? (
              <span className="faint">No attempt in 24 h</span>
            ) : (
              <>
                <strong>{rate}</strong> delivered{' '}
                <span className="muted">
                  ({stats.delivered.toLocaleString('en-US')} of {plural(stats.attempts, 'attempt', 'attempts')}, 24 h)
                </span>
              </>
            )}
          </span>
          {stats.attempts === 0 ? null : (
            <span className="muted">{plural(stats.retries, 'retry', 'retries')} in 24 h</span>
          )}
          {stats.retrying === 0 || stats.retryingSince === null ? null : (
            <span title={BACKOFF_UNPUBLISHED}>
              <Badge tone="warning">{plural(stats.retrying, 'notification', 'notifications')} retrying</Badge> next try
              after {formatTimestamp(stats.retryingSince)}
            </span>
          )}
          {stats.lastAttempt === null ? null : (
            <span className="faint">
              Last attempt {stats.lastAttempt.status} at {whenOf(stats.lastAttempt.at)}
              {stats.lastAttempt.attemptNumber > 0 ? ` (retry ${String(stats.lastAttempt.attemptNumber)})` : ''}
            </span>
          )}
        </>
      )}
      {profileId === null ? null : (
        <span>
          <Button
            size="sm"
            variant="ghost"
            className="delivery-send-log"
            aria-label={`Send log of webhook ${webhookId}`}
            onClick={() => {
              showSendLogOf(profileId, webhookId);
            }}
          >
            Send log →
          </Button>
        </span>
      )}
    </div>
  );
}
