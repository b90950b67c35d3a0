/**
 * Team review: the four queues of team mode (assigned to me, awaiting my approval, unassigned,
 * conflicts), each item with who proposed what, who approved, and when (the server's clock).
 * Every action (propose, approve, reject, claim, assign, release) is queued on this laptop at
 * once and pushed when the server answers; a conflict or a refusal comes back in Conflicts with
 * the server's sentence ("alice proposed cleared on version 2: review again") until dismissed.
 * Solo laptops see how to join a team instead.
 */
import { useEffect, useState } from 'react';
import type { TeamQueues, TeamReviewRow } from '../../../../shared/ipc/index.ts';
import type { ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Page, PageHeader, Panel } from '../../components/Page.tsx';
import { EmptyState, ErrorState, LoadingState, StateMessage } from '../../components/States.tsx';
import { TabPanel, Tabs } from '../../components/Tabs.tsx';
import { formatTimestamp } from '../../lib/time.ts';
import { useNavigationStore } from '../../stores/navigation.ts';
import { useSettingsStore } from '../settings/store.ts';
import { TeamActionDialog, type TeamDialogRequest } from './TeamActionDialog.tsx';
import { TeamHistoryDialog } from './TeamHistoryDialog.tsx';
import { useTeamStore } from './teamStore.ts';
import { byWhom, isReviewKind, kindLabel, proposalOf, STATE_TONES } from './teamWords.ts';
import './team.css';

type QueueId = 'assignedToMe' | 'awaitingMyApproval' | 'unassigned' | 'conflicts' | 'decided';

const QUEUE_LABELS: Record<QueueId, string> = {
  assignedToMe: 'Assigned to me',
  awaitingMyApproval: 'Awaiting my approval',
  unassigned: 'Unassigned',
  conflicts: 'Conflicts',
  decided: 'Recently decided',
};

const QUEUE_EMPTY: Record<QueueId, string> = {
  assignedToMe: 'Nothing is assigned to you. Claim an item from Unassigned.',
  awaitingMyApproval: 'No proposal waits for your approval.',
  unassigned: 'Every item in review has an officer.',
  conflicts: 'No conflict or refusal to look at.',
  decided: 'No item has been cleared or closed yet.',
};

export function TeamQueueScreen() {
  const status = useTeamStore((state) => state.status);
  const statusError = useTeamStore((state) => state.statusError);
  const loadStatus = useTeamStore((state) => state.loadStatus);
  useEffect(() => {
    void loadStatus();
  }, [loadStatus]);
  return (
    <Page>
      <PageHeader
        title="Team review"
        description="One officer proposes, a second approves. Actions are queued here at once and pushed to the team server when it answers."
        actions={status?.joined === true ? <HeaderActions /> : undefined}
      />
      {statusError !== null ? (
        <ErrorState what="the team" error={statusError} onRetry={() => void loadStatus()} />
      ) : status === null ? (
        <LoadingState label="Reading the team…" />
      ) : status.joined ? (
        <Queues />
      ) : (
        <SoloState />
      )}
    </Page>
  );
}

function SoloState() {
  const navigate = useNavigationStore((state) => state.navigate);
  const setTab = useSettingsStore((state) => state.setTab);
  return (
    <StateMessage
      icon="team"
      title="This laptop works alone"
      action={
        <Button
          variant="primary"
          onClick={() => {
            setTab('team');
            navigate('settings');
          }}
        >
          Join a team in Settings
        </Button>
      }
    >
      Team review shares one queue between officers, with four-eyes approval and a signed history. Join with the invite
      file your team lead gave you.
    </StateMessage>
  );
}

function HeaderActions() {
  const syncing = useTeamStore((state) => state.syncing);
  const sync = useTeamStore((state) => state.sync);
  const [dialog, setDialog] = useState<TeamDialogRequest | null>(null);
  return (
    <>
      <Button icon="refresh" busy={syncing} onClick={() => void sync()}>
        {syncing ? 'Syncing…' : 'Push and pull'}
      </Button>
      <Button
        variant="primary"
        icon="plus"
        onClick={() => {
          setDialog({ action: 'propose-new' });
        }}
      >
        Propose on an item
      </Button>
      {dialog === null ? null : (
        <TeamActionDialog
          request={dialog}
          onClose={() => {
            setDialog(null);
          }}
        />
      )}
    </>
  );
}

function Queues() {
  const queues = useTeamStore((state) => state.queues);
  const queuesError = useTeamStore((state) => state.queuesError);
  const loadQueues = useTeamStore((state) => state.loadQueues);
  const loadMembers = useTeamStore((state) => state.loadMembers);
  const status = useTeamStore((state) => state.status);
  const [tab, setTab] = useState<QueueId>('assignedToMe');
  useEffect(() => {
    void loadQueues();
    void loadMembers();
  }, [loadQueues, loadMembers]);
  if (queuesError !== null)
    return <ErrorState what="the team queues" error={queuesError} onRetry={() => void loadQueues()} />;
  if (queues === null) return <LoadingState label="Reading the team queues…" />;
  const tabs = (Object.keys(QUEUE_LABELS) as QueueId[]).map((id) => ({
    id,
    label: `${QUEUE_LABELS[id]} (${String(queues[id].length)})`,
  }));
  return (
    <>
      <p className="muted team-sync-line" role="status" aria-live="polite">
        {status?.queued === 0
          ? 'Everything is pushed.'
          : `${String(status?.queued ?? 0)} action(s) waiting to be pushed.`}{' '}
        {status?.pulledAt === null || status?.pulledAt === undefined
          ? 'Not pulled yet.'
          : `Last pulled ${formatTimestamp(status.pulledAt)}.`}
      </p>
      <Tabs label="Team queues" idPrefix="team" tabs={tabs} selected={tab} onSelect={setTab} />
      <TabPanel idPrefix="team" tab={tab}>
        <div className="page-scroll">
          <Panel className="panel-flush">
            {queues[tab].length === 0 ? (
              <EmptyState title={`${QUEUE_LABELS[tab]}: none`}>{QUEUE_EMPTY[tab]}</EmptyState>
            ) : tab === 'conflicts' ? (
              <ConflictTable rows={queues.conflicts} />
            ) : (
              <ReviewTable queue={tab} rows={queues[tab]} isLead={status?.role === 'lead'} />
            )}
          </Panel>
        </div>
      </TabPanel>
    </>
  );
}

function ReviewTable({
  queue,
  rows,
  isLead,
}: {
  queue: Exclude<QueueId, 'conflicts'>;
  rows: readonly TeamReviewRow[];
  isLead: boolean;
}) {
  const act = useTeamStore((state) => state.act);
  const [dialog, setDialog] = useState<TeamDialogRequest | null>(null);
  const [history, setHistory] = useState<{ kind: ReviewKind; ref: string } | null>(null);
  return (
    <>
      <table className="table team-table" aria-label={QUEUE_LABELS[queue]}>
        <thead>
          <tr>
            <th>Item</th>
            <th>State</th>
            <th>Proposed</th>
            <th>Approved</th>
            <th>Assignee</th>
            <th className="tabular">Version</th>
            <th>
              <span className="team-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const item = `${kindLabel(row.kind)} ${row.ref}`;
            const kind = isReviewKind(row.kind) ? row.kind : null;
            const base = kind === null ? null : { kind, ref: row.ref };
            return (
              <tr key={`${row.kind}/${row.ref}`}>
                <td>
                  <div>{kindLabel(row.kind)}</div>
                  <code className="mono team-ref">{row.ref}</code>
                </td>
                <td>
                  <Badge tone={STATE_TONES[row.state] ?? 'neutral'}>{row.state}</Badge>
                </td>
                <td className="wraps">{proposalOf(row) ?? <span className="muted">—</span>}</td>
                <td className="wraps">
                  {byWhom(null, row.approvedBy, row.approvedAt) ?? <span className="muted">—</span>}
                </td>
                <td>{row.assignee ?? <span className="muted">nobody</span>}</td>
                <td className="tabular">{row.version}</td>
                <td>
                  {base === null ? null : (
                    <div className="team-row-actions">
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`History of ${item}`}
                        onClick={() => {
                          setHistory(base);
                        }}
                      >
                        History
                      </Button>
                      {queue === 'decided' ? null : queue === 'awaitingMyApproval' ? (
                        <>
                          <Button
                            size="sm"
                            variant="primary"
                            aria-label={`Approve ${row.proposedDisposition ?? ''} on ${item}`}
                            onClick={() =>
                              void act({ ...base, action: 'approve' }, `Approved ${row.proposedDisposition ?? ''}`)
                            }
                          >
                            Approve
                          </Button>
                          <Button
                            size="sm"
                            aria-label={`Reject the proposal on ${item}`}
                            onClick={() => {
                              setDialog({ action: 'reject', ...base, proposal: row.proposedDisposition ?? '' });
                            }}
                          >
                            Reject…
                          </Button>
                        </>
                      ) : (
                        <Button
                          size="sm"
                          aria-label={`Propose on ${item}`}
                          onClick={() => {
                            setDialog({ action: 'propose', ...base });
                          }}
                        >
                          Propose…
                        </Button>
                      )}
                      {queue === 'unassigned' ? (
                        <Button
                          size="sm"
                          aria-label={`Claim ${item}`}
                          onClick={() => void act({ ...base, action: 'claim' }, 'Claimed')}
                        >
                          Claim
                        </Button>
                      ) : null}
                      {queue === 'assignedToMe' ? (
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Release ${item}`}
                          onClick={() => void act({ ...base, action: 'release' }, 'Released')}
                        >
                          Release
                        </Button>
                      ) : null}
                      {isLead && (queue === 'assignedToMe' || queue === 'unassigned') ? (
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Assign ${item}`}
                          onClick={() => {
                            setDialog({ action: 'assign', ...base });
                          }}
                        >
                          Assign…
                        </Button>
                      ) : null}
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {dialog === null ? null : (
        <TeamActionDialog
          request={dialog}
          onClose={() => {
            setDialog(null);
          }}
        />
      )}
      {history === null ? null : (
        <TeamHistoryDialog
          kind={history.kind}
          itemRef={history.ref}
          onClose={() => {
            setHistory(null);
          }}
        />
      )}
    </>
  );
}

function ConflictTable({ rows }: { rows: TeamQueues['conflicts'] }) {
  const acknowledge = useTeamStore((state) => state.acknowledge);
  return (
    <table className="table team-table" aria-label="Conflicts">
      <thead>
        <tr>
          <th>Item</th>
          <th>Your action</th>
          <th>What happened</th>
          <th>Queued</th>
          <th>
            <span className="team-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.eventId}>
            <td>
              <div>{kindLabel(row.kind)}</div>
              <code className="mono team-ref">{row.ref}</code>
            </td>
            <td>
              {row.action} <Badge tone={row.state === 'conflict' ? 'warning' : 'negative'}>{row.state}</Badge>
            </td>
            <td className="wraps">{row.detail ?? ''}</td>
            <td>{formatTimestamp(row.queuedAt)}</td>
            <td>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Dismiss the ${row.state} on ${kindLabel(row.kind)} ${row.ref}`}
                onClick={() => void acknowledge(row.eventId)}
              >
                Dismiss
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
