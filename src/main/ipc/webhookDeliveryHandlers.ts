/**
 * Handlers of the `webhookDeliveries` domain (issue 27, item 6): per webhook, how its deliveries
 * are going over the last 24 hours, from the cached send log (cache/webhookDeliveryStats.ts).
 * Both the Webhooks screen and the listener's registrations ask it.
 */
import { WEBHOOK_STATUSES, type WebhookStatus } from '../../shared/bank/index.ts';
import type { Handlers } from './handlerTypes.ts';
import { clockOf, ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A status the bank may one day add is not one of ours: shown as unknown (null), not refused. */
function webhookStatusOf(status: string | undefined): WebhookStatus | null {
  return WEBHOOK_STATUSES.find((known) => known === status) ?? null;
}

/** A bank timestamp (YYYY-MM-DDThh:mm:ssZ): the send log's created_at compares as text with it. */
function bankTimestampOf(date: Date): string {
  return date.toISOString().slice(0, 19) + 'Z';
}

export function createWebhookDeliveryHandlers(services: LedgerHandlerServices): Pick<Handlers, 'webhookDeliveries'> {
  const now = clockOf(services);
  return {
    webhookDeliveries: {
      stats: ({ profileId, webhookIds }) => {
        const ledger = ledgerOf(services);
        const profile = ledger.profiles.find(profileId);
        const since = bankTimestampOf(new Date(now().getTime() - DAY_MS));
        const table = ledger.cache.webhookSends;
        const statuses = ledger.cache.webhooks.statusesOf(profile.id, webhookIds);
        return {
          stats: table.deliveryFigures(profile.id, webhookIds, since).map((figures) => ({
            ...figures,
            webhookStatus: webhookStatusOf(statuses.get(figures.webhookId)),
          })),
          since,
          asOf: table.asOf({ profileId: profile.id }),
        };
      },
    },
  };
}
