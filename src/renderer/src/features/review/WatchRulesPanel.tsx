/**
 * Settings → Review → Watch rules of the active profile: listed in words, removed after a
 * confirmation, added (or replaced, by name) with a form whose conditions follow the kind.
 * Rules run after each sync and flag matching items no one has reviewed.
 */
import { useCallback, useEffect, useState } from 'react';
import { describeRule, type WatchRule } from '../../../../shared/review/watchRule.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { Panel } from '../../components/Page.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { useActiveProfile } from '../../stores/profiles.ts';
import { toast } from '../../stores/toasts.ts';
import { RuleForm } from './RuleForm.tsx';
import { KIND_LABELS } from './reviewWords.ts';

export function WatchRulesPanel() {
  const profile = useActiveProfile();
  const profileId = profile?.id ?? null;
  const [rules, setRules] = useState<WatchRule[] | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);

  const load = useCallback(async (): Promise<void> => {
    if (profileId === null) return;
    try {
      setRules((await api().reviews.rules({ profileId })).rows);
      setError(null);
    } catch (reason) {
      setError(uiErrorOf(reason));
    }
  }, [profileId]);
  useEffect(() => {
    void load();
  }, [load]);

  async function remove(name: string): Promise<void> {
    if (profileId === null) return;
    try {
      await api().reviews.removeRule({ profileId, name });
      toast('success', `Watch rule ${name} removed`, 'The flags it made stay.');
      await load();
    } catch (reason) {
      toast('error', 'Could not remove the rule', sentenceOf(uiErrorOf(reason)));
    } finally {
      setRemoving(null);
    }
  }

  if (profile === null || profileId === null) return null;
  return (
    <Panel
      title={`Watch rules of ${profile.name}`}
      actions={
        adding ? null : (
          <Button
            size="sm"
            icon="plus"
            onClick={() => {
              setAdding(true);
            }}
          >
            Add rule
          </Button>
        )
      }
    >
      <p className="muted review-intro">
        After each sync, items matching a rule that no one has reviewed are marked “flagged by rule NAME”, apart from an
        officer’s own flags. Kept on this computer, per profile; <code>ledger rules</code> lists them too.
      </p>
      {adding ? (
        <RuleForm
          profileId={profileId}
          taken={(rules ?? []).map((rule) => rule.name)}
          onSaved={() => {
            setAdding(false);
            void load();
          }}
          onCancel={() => {
            setAdding(false);
          }}
        />
      ) : null}
      {error !== null ? (
        <ErrorState what="Watch rules" error={error} onRetry={() => void load()} />
      ) : rules === null ? (
        <LoadingState label="Loading watch rules…" />
      ) : rules.length === 0 ? (
        <EmptyState title="No watch rules">Add one to flag large amounts, words, statuses or failing sends.</EmptyState>
      ) : (
        <table className="table review-rules">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Flags items with</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule) => (
              <tr key={rule.name}>
                <td>
                  <span className="review-rule">
                    <span aria-hidden="true">⚑</span> {rule.name}
                  </span>
                </td>
                <td>
                  <Badge tone="neutral">{KIND_LABELS[rule.kind].many}</Badge>
                </td>
                <td>{describeRule(rule).replace(/^[a-z-]+: /, '')}</td>
                <td className="align-end">
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="trash"
                    aria-label={`Remove watch rule ${rule.name}`}
                    onClick={() => {
                      setRemoving(rule.name);
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {removing === null ? null : (
        <ConfirmDialog
          title={`Remove watch rule ${removing}?`}
          confirmLabel="Remove rule"
          tone="danger"
          onConfirm={() => void remove(removing)}
          onCancel={() => {
            setRemoving(null);
          }}
        >
          It stops flagging after the next sync. The items it already flagged stay flagged, with its name, until an
          officer reviews them.
        </ConfirmDialog>
      )}
    </Panel>
  );
}
