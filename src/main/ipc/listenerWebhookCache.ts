/**
 * The listener's registrations in the offline cache (issue 27, item 6): a webhook the listener
 * registers at the bank is kept in the cached webhook list at once, and one it removes is
 * dropped, so the Webhooks screen shows it without waiting for the next sync (it said "No
 * webhooks" right after a registration). The next complete sync of the list settles both.
 */
import type { WebhookResponse } from '../../shared/bank/index.ts';
import type { Handlers } from './handlerTypes.ts';
import type { LedgerHandlerServices } from './ledgerAccess.ts';

type ListenerOperations = Handlers['listener'];

export function withRegistrationsCached(
  listener: ListenerOperations,
  services: Pick<LedgerHandlerServices, 'ledger'>,
): ListenerOperations {
  const keep = (profileId: string, webhooks: readonly WebhookResponse[]): void => {
    const cache = services.ledger?.cache;
    if (cache === undefined || webhooks.length === 0) return;
    cache.transaction(() => {
      // Generation of the last list sync: a later complete sync keeps it only if the bank does.
      const generation = cache.checkpoints.get(profileId, 'webhooks', `webhooks/${profileId}`)?.generation ?? 0;
      cache.webhooks.write(profileId, webhooks, generation);
    });
  };
  return {
    ...listener,
    register: async (input, context) => {
      const answer = await listener.register(input, context);
      keep(input.profileId, answer.webhooks);
      return answer;
    },
    unregister: async (input, context) => {
      const answer = await listener.unregister(input, context);
      const cache = services.ledger?.cache;
      cache?.transaction(() => {
        cache.webhooks.remove(input.profileId, answer.id);
      });
      return answer;
    },
  };
}
