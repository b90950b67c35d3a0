/**
 * Turns a change to a resource into owed deliveries (spec §6.1-6.2): each webhook subscribed
 * to the event gets a delivery row if it is enabled, or a `skipped` send record if it is not
 * (notifications are issued only while enabled, spec §3.2). Called inside the transaction of
 * the change itself, so a change and its notifications are written together or not at all.
 */
import type { WebhookStatus } from '../../shared/bank/index.ts';
import type { DeliveryStore } from '../store/deliveryStore.ts';
import type { RecordStore } from '../store/records.ts';
import type { WebhookSendStore } from '../store/webhookSendStore.ts';

interface BankEvent {
  /** `<resource>.<op>`, e.g. ach.update. */
  event: string;
  objectId: string;
  /** The object's API address below the base URL, e.g. /ach/ach_123. */
  objectPath: string;
}

export interface EventPublisher {
  publish(change: BankEvent): void;
}

function operationOf(event: string): string {
  return event.slice(event.lastIndexOf('.') + 1);
}

export function createEventPublisher(
  records: RecordStore,
  deliveries: DeliveryStore,
  sends: WebhookSendStore,
  wakeDispatcher: () => void,
): EventPublisher {
  return {
    publish(change) {
      const now = Date.now();
      let owed = 0;
      for (const webhook of records.all('webhook')) {
        if (webhook.event !== change.event) continue;
        const webhookId = String(webhook.id);
        if ((webhook.status as WebhookStatus) === 'enabled') {
          deliveries.add({
            webhookId,
            event: change.event,
            operation: operationOf(change.event),
            objectId: change.objectId,
            objectPath: change.objectPath,
            attemptNumber: 0,
            dueMs: now,
          });
          owed += 1;
        } else {
          sends.record({
            webhookId,
            objectId: change.objectId,
            event: change.event,
            operation: operationOf(change.event),
            status: 'skipped',
            attemptNumber: 0,
            willRetry: false,
            error: null,
            atMs: now,
          });
        }
      }
      // The dispatcher runs after the current call stack, i.e. after the write commits and
      // the API answer is on its way: delivery never delays a response.
      if (owed > 0) wakeDispatcher();
    },
  };
}
