/** Handlers of the `record` domain: Settings → Record (the same as `ledger record retention|hold|purge`). */
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';

export function createRecordHandlers(services: LedgerHandlerServices): Pick<Handlers, 'record'> {
  const retentionOf = (profileId: string) => {
    const ledger = ledgerOf(services);
    const profile = ledger.profiles.find(profileId);
    return { years: ledger.retention.years(profile.id), hold: ledger.retention.hold() };
  };
  return {
    record: {
      retention: ({ profileId }) => retentionOf(profileId),
      setRetention: async ({ profileId, years }) => {
        await ledgerOf(services).setRetention(profileId, years);
        return retentionOf(profileId);
      },
      placeHold: ({ reason }) => ledgerOf(services).placeLegalHold(reason),
      liftHold: async () => ({ lifted: await ledgerOf(services).liftLegalHold() }),
      purge: ({ profileId }) => ledgerOf(services).purgeExpired(profileId),
    },
  };
}
