/**
 * Handlers of the `overview` domain: the Overview screen's figures, computed by SQL in main
 * from the offline cache (services/overview/overviewFigures.ts); only the aggregates cross
 * to the window.
 */
import type { LedgerServices } from '../services/ledgerServices.ts';
import { OverviewFigures } from '../services/overview/overviewFigures.ts';
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

const figures = new WeakMap<LedgerServices, OverviewFigures>();

/** One reader per services (its prepared statements live with the open cache). */
function figuresOf(ledger: LedgerServices): OverviewFigures {
  let reader = figures.get(ledger);
  if (reader === undefined) {
    reader = new OverviewFigures(ledger.cache.database);
    figures.set(ledger, reader);
  }
  return reader;
}

export function createOverviewHandlers(services: LedgerHandlerServices): Pick<Handlers, 'overview'> {
  return {
    overview: {
      get: (input) => {
        const ledger = ledgerOf(services);
        const profile = ledger.profiles.find(input.profileId);
        return figuresOf(ledger).read(profile.id);
      },
    },
  };
}
