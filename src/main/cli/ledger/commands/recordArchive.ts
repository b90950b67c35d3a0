/**
 * The record archive on the command line (issue 34, item 6; docs/data.md):
 *
 * - `ledger record export FILE [--profile NAME] [--archive-passphrase-file FILE]`: one signed,
 *   self-verifying file of the officer's record; its sealed notes open with the data folder's
 *   recovery key, or with the archive passphrase when one is given;
 * - `ledger audit verify --archive FILE [--recovery-key FILE | --archive-passphrase-file FILE]`:
 *   checks an archive anywhere, with no keychain and no data folder: ok prints what it holds and
 *   the signing key's fingerprint, else the first bad entry in words (exit 1);
 * - `ledger record import FILE (--recovery-key FILE | --archive-passphrase-file FILE)`: restores it
 *   into an empty data folder, after verifying it.
 *
 * The archive passphrase has its own option: `--passphrase-file` is the data folder's key file's.
 */
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { readPassphraseFile } from '../../../app/dataFolderSecrets.ts';
import { Credentials } from '../../../services/credentials/credentials.ts';
import {
  readRecoveryKeyFile,
  RecoveryEscrow,
  recoveryPublicKeyOf,
} from '../../../services/credentials/recoveryEscrow.ts';
import type { SecretStore } from '../../../services/credentials/secretStore.ts';
import { FileProfileStorage } from '../../../services/profiles/fileProfileStorage.ts';
import { auditArchiveExport, exportRecordArchive } from '../../../services/record/recordArchiveExport.ts';
import { importRecordArchive } from '../../../services/record/recordArchiveImport.ts';
import type { ArchiveOpener } from '../../../services/record/recordArchiveSealing.ts';
import { verifyArchiveFile, type ArchiveVerification } from '../../../services/record/recordArchiveVerify.ts';
import { UsageError } from '../../common/usageError.ts';
import type { Values } from '../cliArguments.ts';
import type { CommandContext } from '../triggerCommand.ts';

const VERIFIED = 0;
const NOT_VERIFIED = 1;

function fileOf(context: CommandContext, what: string): string {
  const name = context.arguments.name;
  if (name === null) throw new UsageError(`Name the ${what} file.`);
  return resolve(name);
}

/** What opens an archive's sealed part, from --recovery-key or --archive-passphrase-file (never both). */
function openerOf(options: Values): ArchiveOpener | null {
  const recoveryKey = options['recovery-key'];
  const passphraseFile = options['archive-passphrase-file'];
  if (typeof recoveryKey === 'string' && typeof passphraseFile === 'string') {
    throw new UsageError('Give --recovery-key or --archive-passphrase-file, not both.');
  }
  if (typeof recoveryKey === 'string') return { recoveryKey: readRecoveryKeyFile(resolve(recoveryKey)) };
  if (typeof passphraseFile === 'string') return { passphrase: readPassphraseFile(resolve(passphraseFile)) };
  return null;
}

function counted(counts: { reviews: number; steps: number; rows: number; auditEntries: number }): string {
  const n = (value: number, one: string, many: string) =>
    `${value.toLocaleString('en-US')} ${value === 1 ? one : many}`;
  return [
    n(counts.reviews, 'review', 'reviews'),
    n(counts.steps, 'step of history', 'steps of history'),
    n(counts.rows, 'rule or setting', 'rules and settings'),
    n(counts.auditEntries, 'audit log entry', 'audit log entries'),
  ].join(', ');
}

export async function recordExport(context: CommandContext): Promise<number> {
  const file = fileOf(context, 'archive');
  const options = context.arguments.options;
  const passphraseFile = options['archive-passphrase-file'];
  const passphrase = typeof passphraseFile === 'string' ? readPassphraseFile(resolve(passphraseFile)) : null;
  const services = await context.open();
  const only = typeof options.profile === 'string' ? services.profiles.find(options.profile) : null;
  const exported = await exportRecordArchive({
    record: services.record,
    credentials: services.credentials,
    profiles: services.profiles.list(),
    only,
    recoveryPublicKey: recoveryPublicKeyOf(context.dataFolder),
    passphrase,
    liveVerify: await services.cache.audit.verify(),
    file,
  });
  auditArchiveExport(services.cache.audit, services.record, only, exported);
  if (context.arguments.json) {
    context.printJson(exported);
    return VERIFIED;
  }
  context.print(
    `Archived ${only === null ? "the officer's record" : `the record of ${only.name}`} to ${exported.file}: ${counted(exported.counts)}. ` +
      `Its notes open with ${exported.sealedFor.join(' or the ')}. Signed by the record's key ${exported.fingerprint}; ` +
      `anyone can check it with \`ledger audit verify --archive FILE\`.`,
  );
  return VERIFIED;
}

function verificationText(verification: ArchiveVerification): string {
  const lines: string[] = [];
  if (verification.problem !== null) {
    lines.push(verification.problem.message);
  } else {
    const counts = verification.counts;
    lines.push(
      `The archive verifies: ${counts === null ? '' : counted(counts)}, made ${verification.madeAt ?? '(unknown)'} for ${verification.profiles.join(', ') || 'no profile'}.`,
      `Signed by the record's key ${verification.fingerprint ?? '(none)'}: compare it with the one in Settings → Record.`,
      verification.auditHead === null
        ? 'The audit chain inside is empty.'
        : `The audit chain inside ends at head ${verification.auditHead}${verification.macsChecked ? ', every MAC computed again with its key' : ' (its keyed MACs are checked with --recovery-key or --archive-passphrase-file)'}.`,
    );
  }
  lines.push(...verification.notes.map((note) => `Note: ${note}`));
  return lines.join('\n');
}

/** `ledger audit verify --archive FILE`: no data folder, no keychain. */
export function auditVerifyArchive(options: Values, json: boolean, stdout: Writable): number {
  const archive = options.archive;
  if (typeof archive !== 'string') throw new UsageError('`audit verify --archive` needs the archive FILE.');
  // A wrong recovery key or passphrase is an ArchiveKeyProblem: one sentence, exit 1.
  const verification = verifyArchiveFile(resolve(archive), openerOf(options)).verification;
  stdout.write((json ? JSON.stringify(verification) : verificationText(verification)) + '\n');
  return verification.ok ? VERIFIED : NOT_VERIFIED;
}

export interface ImportContext extends CommandContext {
  secrets(): Promise<SecretStore>;
  env: NodeJS.ProcessEnv;
  /** A store given by the caller (tests, the app): no recovery escrow then, as LedgerServices does. */
  givenStore: boolean;
}

export async function recordImport(context: ImportContext): Promise<number> {
  const file = fileOf(context, 'archive');
  const opener = openerOf(context.arguments.options);
  if (opener === null) {
    throw new UsageError(
      "`record import` needs what opens the sealed notes: --recovery-key FILE (the exporting folder's) or --archive-passphrase-file FILE.",
    );
  }
  const credentials = new Credentials(
    await context.secrets(),
    context.givenStore ? {} : { escrow: new RecoveryEscrow(context.dataFolder, null, context.env) },
  );
  const imported = await importRecordArchive({
    file,
    dataFolder: context.dataFolder,
    credentials,
    profileStorage: new FileProfileStorage(context.dataFolder),
    opener,
  });
  if (context.arguments.json) {
    context.printJson({ ...imported, dataFolder: context.dataFolder });
    return VERIFIED;
  }
  context.print(
    `Imported the archive into ${context.dataFolder}: ${counted(imported.counts)}, for ${imported.profiles.join(', ')}. ` +
      "It verified first; the profiles' secrets were never in it: enter them again before syncing.",
  );
  return VERIFIED;
}
