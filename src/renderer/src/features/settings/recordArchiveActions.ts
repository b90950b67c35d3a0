/**
 * Exporting an archive of the officer's record from the window (issue 34, item 6): the same as
 * `ledger record export`, asked of main (a save dialog; web mode: the downloads folder). Shared
 * by Settings → Record and the confirmation of a profile's removal, which offers it first.
 */
import type { ArchiveVerificationView } from '../../../../shared/ipc/domains/record.ts';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf } from '../../lib/errors.ts';
import { toast } from '../../stores/toasts.ts';

function counted(counts: { reviews: number; steps: number; auditEntries: number }): string {
  return `${counts.reviews.toLocaleString('en-US')} reviews, ${counts.steps.toLocaleString('en-US')} steps of history and ${counts.auditEntries.toLocaleString('en-US')} audit log entries`;
}

/** Exports the archive (one profile's, or every profile's); the path it went to, or null when cancelled or refused. */
export async function exportArchive(
  profile: { id: string; name: string } | null,
  passphrase: string | null,
): Promise<string | null> {
  try {
    const done = await api().record.exportArchive({
      ...(profile === null ? {} : { profileId: profile.id }),
      ...(passphrase === null || passphrase === '' ? {} : { passphrase }),
    });
    if (!done.saved || done.counts === null) return null;
    toast(
      'success',
      'Archive exported',
      `${profile === null ? "The officer's record" : `${profile.name}'s record`} (${counted(done.counts)}) is in ${done.path ?? ''}, signed by the record's key ${done.fingerprint ?? ''}.`,
    );
    return done.path;
  } catch (reason) {
    toast('error', 'Could not export the archive', sentenceOf(uiErrorOf(reason)));
    return null;
  }
}

/** The verdict in words, as `ledger audit verify --archive` prints it. */
export function verdictOf(verification: ArchiveVerificationView): string {
  if (verification.problem !== null) return verification.problem;
  const counts = verification.counts;
  return `The archive verifies: ${counts === null ? '' : counted(counts)}, made ${verification.madeAt ?? ''} for ${verification.profiles.join(', ')}; signed by the record's key ${verification.fingerprint ?? ''}.`;
}
