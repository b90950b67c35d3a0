/**
 * Settings → Record (issue 34, item 5): how long the active profile's reviews are kept (five
 * years after the review unless set), the legal hold that suspends every purge, and the purge
 * itself, asked for and confirmed, never run by itself. The same as `ledger record …`. Below
 * them, the record's backups (RecordBackups.tsx), shown even when the record did not open.
 */
import { useCallback, useEffect, useState } from 'react';
import type { RetentionView } from '../../../../shared/ipc/domains/record.ts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/Field.tsx';
import { Properties } from '../../components/Drawer.tsx';
import { Panel } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { useActiveProfile } from '../../stores/profiles.ts';
import { confirmWrite } from '../../stores/confirm.ts';
import { toast } from '../../stores/toasts.ts';
import { RecordArchive } from './RecordArchive.tsx';
import { RecordBackups } from './RecordBackups.tsx';

export function RecordPanel() {
  return (
    <>
      <RecordRetention />
      <RecordBackups />
    </>
  );
}

function RecordRetention() {
  const profile = useActiveProfile();
  const [retention, setRetention] = useState<RetentionView | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const [years, setYears] = useState('');
  const [reason, setReason] = useState('');
  const profileId = profile?.id ?? null;

  const load = useCallback(async () => {
    if (profileId === null) return;
    try {
      const answer = await api().record.retention({ profileId });
      setRetention(answer);
      setYears(String(answer.years));
      setError(null);
    } catch (reasonOf) {
      setError(uiErrorOf(reasonOf));
    }
  }, [profileId]);

  useEffect(() => {
    void load();
  }, [load]);

  if (profile === null || profileId === null) return <p>Choose a profile first: retention is set per profile.</p>;
  if (error !== null) return <ErrorState what="The record's retention" error={error} onRetry={() => void load()} />;
  if (retention === null) return <LoadingState />;

  const act = async (title: string, work: () => Promise<string>) => {
    try {
      toast('success', title, await work());
      await load();
    } catch (reasonOf) {
      toast('error', `Could not ${title.toLowerCase()}`, sentenceOf(uiErrorOf(reasonOf)));
    }
  };

  const saveYears = () =>
    act('Retention saved', async () => {
      const wanted = Number(years);
      const saved = await api().record.setRetention({ profileId, years: wanted });
      return `${profile.name}'s reviews are kept ${String(saved.years)} years after the review.`;
    });

  const purge = async () => {
    const confirmation = await confirmWrite('Purge reviews past their retention', {
      alwaysAsk: true,
      danger: true,
      detail: `Every review of ${profile.name} given more than ${String(retention.years)} years ago goes, with its notes and history; the purge is written to the audit log.`,
    });
    if (confirmation === null) return;
    await act('Purge done', async () => {
      const done = await api().record.purge({ profileId });
      return `${done.purged.toLocaleString('en-US')} reviews given before ${done.cutoff} were purged.`;
    });
  };

  return (
    <Panel title="Officer's record">
      <Properties
        items={[
          ['Kept', `${String(retention.years)} years after the review (${profile.name})`],
          [
            'Legal hold',
            retention.hold === null ? 'none' : `placed ${retention.hold.placedAt}: ${retention.hold.reason}`,
          ],
        ]}
      />
      <div className="stack">
        <TextField
          label="Years kept after the review"
          hint="Five by default, as BSA record-keeping asks. Nothing is purged unless you ask."
          inputMode="numeric"
          value={years}
          onChange={setYears}
        />
        <div className="table-actions">
          <Button size="sm" onClick={() => void saveYears()}>
            Save retention
          </Button>
          <Button size="sm" variant="danger" disabled={retention.hold !== null} onClick={() => void purge()}>
            Purge reviews past retention
          </Button>
        </div>
        {retention.hold === null ? (
          <>
            <TextField label="Reason for a legal hold" value={reason} onChange={setReason} />
            <div className="table-actions">
              <Button
                size="sm"
                disabled={reason.trim() === ''}
                onClick={() =>
                  void act('Legal hold placed', async () => {
                    await api().record.placeHold({ reason });
                    setReason('');
                    return 'Nothing of the record is purged until the hold is lifted.';
                  })
                }
              >
                Place legal hold
              </Button>
            </div>
          </>
        ) : (
          <div className="table-actions">
            <Button
              size="sm"
              onClick={() =>
                void act('Legal hold lifted', async () => {
                  await api().record.liftHold({});
                  return 'Purges run again when asked.';
                })
              }
            >
              Lift legal hold
            </Button>
          </div>
        )}
      </div>
      <RecordArchive />
    </Panel>
  );
}
