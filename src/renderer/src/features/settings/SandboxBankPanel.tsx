/**
 * Settings › Profiles › Local sandbox bank: whether the embedded sandbox runs (its address and
 * since when) or why not, and Restart, which stops it (what is in flight finishes) and starts
 * it again on its own data: accounts, transactions and webhooks stay. Every error that says
 * the sandbox is not running leads here (SandboxRestartLink), with focus on Restart. The
 * button keeps focus while it works; the outcome is announced and shown under it.
 */
import { useEffect } from 'react';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Properties } from '../../components/Drawer.tsx';
import { Panel } from '../../components/Page.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { restartSentence, useSandboxBankStore } from './sandboxBankStore.ts';
import './sandboxBank.css';

const RESTART_ID = 'sandbox-restart';

export function SandboxBankPanel() {
  const { status, statusProblem, outcome, focusRestart, load, restart, focusTaken } = useSandboxBankStore();
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (!focusRestart) return;
    // After the screen's arrival (frame/screenArrival.ts), which focuses its heading in the
    // same pass of effects: asked for Restart, the person lands on Restart.
    const timer = setTimeout(() => {
      const button = document.getElementById(RESTART_ID);
      button?.focus();
      button?.scrollIntoView({ block: 'center' });
      focusTaken();
    }, 0);
    return () => {
      clearTimeout(timer);
    };
  }, [focusRestart, focusTaken]);
  const restarting = outcome.state === 'restarting';
  return (
    <Panel
      title="Local sandbox bank"
      result
      actions={
        <Button id={RESTART_ID} size="sm" icon="refresh" busy={restarting} onClick={() => void restart()}>
          {restarting ? 'Restarting…' : 'Restart the sandbox bank'}
        </Button>
      }
    >
      <div className="sandbox-bank">
        {statusProblem !== null ? (
          <p role="alert">Could not read its state: {statusProblem}</p>
        ) : status === null ? (
          <p className="muted">Reading its state…</p>
        ) : status.running ? (
          <Properties
            items={[
              [
                'State',
                <Badge key="state" tone="positive">
                  running
                </Badge>,
              ],
              [
                'Address',
                <span key="address" className="mono">
                  {status.baseUrl}
                </span>,
              ],
              ['Since', formatTimestamp(status.startedAt)],
            ]}
          />
        ) : (
          <Properties
            items={[
              [
                'State',
                <Badge key="state" tone="negative">
                  not running
                </Badge>,
              ],
              ['Why', status.problem],
              ['Stopped', status.stoppedAt === null ? '—' : formatTimestamp(status.stoppedAt)],
            ]}
          />
        )}
        <p className="muted sandbox-bank-note">
          The bank Ledgerdesk runs on this computer for the Local sandbox profile. Restart stops it, letting what is in
          flight finish, and starts it again on its own data: its accounts, transactions and webhooks stay.
        </p>
        <div role="status" aria-live="off" className="sandbox-bank-outcome">
          {outcome.state === 'done' ? (
            <p>
              <Badge tone={outcome.restart.answering ? 'positive' : 'warning'}>
                {outcome.restart.answering ? 'restarted' : 'started, not answering yet'}
              </Badge>{' '}
              {restartSentence(outcome.restart)}
            </p>
          ) : outcome.state === 'failed' ? (
            <p>
              <Badge tone="negative">did not restart</Badge> {outcome.message}
            </p>
          ) : null}
        </div>
      </div>
    </Panel>
  );
}
