/**
 * listener.reach (issue 27, item 6): for each notification a trigger caused, whether it reached
 * the app's listener. Received: the newest request the listener kept with the same event and
 * object id since the trigger began, with its verdict. Not received: whether any enabled
 * webhook is subscribed to the event (the cached webhook list, which a registration updates at
 * once, and the listener's own registrations), and whether one of them posts to this listener,
 * so the window can say "not yet" apart from "no webhook subscribed".
 */
import type { NotificationReach } from '../../shared/ipc/domains/listener.ts';
import type { Handler } from './handlerTypes.ts';
import type { ListenerHandlerServices } from './listenerHandlers.ts';
import type { LedgerHandlerServices } from './ledgerAccess.ts';
import { IpcFailure } from './serviceErrors.ts';

export function createListenerReach(
  services: Pick<ListenerHandlerServices, 'listener' | 'listenerProblem'> & Pick<LedgerHandlerServices, 'ledger'>,
): Handler<'listener', 'reach'> {
  return ({ profileId, since, notifications }) => {
    const listener = services.listener;
    if (listener === null) {
      throw new IpcFailure('not_available', services.listenerProblem ?? 'The webhook listener is not running.');
    }
    const cached = services.ledger?.cache.webhooks.list({ profileId, status: 'enabled' }).rows ?? [];
    const listenerUrl = listener.state.url;
    const registrations = listener.registrations;
    const sinceMs = Date.parse(since);
    const answers: NotificationReach[] = notifications.map(({ event, objectId }) => {
      const registered = registrations.filter((registration) => registration.event === event);
      const subscribed = cached.filter((webhook) => webhook.event === event);
      const postingHere = subscribed.filter(
        (webhook) =>
          registered.some((registration) => registration.webhookId === webhook.id) ||
          (listenerUrl !== null && (webhook.url ?? '').startsWith(listenerUrl)),
      );
      // A registration the cached list does not have yet (another profile's sync) still counts.
      const toListener = Math.max(postingHere.length, registered.length);
      const received = listener.requests({ event, objectId, since: sinceMs, limit: 1 })[0];
      const base = {
        event,
        objectId,
        subscribed: Math.max(subscribed.length, toListener),
        toListener,
      };
      if (received !== undefined) {
        return {
          ...base,
          state: 'reached',
          requestId: String(received.id),
          receivedAt: received.receivedAt,
          verdict: received.verdict,
        };
      }
      return {
        ...base,
        state: toListener > 0 ? 'not_yet' : subscribed.length > 0 ? 'not_to_listener' : 'no_webhook',
        requestId: null,
        receivedAt: null,
        verdict: null,
      };
    });
    return { notifications: answers };
  };
}
