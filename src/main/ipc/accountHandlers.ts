/** Handlers of the `accounts` domain: the bank's accounts (live) and those with cached pending transactions. */
import type { Handlers } from './handlerTypes.ts';
import { clockOf, ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

export function createAccountHandlers(services: LedgerHandlerServices): Pick<Handlers, 'accounts'> {
  const now = clockOf(services);
  return {
    accounts: {
      list: async ({ profileId }) => {
        const ledger = ledgerOf(services);
        const profile = ledger.profiles.find(profileId);
        const rows = await ledger.clients.clientFor(profile.id).listAccounts();
        const asOf = now().toISOString();
        // Kept: every screen names an account from the cache, offline too (issue 38).
        ledger.cache.transaction(() => {
          ledger.cache.accounts.write(profile.id, rows, asOf);
        });
        return { rows, asOf, source: 'bank' as const };
      },
      cached: ({ profileId }) => {
        const ledger = ledgerOf(services);
        return {
          accountIds: ledger.cache.pendingTransactions.accounts(ledger.profiles.find(profileId).id),
          source: 'cache' as const,
        };
      },
    },
  };
}
