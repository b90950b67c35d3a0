/** Handlers of the `cache` domain: the encrypted cache's size and state, and clearing a profile's data. */
import { stat } from 'node:fs/promises';
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

export function createCacheHandlers(services: LedgerHandlerServices): Pick<Handlers, 'cache'> {
  return {
    cache: {
      info: async () => {
        const cache = ledgerOf(services).cache;
        const size = await stat(cache.file).then(
          (info) => info.size,
          () => 0,
        );
        return {
          sizeBytes: size,
          encrypted: true,
          message:
            cache.opened.messages.length === 0 ? 'The data key is in the keychain.' : cache.opened.messages.join(' '),
        };
      },
      clear: async ({ profileId }) => {
        const running = ledgerOf(services);
        const targets = profileId === undefined ? running.profiles.list() : [running.profiles.find(profileId)];
        for (const profile of targets) await running.clearCachedData(profile.id);
        return { cleared: true as const };
      },
    },
  };
}
