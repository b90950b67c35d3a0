/** Handlers of the `screening` domain: Settings → Screening (the same as `ledger screening lists|run`). */
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

export function createScreeningHandlers(services: LedgerHandlerServices): Pick<Handlers, 'screening'> {
  return {
    screening: {
      lists: () => ({ lists: ledgerOf(services).screening.lists() }),
      run: ({ profileId, threshold }) => {
        const ledger = ledgerOf(services);
        return ledger.screening.screen(ledger.profiles.find(profileId).id, threshold);
      },
    },
  };
}
