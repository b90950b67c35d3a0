/**
 * Webhooks as the API sees them (conventions.md "Webhooks"): create, update, delete, and the
 * service's own move to `error`. Every change emits its webhook.* event. Leaving `enabled`
 * ends the retries already scheduled (error, will_retry false), so no event is left open.
 */
import type { Webhook, WebhookCreateRequest, WebhookUpdateRequest } from '../../shared/bank/index.ts';
import { timestampOf } from '../../shared/bank/index.ts';
import { freshId } from '../random.ts';
import { RequestProblem } from '../requestProblem.ts';
import { inTransaction, type Database } from '../store/database.ts';
import type { DeliveryStore } from '../store/deliveryStore.ts';
import type { RecordStore } from '../store/records.ts';
import type { WebhookSecrets } from '../store/webhookSecrets.ts';
import type { WebhookSendStore } from '../store/webhookSendStore.ts';
import type { EventPublisher } from './eventPublisher.ts';

export interface WebhookRegistry {
  create(request: WebhookCreateRequest): Webhook;
  get(id: string): Webhook | undefined;
  update(id: string, request: WebhookUpdateRequest): Webhook | undefined;
  remove(id: string): boolean;
  /** The service's move to error after too many failures; `reason` becomes its error field. */
  moveToError(id: string, reason: string): void;
  /** Failed deliveries count toward the error threshold from this moment on (creation or last re-enable). */
  failuresCountedSinceMs(id: string): number;
  /** `base64(basic_user:basic_secret)` for the Authorization header, or null. */
  basicCredentialsOf(webhook: Webhook): string | null;
}

function webhookPath(id: string): string {
  return `/webhook/${id}`;
}

export function createWebhookRegistry(
  database: Database,
  records: RecordStore,
  deliveries: DeliveryStore,
  sends: WebhookSendStore,
  events: EventPublisher,
  /** Registrations' Basic secrets, sealed at rest (I7). */
  secrets: WebhookSecrets,
): WebhookRegistry {
  const resetHealth = database.prepare(
    'INSERT INTO webhook_health (webhook_id, failures_since_ms) VALUES (?, ?) ON CONFLICT (webhook_id) DO UPDATE SET failures_since_ms = excluded.failures_since_ms',
  );
  const readHealth = database.prepare('SELECT failures_since_ms FROM webhook_health WHERE webhook_id = ?');
  const dropHealth = database.prepare('DELETE FROM webhook_health WHERE webhook_id = ?');

  function get(id: string): Webhook | undefined {
    return records.read('webhook', id) as Webhook | undefined;
  }

  function endWaitingDeliveries(webhookId: string, reason: string): void {
    const now = Date.now();
    for (const delivery of deliveries.waitingFor(webhookId)) {
      sends.record({
        webhookId,
        objectId: delivery.objectId,
        event: delivery.event,
        operation: delivery.operation,
        status: 'error',
        attemptNumber: delivery.attemptNumber,
        willRetry: false,
        error: reason,
        atMs: now,
      });
      deliveries.finish(delivery.id);
    }
  }

  return {
    create(request) {
      const now = timestampOf(new Date());
      const webhook: Webhook = {
        id: freshId('webhook'),
        event: request.event,
        url: request.url,
        status: 'enabled',
        error: null,
        basic_user: request.basic_user ?? null,
        basic_secret: null,
        userdata: request.userdata ?? {},
        created_at: now,
        updated_at: now,
      };
      inTransaction(database, () => {
        records.insert('webhook', webhook.id, webhook.created_at, webhook);
        if (request.basic_secret !== undefined && request.basic_secret !== null) {
          secrets.write(webhook.id, request.basic_secret);
        }
        resetHealth.run(webhook.id, Date.now());
        events.publish({ event: 'webhook.create', objectId: webhook.id, objectPath: webhookPath(webhook.id) });
      });
      return webhook;
    },
    get,
    update(id, request) {
      return inTransaction(database, () => {
        const current = get(id);
        if (current === undefined) return undefined;
        const nextUser = request.basic_user === undefined ? current.basic_user : request.basic_user;
        const nextSecret = request.basic_secret === undefined ? secrets.read(id) : request.basic_secret;
        if ((nextUser === null) !== (nextSecret === null)) {
          throw new RequestProblem(
            400,
            'basic_user and basic_secret must be set together or cleared together (send both, or both as null).',
          );
        }
        const nextStatus = request.status ?? current.status;
        const updated: Webhook = {
          ...current,
          event: request.event ?? current.event,
          url: request.url ?? current.url,
          status: nextStatus,
          // Enabling resets an errored webhook (spec §3.2); the reason stays only while in error.
          error: nextStatus === 'error' ? current.error : null,
          basic_user: nextUser,
          basic_secret: null,
          userdata: request.userdata ?? current.userdata,
          updated_at: timestampOf(new Date()),
        };
        records.replace('webhook', id, updated);
        if (nextSecret === null) secrets.drop(id);
        else secrets.write(id, nextSecret);
        if (nextStatus !== 'enabled') endWaitingDeliveries(id, `webhook was ${nextStatus}; retry cancelled`);
        // Enabling resets the webhook: earlier failures no longer count toward the threshold.
        if (nextStatus === 'enabled' && current.status !== 'enabled') resetHealth.run(id, Date.now());
        events.publish({ event: 'webhook.update', objectId: id, objectPath: webhookPath(id) });
        return updated;
      });
    },
    remove(id) {
      return inTransaction(database, () => {
        if (!records.remove('webhook', id)) return false;
        secrets.drop(id);
        dropHealth.run(id);
        endWaitingDeliveries(id, 'webhook was deleted; retry cancelled');
        events.publish({ event: 'webhook.delete', objectId: id, objectPath: webhookPath(id) });
        return true;
      });
    },
    moveToError(id, reason) {
      inTransaction(database, () => {
        const current = get(id);
        if (current?.status !== 'enabled') return;
        records.replace('webhook', id, {
          ...current,
          status: 'error',
          error: reason,
          updated_at: timestampOf(new Date()),
        });
        endWaitingDeliveries(id, `webhook entered error status; retry cancelled (${reason})`);
        events.publish({ event: 'webhook.update', objectId: id, objectPath: webhookPath(id) });
      });
    },
    failuresCountedSinceMs(id) {
      const row = readHealth.get(id);
      return row === undefined ? 0 : Number(row.failures_since_ms);
    },
    basicCredentialsOf(webhook) {
      if (webhook.basic_user === null) return null;
      const secret = secrets.read(webhook.id);
      if (secret === null) return null;
      return Buffer.from(`${webhook.basic_user}:${secret}`).toString('base64');
    },
  };
}
