/**
 * Handlers of the `overview` domain: the Overview screen's figures, computed by SQL in main
 * from the offline cache (services/overview/overviewFigures.ts); only the aggregates cross
 * to the window.
 */
import type { LedgerServices } from '../services/ledgerServices.ts';
import { OverviewFigures } from '../services/overview/overviewFigures.ts';
import { OVERVIEW_MAX_CHOSEN_DAYS } from '../../shared/ipc/domains/overview.ts';
import { ItemNamer } from '../services/names/itemNamer.ts';
import type { Handlers } from './handlerTypes.ts';
import { IpcFailure } from './serviceErrors.ts';
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

/** How many dates a window holds, both ends included. */
function datesIn(window: { from: string; to: string }): number {
  return Math.round((Date.parse(`${window.to}T00:00:00Z`) - Date.parse(`${window.from}T00:00:00Z`)) / 86_400_000) + 1;
}

export function createOverviewHandlers(services: LedgerHandlerServices): Pick<Handlers, 'overview'> {
  return {
    overview: {
      get: (input) => {
        const ledger = ledgerOf(services);
        const profile = ledger.profiles.find(input.profileId);
        const window = input.pendingWindow;
        if (window !== undefined && datesIn(window) > OVERVIEW_MAX_CHOSEN_DAYS) {
          throw new IpcFailure(
            'invalid_input',
            `Choose at most ${String(OVERVIEW_MAX_CHOSEN_DAYS)} days for the volume by day (${window.from} to ${window.to} is ${String(datesIn(window))}).`,
            { field: 'pendingWindow' },
          );
        }
        const data = figuresOf(ledger).read(profile.id, new Date(), window);
        // Names first: each account as the cache names it (issue 38).
        const names = new ItemNamer(ledger.cache).accounts(profile.id);
        return {
          ...data,
          pendingByAccount: data.pendingByAccount.map((account) => ({
            ...account,
            name: names.get(account.accountId) ?? null,
          })),
          accountNames: [...names.values()],
        };
      },
    },
  };
}
