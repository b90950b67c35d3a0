/**
 * Settings › Team › Four-eyes policy: which moves need a second officer, as the verified history
 * makes it. Every officer sees it; a lead changes it (online): the change is signed by the lead,
 * chained in the team's history and recorded in the audit log. A stricter policy is in force at
 * once; a weaker one waits, shown here to every officer, until a second lead (another person)
 * approves it or a lead withdraws it (issue 35, T4). Rules set from the command line that are not
 * offered here are kept as they are.
 */
import { useEffect, useState } from 'react';
import type { TeamPolicy } from '../../../../shared/ipc/index.ts';
import { Button } from '../../components/Button.tsx';
import { Checkbox } from '../../components/Field.tsx';
import { Panel } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { toast } from '../../stores/toasts.ts';
import { useTeamStore } from './teamStore.ts';

/** The moves offered as checkboxes, in the words of the queue. */
const CHOICES: readonly (readonly [string, string])[] = [
  ['flagged>cleared', 'Clearing a flagged item'],
  ['escalated>cleared', 'Clearing an escalated item'],
  ['escalated>closed', 'Closing an escalation'],
  ['unreviewed>cleared', 'Clearing an item nobody has reviewed'],
  ['unreviewed>escalated', 'Escalating an item nobody has reviewed'],
  ['flagged>escalated', 'Escalating a flagged item'],
  ['cleared>flagged', 'Flagging a cleared item'],
];

function sentence(rule: string): string {
  return CHOICES.find(([value]) => value === rule)?.[1] ?? rule.replace('>', ' → ');
}

export function FourEyesPanel({ isLead }: { isLead: boolean }) {
  const [policy, setPolicy] = useState<TeamPolicy | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  async function load(): Promise<void> {
    try {
      const read = await api().team.policy({});
      setPolicy(read);
      setChosen(read.rules);
      setError(null);
    } catch (reason) {
      setError(uiErrorOf(reason));
    }
  }
  useEffect(() => {
    void load();
  }, []);

  async function save(): Promise<void> {
    setSaving(true);
    try {
      const saved = await api().team.setPolicy({ rules: chosen });
      setPolicy(saved);
      setChosen(saved.rules);
      if (saved.outcome === 'pending')
        toast(
          'info',
          'The weaker policy waits for a second lead',
          `Signed and recorded as event #${String(saved.seq)}; the current policy holds until another lead approves it.`,
        );
      else toast('success', 'Four-eyes policy changed', `Signed and recorded as event #${String(saved.seq)}.`);
      // The change was pulled and verified with it: the sync state moved.
      await useTeamStore.getState().loadStatus();
    } catch (reason) {
      toast('error', 'The policy was not changed', sentenceOf(uiErrorOf(reason)));
    } finally {
      setSaving(false);
    }
  }

  async function decide(decision: 'approve' | 'reject'): Promise<void> {
    setSaving(true);
    try {
      const decided = await api().team.decidePolicy({ decision });
      setPolicy(decided);
      setChosen(decided.rules);
      toast('success', decision === 'approve' ? 'Weaker policy approved' : 'Weaker policy withdrawn');
      await useTeamStore.getState().loadStatus();
    } catch (reason) {
      toast('error', decision === 'approve' ? 'Not approved' : 'Not withdrawn', sentenceOf(uiErrorOf(reason)));
    } finally {
      setSaving(false);
    }
  }

  const changed = policy !== null && [...chosen].sort().join(',') !== policy.rules.join(',');
  const waiting = policy?.pending ?? null;
  const others = policy === null ? [] : policy.rules.filter((rule) => !CHOICES.some(([value]) => value === rule));
  return (
    <Panel
      title="Four-eyes policy"
      actions={
        isLead ? (
          <Button size="sm" variant="primary" busy={saving} disabled={!changed} onClick={() => void save()}>
            {saving ? 'Saving…' : 'Save policy'}
          </Button>
        ) : undefined
      }
    >
      {error !== null ? (
        <ErrorState what="the four-eyes policy" error={error} onRetry={() => void load()} />
      ) : policy === null ? (
        <LoadingState label="Asking the team server…" />
      ) : isLead ? (
        <fieldset className="team-policy">
          <legend className="muted">These moves wait for a second officer&apos;s approval:</legend>
          {[...CHOICES.map(([value]) => value), ...others].map((rule) => (
            <Checkbox
              key={rule}
              label={sentence(rule)}
              checked={chosen.includes(rule)}
              onChange={(checked) => {
                setChosen((current) => (checked ? [...current, rule] : current.filter((entry) => entry !== rule)));
              }}
            />
          ))}
        </fieldset>
      ) : policy.rules.length === 0 ? (
        <p className="muted">No move needs a second officer: every proposal takes effect at once.</p>
      ) : (
        <>
          <p className="muted">These moves wait for a second officer&apos;s approval (a lead changes this):</p>
          <ul className="team-policy-list">
            {policy.rules.map((rule) => (
              <li key={rule}>{sentence(rule)}</li>
            ))}
          </ul>
        </>
      )}
      {waiting === null ? null : (
        <div className="team-policy-pending" role="status">
          <p>
            <strong>A weaker policy waits for a second lead</strong> (proposed by {waiting.by}, event #
            {String(waiting.seq)}):{' '}
            {waiting.rules.length === 0
              ? 'no move would need a second officer.'
              : `only ${waiting.rules.map(sentence).join(', ').toLowerCase()} would need a second officer.`}{' '}
            Until another lead approves it, the policy above holds.
          </p>
          {isLead ? (
            <div className="team-notice-actions">
              <Button size="sm" busy={saving} onClick={() => void decide('approve')}>
                Approve as second lead
              </Button>
              <Button size="sm" busy={saving} onClick={() => void decide('reject')}>
                Withdraw it
              </Button>
            </div>
          ) : null}
        </div>
      )}
    </Panel>
  );
}
