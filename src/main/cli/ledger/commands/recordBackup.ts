/**
 * Backups of the officer's record from the command line (issue 34, item 7):
 *   ledger record backup            a verified backup now, in <data folder>/backups (the newest 7 kept)
 *   ledger record backups           the backups, newest first: when, how big, whether each verifies
 *   ledger record restore BACKUP    put a backup in place of record.sqlite (the current file kept aside)
 * `record restore` runs only on a folder no Ledgerdesk has open (folderWriter.ts refuses it
 * otherwise); listing and verifying need no open record, so they work on a damaged one.
 */
import type { Credentials } from '../../../services/credentials/credentials.ts';
import { backupTimeText, listBackups, verifyBackup } from '../../../services/record/recordBackup.ts';
import { currentRecordOf, restoreBackup } from '../../../services/record/recordBackupRestore.ts';
import { UsageError } from '../../common/usageError.ts';
import type { CommandContext } from '../triggerCommand.ts';

export interface BackupContext extends CommandContext {
  /** The keychain's (or key file's) view of the record's key, without opening the record. */
  credentials(): Promise<Credentials>;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${String(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export async function recordBackupNow(context: CommandContext): Promise<number> {
  const services = await context.open();
  const made = await services.backupRecord();
  if (context.arguments.json) {
    context.printJson({ file: made.file, madeAt: made.madeAt.toISOString(), bytes: made.bytes, pruned: made.pruned });
    return 0;
  }
  context.print(
    `Backed up the officer's record to ${made.file} (${sizeText(made.bytes)}, verified)` +
      (made.pruned.length === 0
        ? '.'
        : `; ${String(made.pruned.length)} older ${made.pruned.length === 1 ? 'backup was' : 'backups were'} removed to keep the newest 7.`),
  );
  return 0;
}

export async function recordBackups(context: BackupContext): Promise<number> {
  const credentials = await context.credentials();
  const expected = currentRecordOf(context.dataFolder).recordId;
  const rows = [];
  for (const backup of listBackups(context.dataFolder)) {
    const verdict = await verifyBackup(backup.file, credentials, expected);
    rows.push({ backup, verdict });
  }
  if (context.arguments.json) {
    context.printJson({
      rows: rows.map(({ backup, verdict }) => ({
        name: backup.name,
        file: backup.file,
        madeAt: backup.madeAt.toISOString(),
        bytes: backup.bytes,
        verified: verdict.ok,
        ...(verdict.ok ? {} : { why: verdict.why }),
      })),
    });
    return 0;
  }
  if (rows.length === 0) {
    context.print(`No backups of the officer's record yet (they are made daily in ${context.dataFolder}/backups).`);
    return 0;
  }
  for (const { backup, verdict } of rows) {
    context.print(
      `${backupTimeText(backup.madeAt)}  ${sizeText(backup.bytes).padStart(9)}  ${verdict.ok ? 'verified' : `does not verify: ${verdict.why}`}  ${backup.name}`,
    );
  }
  return 0;
}

export async function recordRestore(context: BackupContext): Promise<number> {
  const given = context.arguments.name;
  if (given === null || given === '') {
    throw new UsageError('Name the backup to restore: `ledger record restore BACKUP` (see `ledger record backups`).');
  }
  const restored = await restoreBackup(context.dataFolder, given, await context.credentials());
  if (context.arguments.json) {
    context.printJson({
      restored: restored.backup,
      madeAt: restored.madeAt?.toISOString() ?? null,
      setAside: restored.setAside,
      wasDamaged: restored.wasDamaged,
    });
    return 0;
  }
  context.print(restored.sentence);
  return 0;
}
