/**
 * Handlers of the `record` domain: Settings → Record (the same as `ledger record
 * retention|hold|purge|export|backup|backups` and `ledger audit verify --archive`). The backups
 * are listed and a restore asked for even when the record did not open (a damaged file): they
 * need the record's key, not the record.
 */
import { isAbsolute } from 'node:path';
import { recoveryPublicKeyOf } from '../services/credentials/recoveryEscrow.ts';
import {
  auditArchiveExport,
  exportRecordArchive,
  recordSigningFingerprint,
} from '../services/record/recordArchiveExport.ts';
import { verifyArchiveFile } from '../services/record/recordArchiveVerify.ts';
import type { Handlers } from './handlerTypes.ts';
import { clockOf, ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';
import { IpcFailure } from './serviceErrors.ts';
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
      signingKey: async () => {
        const ledger = ledgerOf(services);
        const recordId = ledger.record.recordId;
        return { fingerprint: recordId === null ? null : await recordSigningFingerprint(ledger.credentials, recordId) };
      },
      exportArchive: async ({ profileId, passphrase }) => {
        const ledger = ledgerOf(services);
        if (passphrase !== undefined) services.rememberSecret?.(passphrase);
        const only = profileId === undefined ? null : ledger.profiles.find(profileId);
        const stamp = clockOf(services)().toISOString().slice(0, 19).replaceAll(':', '-');
        const path = await services.chooseSavePath(`ledgerdesk-record-${stamp}.ledgerarchive`);
        if (path === null) return { saved: false, path: null, counts: null, fingerprint: null };
        const exported = await exportRecordArchive({
          record: ledger.record,
          credentials: ledger.credentials,
          profiles: ledger.profiles.list(),
          only,
          recoveryPublicKey: recoveryPublicKeyOf(services.app.dataFolder),
          passphrase: passphrase ?? null,
          liveVerify: await ledger.cache.audit.verify(),
          file: path,
        });
        auditArchiveExport(ledger.cache.audit, ledger.record, only, exported);
        return { saved: true, path: exported.file, counts: exported.counts, fingerprint: exported.fingerprint };
      },
      verifyArchive: ({ path }) => {
        if (!isAbsolute(path)) {
          throw new IpcFailure('invalid_input', `Give the archive's full path (${path} is relative).`, {
            field: 'path',
          });
        }
        const { verification } = verifyArchiveFile(path);
        return {
          ok: verification.ok,
          file: verification.file,
          fingerprint: verification.fingerprint,
          madeAt: verification.madeAt,
          profiles: verification.profiles,
          counts: verification.counts,
          auditHead: verification.auditHead,
          problem: verification.problem?.message ?? null,
          notes: verification.notes,
        };
      },
      backups: () => backupsOf(services),
      backupNow: async () => {
        const made = await ledgerOf(services).backupRecord();
        return { name: made.name, madeAt: made.madeAt.toISOString(), bytes: made.bytes, verified: true, why: null };
      },
      restoreBackup: async ({ name }) => {
        const credentials = services.recordCredentials?.() ?? ledgerOf(services).credentials;
        // A backup that does not verify is a RecordError ('invalid'): its answer says invalid_input.
        await requestRestoreAtStart(services.app.dataFolder, name, credentials);
        return backupsOf(services);
      },
    },
  };
}
