/** Handlers of the `webhooks` domain: the cached subscriptions (searchable) and the writes to them. */
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

export function createWebhookHandlers(services: LedgerHandlerServices): Pick<Handlers, 'webhooks'> {
  const ledger = () => ledgerOf(services);
  return {
    webhooks: {
      list: (input) => {
        const page = ledger().cache.webhooks.list({
          profileId: input.profileId,
          ...(input.status === undefined ? {} : { status: input.status }),
          ...(input.event === undefined ? {} : { event: input.event }),
        });
        const words = (input.search ?? '').trim().toLowerCase();
        const rows =
          words === ''
            ? page.rows
            : page.rows.filter((row) =>
                [row.event, row.url]
                  .filter((text) => typeof text === 'string')
                  .join(' ')
                  .toLowerCase()
                  .includes(words),
              );
        return { ...page, rows };
      },
      create: ({ profileId, request, confirmProduction, allowHttp }) =>
        ledger().writes.createWebhook(profileId, request, {
          confirmProduction: confirmProduction === true,
          allowHttp: allowHttp === true,
        }),
      update: ({ profileId, id, changes, confirmProduction, allowHttp }) =>
        ledger().writes.updateWebhook(profileId, id, changes, {
          confirmProduction: confirmProduction === true,
          allowHttp: allowHttp === true,
        }),
      delete: async ({ profileId, id, confirmProduction }) => {
        await ledger().writes.deleteWebhook(profileId, id, { confirmProduction: confirmProduction === true });
        return { deleted: true as const, id };
      },
    },
  };
}
