/**
 * Settings → Review → Reviewer: the name every disposition is signed with. The OS user name
 * until one is set here; "Use the OS user name" goes back to it. The change is audited.
 */
import { useEffect, useState } from 'react';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/Field.tsx';
import { Panel } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf, type UiError } from '../../lib/errors.ts';
import { toast } from '../../stores/toasts.ts';

interface Reviewer {
  name: string;
  source: 'os' | 'settings';
}

export function ReviewerPanel() {
  const [reviewer, setReviewer] = useState<Reviewer | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  async function load(): Promise<void> {
    try {
      const answer = await api().reviews.reviewer();
      setReviewer(answer);
      setName(answer.name);
      setError(null);
    } catch (reason) {
      setError(uiErrorOf(reason));
    }
  }
  useEffect(() => {
    void load();
  }, []);

  async function save(next: string | null): Promise<void> {
    setBusy(true);
    setProblem(undefined);
    try {
      const answer = await api().reviews.setReviewer({ name: next });
      setReviewer(answer);
      setName(answer.name);
      toast('success', 'Reviewer saved', `Reviews are signed ${answer.name}.`);
    } catch (reason) {
      setProblem(sentenceOf(uiErrorOf(reason)));
    } finally {
      setBusy(false);
    }
  }

  if (error !== null) return <ErrorState what="The reviewer" error={error} onRetry={() => void load()} />;
  if (reviewer === null) return <LoadingState label="Loading the reviewer…" />;
  return (
    <Panel title="Reviewer">
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void save(name);
        }}
      >
        <p className="muted review-intro">
          Every disposition, note and report is signed with this name.{' '}
          {reviewer.source === 'os' ? (
            <Badge tone="neutral">the OS user name</Badge>
          ) : (
            <Badge tone="accent">set here</Badge>
          )}
        </p>
        <TextField
          className="input review-reviewer-name"
          label="Reviewer’s name"
          value={name}
          onChange={setName}
          maxLength={100}
          error={problem}
          hint="One line, up to 100 characters."
        />
        <div className="row">
          <Button type="submit" variant="primary" busy={busy} disabled={name.trim() === '' || name === reviewer.name}>
            Save name
          </Button>
          {reviewer.source === 'settings' ? (
            <Button disabled={busy} onClick={() => void save(null)}>
              Use the OS user name
            </Button>
          ) : null}
        </div>
      </form>
    </Panel>
  );
}
