/**
 * Delivers owed notifications (spec §6, §7) with a bounded pool, off the request path.
 *
 * Each due delivery is leased, posted, and its outcome recorded as a webhook_send in one
 * transaction that also reschedules it (a retry) or removes it (the event ended). 200/202 is
 * `sent`; anything else is `error`. A missing answer is always retried; an HTTP error status
 * only while Smart Webhook Retries is on. After WEBHOOK_MAX_RETRIES retries the event ends.
 * A webhook with `errorThreshold` failed attempts within `errorWindowMs` moves to `error`.
 */
import type { TrafficListener } from '../traffic.ts';
import { WEBHOOK_MAX_RETRIES, type Webhook } from '../../shared/bank/index.ts';
import { inTransaction, type Database } from '../store/database.ts';
import type { Delivery, DeliveryStore } from '../store/deliveryStore.ts';
import type { WebhookSendStore } from '../store/webhookSendStore.ts';
import type { DeliveryOutcome, NotificationPoster } from './postNotification.ts';
import { retryDelayMs } from './retrySchedule.ts';
import type { WebhookRegistry } from './webhookRegistry.ts';

export interface DispatcherSettings {
  concurrency: number;
  retryBaseMs: number;
  retryCapMs: number;
  errorThreshold: number;
  errorWindowMs: number;
  deliveryTimeoutMs: number;
  smartRetriesOn: () => boolean;
  /** The API's base URL now (it changes across restarts): notifications carry absolute URLs. */
  baseUrl: () => string;
  /** Told each attempt made (npm run sandbox prints them). */
  traffic?: TrafficListener;
}

export interface Dispatcher {
  start(): void;
  /** Look for due work soon (after the current call stack). */
  wake(): void;
  /**
   * Stops taking work and lets attempts in flight finish for up to `graceMs`; the rest are
   * abandoned unrecorded, so their lease is dropped and they are attempted again after a
   * restart. Whatever is owed stays persisted.
   */
  close(graceMs: number): Promise<void>;
  /** For tests and benchmarks: deliveries owed, and attempts in flight. */
  backlog(): { owed: number; inFlight: number };
}

/** The longest single sleep: re-check the queue at least this often. */
const MAX_SLEEP_MS = 60_000;

export function createDispatcher(
  database: Database,
  deliveries: DeliveryStore,
  sends: WebhookSendStore,
  webhooks: WebhookRegistry,
  poster: NotificationPoster,
  settings: DispatcherSettings,
): Dispatcher {
  const inFlight = new Set<Promise<void>>();
  let closing = false;
  let abandoned = false;
  let wakeScheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let timerDueMs = Number.POSITIVE_INFINITY;

  function wake(): void {
    if (closing || wakeScheduled) return;
    wakeScheduled = true;
    setImmediate(() => {
      wakeScheduled = false;
      pump();
    });
  }

  function sleepUntil(dueMs: number): void {
    if (dueMs >= timerDueMs) return;
    if (timer !== undefined) clearTimeout(timer);
    timerDueMs = dueMs;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerDueMs = Number.POSITIVE_INFINITY;
        pump();
      },
      Math.min(MAX_SLEEP_MS, Math.max(0, dueMs - Date.now())),
    );
    // The HTTP server keeps the process alive; a pending retry alone must not.
    timer.unref();
  }

  function pump(): void {
    if (closing) return;
    const free = settings.concurrency - inFlight.size;
    if (free > 0) {
      const due = inTransaction(database, () => deliveries.leaseDue(Date.now(), free));
      for (const delivery of due) {
        const attempt = attemptDelivery(delivery)
          .catch((error: unknown) => {
            // The row stays leased until the next start, which attempts it again: nothing is lost.
            process.stderr.write(
              `sandbox: recording a delivery failed: ${error instanceof Error ? error.message : String(error)}\n`,
            );
          })
          .finally(() => {
            inFlight.delete(attempt);
            wake();
          });
        inFlight.add(attempt);
      }
    }
    const next = deliveries.nextDueMs();
    if (next !== undefined && inFlight.size < settings.concurrency) sleepUntil(next);
  }

  async function attemptDelivery(delivery: Delivery): Promise<void> {
    const webhook = webhooks.get(delivery.webhookId);
    if (webhook?.status !== 'enabled') {
      // Left enabled (or was deleted) between scheduling and now: the event ends here.
      record(
        delivery,
        webhook,
        {
          kind: 'no_answer',
          reason: webhook === undefined ? 'webhook was deleted' : `webhook is ${webhook.status}`,
        },
        false,
      );
      return;
    }
    let outcome: DeliveryOutcome;
    try {
      outcome = await poster.post({
        url: webhook.url,
        notification: {
          event: delivery.event,
          op: delivery.operation as 'create' | 'update' | 'delete',
          id: delivery.objectId,
          url: settings.baseUrl() + delivery.objectPath,
        },
        basicCredentials: webhooks.basicCredentialsOf(webhook),
        timeoutMs: settings.deliveryTimeoutMs,
      });
    } catch (error) {
      outcome = {
        kind: 'no_answer',
        reason: `delivery failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    if (abandoned || !database.isOpen) return;
    record(delivery, webhooks.get(delivery.webhookId), outcome, true);
  }

  /** One traffic entry per attempt made (not for a delivery skipped without an attempt). */
  function told(
    delivery: Delivery,
    webhook: Webhook | undefined,
    outcome: DeliveryOutcome,
    atMs: number,
    nextAtMs: number | null,
  ): void {
    settings.traffic?.({
      kind: 'delivery',
      time: new Date(atMs).toISOString(),
      event: delivery.event,
      objectId: delivery.objectId,
      webhookId: delivery.webhookId,
      url: webhook?.url ?? '',
      status: outcome.kind === 'no_answer' ? null : outcome.status,
      result: outcome.kind === 'delivered' ? 'sent' : 'error',
      attempt: delivery.attemptNumber + 1,
      nextRetryAt: nextAtMs === null ? null : new Date(nextAtMs).toISOString(),
      error: outcome.kind === 'delivered' ? null : outcome.reason,
    });
  }

  function record(delivery: Delivery, webhook: Webhook | undefined, outcome: DeliveryOutcome, attempted: boolean) {
    const now = Date.now();
    inTransaction(database, () => {
      const base = {
        webhookId: delivery.webhookId,
        objectId: delivery.objectId,
        event: delivery.event,
        operation: delivery.operation,
        attemptNumber: delivery.attemptNumber,
        atMs: now,
      };
      if (outcome.kind === 'delivered') {
        sends.record({ ...base, status: 'sent', willRetry: false, error: null });
        deliveries.finish(delivery.id);
        if (attempted) told(delivery, webhook, outcome, now, null);
        return;
      }
      const stillEnabled = webhook?.status === 'enabled';
      const retryable = outcome.kind === 'no_answer' || settings.smartRetriesOn();
      const countFrom = Math.max(now - settings.errorWindowMs, webhooks.failuresCountedSinceMs(delivery.webhookId));
      const failures = attempted ? sends.failuresSince(delivery.webhookId, countFrom) + 1 : 0;
      const entersError = attempted && stillEnabled && failures >= settings.errorThreshold;
      const willRetry =
        attempted && stillEnabled && retryable && !entersError && delivery.attemptNumber < WEBHOOK_MAX_RETRIES;
      sends.record({ ...base, status: 'error', willRetry, error: outcome.reason });
      let nextAtMs: number | null = null;
      if (willRetry) {
        const delay = retryDelayMs(delivery.attemptNumber, settings.retryBaseMs, settings.retryCapMs, Math.random);
        nextAtMs = now + delay;
        deliveries.reschedule(delivery.id, delivery.attemptNumber + 1, nextAtMs);
      } else {
        deliveries.finish(delivery.id);
      }
      if (attempted) told(delivery, webhook, outcome, now, nextAtMs);
      if (entersError) {
        webhooks.moveToError(
          delivery.webhookId,
          `${String(failures)} failed deliveries within ${String(settings.errorWindowMs)} ms (threshold ${String(settings.errorThreshold)}); last: ${outcome.reason}`,
        );
      }
    });
  }

  return {
    start() {
      // Leases of a previous run were never answered: their attempts are made again.
      deliveries.releaseAllLeases();
      wake();
    },
    wake,
    async close(graceMs) {
      closing = true;
      if (timer !== undefined) clearTimeout(timer);
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...inFlight]),
        new Promise((resolve) => {
          graceTimer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(graceTimer);
      abandoned = true;
    },
    backlog: () => ({ owed: deliveries.pendingCount(), inFlight: inFlight.size }),
  };
}
