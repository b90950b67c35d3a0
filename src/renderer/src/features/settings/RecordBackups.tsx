/**
 * Settings → Record → Backups (issue 34, item 7): the record's daily backups in the data
 * folder, newest first, with when, size and whether each verifies, a backup on demand, and a
 * Restore on each. The running app holds the record open, so a restore is put in place at the
 * next start (docs/decisions/34-record-backups.md): the confirmation says so, and that the
 * current record is kept aside, never deleted. Shown even when the record did not open.
 */
import { useCallback, useEffect, useState } from 'react';
import type { RecordBackupsView, RecordBackupView } from '../../../../shared/ipc/domains/record.ts';
import { Button } from '../../components/Button.tsx';
import { Panel } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { useConfirmStore } from '../../stores/confirm.ts';
import { toast } from '../../stores/toasts.ts';

function whenText(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${String(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function RecordBackups() {
  const [view, setView] = useState<RecordBackupsView | null>(null);
  const [error, setError] = useState<UiError | null>(null);

  const load = useCallback(async () => {
    try {
      setView(await api().record.backups({}));
      setError(null);
    } catch (reason) {
      setError(uiErrorOf(reason));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  if (error !== null) return <ErrorState what="The record's backups" error={error} onRetry={() => void load()} />;
  if (view === null) return <LoadingState />;

  const backUpNow = async () => {
    try {
      const made = await api().record.backupNow({});
      toast('success', 'Backup made', `The record was backed up at ${whenText(made.madeAt)} and verified.`);
      await load();
    } catch (reason) {
      toast('error', 'Could not back up the record', sentenceOf(uiErrorOf(reason)));
    }
  };

  const restore = async (backup: RecordBackupView) => {
    const yes = await useConfirmStore.getState().ask({
      title: `Restore the backup of ${whenText(backup.madeAt)}?`,
      body:
        `At the next start of Ledgerdesk, the officer's record is put back as it was at ${whenText(backup.madeAt)}: ` +
        'what was done after that is not in it. The current record file is kept aside in the data folder, never deleted. ' +
        'Restart Ledgerdesk to do it.',
      confirmLabel: 'Restore at next start',
      tone: 'danger',
      production: false,
    });
    if (!yes) return;
    try {
      setView(await api().record.restoreBackup({ name: backup.name }));
      toast('success', 'Restore asked for', 'Restart Ledgerdesk: the backup is put in place before the record opens.');
    } catch (reason) {
      toast('error', 'Could not restore the backup', sentenceOf(uiErrorOf(reason)));
    }
  };

  return (
    <Panel title="Backups of the record">
      <p>
        A verified backup is made each day in the data folder&apos;s backups folder; the newest 7 are kept. The same as{' '}
        <code>ledger record backups</code>.
      </p>
      {view.restoreAtNextStart === null ? null : (
        <p role="status">
          Restart Ledgerdesk to restore {view.restoreAtNextStart}: it is put in place at the next start, and the current
          record is kept aside.
        </p>
      )}
      {view.backups.length === 0 ? (
        <p>No backups yet.</p>
      ) : (
        <table className="table" aria-label="Backups of the record">
          <thead>
            <tr>
              <th scope="col">Made</th>
              <th scope="col">Size</th>
              <th scope="col">Verified</th>
              <th scope="col">
                <span className="visually-hidden">Restore</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.backups.map((backup) => (
              <tr key={backup.name}>
                <td>{whenText(backup.madeAt)}</td>
                <td>{sizeText(backup.bytes)}</td>
                <td>{backup.verified ? 'yes' : `no: ${backup.why ?? 'it does not verify'}`}</td>
                <td>
                  <Button
                    size="sm"
                    disabled={!backup.verified}
                    aria-label={`Restore the backup of ${whenText(backup.madeAt)}`}
                    onClick={() => void restore(backup)}
                  >
                    Restore
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="table-actions">
        <Button size="sm" onClick={() => void backUpNow()}>
          Back up now
        </Button>
      </div>
    </Panel>
  );
}
