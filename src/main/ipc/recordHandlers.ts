/**
 * Handlers of the `record` domain: Settings → Record (the same as `ledger record
 * retention|hold|purge|backup|backups`). The backups are listed and a restore asked for even when
 * the record did not open (a damaged file): they need the record's key, not the record.
 */
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';
import { listBackups, verifyBackup } from '../services/record/recordBackup.ts';
import { currentRecordOf, requestRestoreAtStart, restoreRequested } from '../services/record/recordBackupRestore.ts';

async function backupsOf(services: LedgerHandlerServices) {
  const credentials = services.recordCredentials?.() ?? ledgerOf(services).credentials;
  const folder = services.app.dataFolder;
  const expected = currentRecordOf(folder).recordId;
  const backups = [];
  for (const backup of listBackups(folder)) {
    const verdict = await verifyBackup(backup.file, credentials, expected);
    backups.push({
      name: backup.name,
      madeAt: backup.madeAt.toISOString(),
      bytes: backup.bytes,
      verified: verdict.ok,
      why: verdict.ok ? null : verdict.why,
    });
  }
  return { backups, restoreAtNextStart: restoreRequested(folder) };
}

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
      backups: () => backupsOf(services),
      backupNow: async () => {
        const made = await ledgerOf(services).backupRecord();
        return { name: made.name, madeAt: made.madeAt.toISOString(), bytes: made.bytes, verified: true, why: null };
      },
      restoreBackup: async ({ name }) => {
        const credentials = services.recordCredentials?.() ?? ledgerOf(services).credentials;
        // A backup that does not verify is a RecordError ('invalid'), mapped in serviceErrors.ts.
        await requestRestoreAtStart(services.app.dataFolder, name, credentials);
        return backupsOf(services);
      },
    },
  };
}
