/** Handlers of the `app` domain: who the app is, and whether a profile's bank answers. */
import type { OnlineStatus } from '../../shared/ipc/domains/app.ts';
import type { ConnectivityState } from '../services/sync/connectivity.ts';
import type { Handlers } from './handlerTypes.ts';
import { clockOf, ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

export function toOnlineStatus(profileId: string, state: ConnectivityState, now: Date): OnlineStatus {
  const nextCheck =
    state.nextCheckAt === null ? null : Math.max(0, (Date.parse(state.nextCheckAt) - now.getTime()) / 1000);
  return {
    profileId,
    state: state.status,
    checkedAt: state.since,
    reason: state.reason,
    nextCheckSeconds: nextCheck === null || Number.isNaN(nextCheck) ? null : Math.round(nextCheck),
  };
}

export function createAppHandlers(services: LedgerHandlerServices): Pick<Handlers, 'app'> {
  const now = clockOf(services);
  return {
    app: {
      info: () => ({ ...services.app, sandboxUrl: services.sandboxUrl() }),
      storeProblems: () => ({
        problems:
          services.ledger === null
            ? [
                {
                  store:
                    services.ledgerProblem?.startsWith("The officer's record") === true
                      ? "The officer's record"
                      : 'The offline cache',
                  severity: 'error' as const,
                  sentence: services.ledgerProblem ?? 'The offline cache and bank services are not running.',
                },
              ]
            : services.ledger.storeProblems(),
      }),
      onlineStatus: ({ profileId }) => {
        const ledger = ledgerOf(services);
        const profile = ledger.profiles.find(profileId);
        return toOnlineStatus(profile.id, ledger.clients.connectivityOf(profile.id).state, now());
      },
    },
  };
}
