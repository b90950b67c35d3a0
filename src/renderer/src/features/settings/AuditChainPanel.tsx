/**
 * The audit log's tamper evidence, in Settings: Verify checks every entry's MAC against the
 * one before it and the end of the log against the keychain (the same check as `ledger audit
 * verify`), then shows ok with the number of entries and the chain head, or the first entry
 * that breaks the chain. The button keeps focus while it runs (it is not disabled), and the
 * verdict is announced.
 */
import { useState } from 'react';
import type { AuditVerification } from '../../../../shared/ipc/index.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Properties } from '../../components/Drawer.tsx';
import { Panel } from '../../components/Page.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/time.ts';

type Check =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; verification: AuditVerification }
  | { state: 'failed'; message: string };

export function AuditChainPanel() {
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const running = check.state === 'running';

  async function verify(): Promise<void> {
    setCheck({ state: 'running' });
    try {
      setCheck({ state: 'done', verification: await api().audit.verify({}) });
    } catch (reason) {
      setCheck({ state: 'failed', message: sentenceOf(uiErrorOf(reason)) });
    }
  }

  return (
    <Panel
      title="Tamper evidence"
      actions={
        <Button
          size="sm"
          icon="check"
          aria-busy={running || undefined}
          onClick={running ? undefined : () => void verify()}
        >
          {running ? 'Verifying…' : 'Verify'}
        </Button>
      }
    >
      <div role="status" aria-live="polite" data-result-panel>
        {check.state === 'idle' ? (
          <p className="muted">
            Each entry is chained to the one before it with a key kept in the keychain, so an entry changed, removed or
            moved in the cache file is found. Verify checks the whole log.
          </p>
        ) : check.state === 'running' ? (
          <p className="muted">Checking every entry…</p>
        ) : check.state === 'failed' ? (
          <p>
            <Badge tone="negative">not checked</Badge> {check.message}
          </p>
        ) : (
          <Verdict verification={check.verification} />
        )}
      </div>
    </Panel>
  );
}

function Verdict({ verification }: { verification: AuditVerification }) {
  const { problem } = verification;
  const entry = problem?.entry ?? null;
  return (
    <>
      <Properties
        items={[
          [
            'Chain',
            verification.ok ? (
              <Badge key="v" tone="positive">
                verified
              </Badge>
            ) : (
              <Badge key="v" tone="negative">
                {problem?.kind === 'key-lost' ? 'cannot be verified' : 'broken'}
              </Badge>
            ),
          ],
          ['Entries', verification.entries.toLocaleString('en-US')],
          verification.ok
            ? [
                'Chain head',
                <code key="h" className="mono">
                  {verification.head ?? 'empty log'}
                </code>,
              ]
            : [
                'First entry that breaks it',
                entry === null
                  ? `#${problem?.entryId ?? ''} (missing)`
                  : `#${entry.id} · ${entry.action} ${entry.target ?? ''} · ${formatTimestamp(entry.at)}`,
              ],
          ['Checked', formatTimestamp(verification.verifiedAt)],
        ]}
      />
      {problem === null ? null : <p style={{ marginTop: 12 }}>{problem.message}</p>}
      {verification.notes.map((note) => (
        <p key={note} className="muted" style={{ marginTop: 8 }}>
          {note}
        </p>
      ))}
    </>
  );
}
