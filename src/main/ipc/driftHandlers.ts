/** Handlers of the `drift` domain: Settings → Bank compatibility (the same counts as `ledger drift`). */
import type { LedgerServices } from '../services/ledgerServices.ts';
import type { Handlers } from './handlerTypes.ts';
import { IpcFailure } from './serviceErrors.ts';

export interface DriftHandlerServices {
  ledger: LedgerServices | null;
  ledgerProblem: string | null;
}

export function createDriftHandlers(services: DriftHandlerServices): Pick<Handlers, 'drift'> {
  function ledger(): LedgerServices {
    if (services.ledger === null) {
      throw new IpcFailure('not_available', services.ledgerProblem ?? 'The offline cache is not running.');
    }
    return services.ledger;
  }

  return {
    drift: {
      report: ({ profileId }) => {
        const running = ledger();
        running.profiles.find(profileId);
        return running.drift.report(profileId);
      },
      reset: ({ profileId }) => {
        const running = ledger();
        running.profiles.find(profileId);
        running.drift.reset(profileId);
        return running.drift.report(profileId);
      },
    },
  };
}
