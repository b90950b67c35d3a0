/**
 * Settings › Team: join a team from an invite file, or (joined) the team, its server and this
 * laptop's sync state, push/pull, the members as the signed history introduced them, with their
 * key fingerprints and a notice for each new one to compare and acknowledge, the four-eyes
 * policy, and a check of the server's whole history.
 *
 * The invite file is named by its path on this computer and read by the app's main side: its
 * one-time secret never passes through the window.
 */
import { useEffect, useState, type SyntheticEvent } from 'react';
import { Badge } from '../../components/Badge.tsx';
import { Button } from '../../components/Button.tsx';
import { Properties } from '../../components/Drawer.tsx';
import { TextField } from '../../components/Field.tsx';
import { Panel } from '../../components/Page.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/time.ts';
import { FourEyesPanel } from './FourEyesPanel.tsx';
import { NewMemberNotices } from './NewMemberNotices.tsx';
import { useTeamStore, type TeamVerification } from './teamStore.ts';
import './team.css';

export function TeamSettings() {
  const status = useTeamStore((state) => state.status);
  const statusError = useTeamStore((state) => state.statusError);
  const loadStatus = useTeamStore((state) => state.loadStatus);
  useEffect(() => {
    void loadStatus();
  }, [loadStatus]);
  if (statusError !== null) return <ErrorState what="the team" error={statusError} onRetry={() => void loadStatus()} />;
  if (status === null) return <LoadingState label="Reading the team…" />;
  return (
    <div className="page-scroll stack">
      {status.joined ? (
        <>
          <TeamPanel />
          <MembersPanel />
          <FourEyesPanel isLead={status.role === 'lead'} />
          <TeamHistoryPanel />
        </>
      ) : (
        <JoinPanel />
      )}
    </div>
  );
}

function JoinPanel() {
  const join = useTeamStore((state) => state.join);
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  async function submit(event: SyntheticEvent): Promise<void> {
    event.preventDefault();
    if (busy) return;
    if (path.trim() === '') {
      setError('Enter the path of the invite file your team lead gave you.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await join(path.trim());
    } catch (reason) {
      setError(sentenceOf(uiErrorOf(reason)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Panel title="Join a team">
      <p className="muted team-lead-in">
        This laptop works alone. To share one review queue with your team (one officer proposes, a second approves),
        join with the invite file your team lead made for you with <code>ledger team init</code> or{' '}
        <code>ledger team invite</code>. Joining checks the server&apos;s certificate against the invite, makes your
        signing keys in the keychain and spends the invite: it works once.
      </p>
      <form className="team-join" onSubmit={(event) => void submit(event)} noValidate>
        <TextField
          label="Invite file"
          value={path}
          onChange={setPath}
          error={error}
          hint="The full path, e.g. /home/alice/alice.invite"
          spellCheck={false}
          autoComplete="off"
        />
        <Button type="submit" variant="primary" busy={busy}>
          {busy ? 'Joining…' : 'Join'}
        </Button>
      </form>
    </Panel>
  );
}

function TeamPanel() {
  const status = useTeamStore((state) => state.status);
  const syncing = useTeamStore((state) => state.syncing);
  const syncProblem = useTeamStore((state) => state.syncProblem);
  const sync = useTeamStore((state) => state.sync);
  if (status === null) return null;
  return (
    <Panel
      title="Team"
      actions={
        <Button size="sm" icon="refresh" busy={syncing} onClick={() => void sync()}>
          {syncing ? 'Syncing…' : 'Push and pull'}
        </Button>
      }
    >
      <Properties
        items={[
          ['Workspace', status.workspace ?? ''],
          ['Signed in as', `${status.login ?? ''} (${status.role ?? ''})`],
          [
            'Server',
            <code key="s" className="mono">
              {status.server ?? ''}
            </code>,
          ],
          [
            'Verified history',
            status.head === null || status.head.seq === 0 ? 'no events yet' : `up to event #${String(status.head.seq)}`,
          ],
          ['Last pulled', status.pulledAt === null ? 'never' : formatTimestamp(status.pulledAt)],
          [
            'Waiting to be pushed',
            status.queued === 0 ? 'nothing' : <Badge key="q" tone="info">{`${String(status.queued)} queued`}</Badge>,
          ],
          [
            'New members',
            status.newMembers === 0 ? (
              'none to acknowledge'
            ) : (
              <Badge key="n" tone="warning">{`${String(status.newMembers)} to compare and acknowledge`}</Badge>
            ),
          ],
          [
            'Signed membership',
            status.membershipSigned
              ? 'yes: members and policy changes are signed events'
              : status.head === null || status.head.seq === 0
                ? 'not known yet: push and pull first'
                : 'not yet: a lead runs ledger team upgrade',
          ],
          [
            'Conflicts and refusals',
            status.conflicts === 0 ? (
              'none'
            ) : (
              <Badge key="c" tone="warning">{`${String(status.conflicts)} to review`}</Badge>
            ),
          ],
        ]}
      />
      <div role="status" aria-live="polite">
        {syncProblem === null ? null : (
          <p className="team-problem">
            <Badge tone="warning">offline</Badge> {syncProblem} Your actions stay queued and are pushed when the server
            answers.
          </p>
        )}
      </div>
    </Panel>
  );
}

function MembersPanel() {
  const members = useTeamStore((state) => state.members);
  const membersError = useTeamStore((state) => state.membersError);
  const loadMembers = useTeamStore((state) => state.loadMembers);
  useEffect(() => {
    void loadMembers();
  }, [loadMembers]);
  const unsigned = members?.filter((member) => member.notice === 'unsigned') ?? [];
  return (
    <Panel title="Members" className="panel-flush team-members">
      {membersError !== null ? (
        <ErrorState what="the members" error={membersError} onRetry={() => void loadMembers()} />
      ) : members === null ? (
        <LoadingState label="Reading the verified history…" />
      ) : (
        <>
          <NewMemberNotices members={members} />
          {unsigned.length > 0 ? (
            <p className="team-problem" role="alert">
              <Badge tone="negative">not in the signed history</Badge> The server lists{' '}
              {unsigned.map((member) => member.login).join(', ')}, whom no lead introduced: nothing{' '}
              {unsigned.length === 1 ? 'this login signs' : 'these logins sign'} is accepted. Tell your team lead.
            </p>
          ) : null}
          <table className="table" aria-label="Members">
            <thead>
              <tr>
                <th>Officer</th>
                <th>Role</th>
                <th>Status</th>
                <th>Introduced by</th>
                <th>Signing key fingerprint</th>
                <th>Compared by you</th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.login}>
                  <td>
                    {member.displayName} <span className="muted">({member.login})</span>
                  </td>
                  <td>{member.role}</td>
                  <td>
                    {member.notice === 'unsigned' ? (
                      <Badge tone="negative">not in the signed history</Badge>
                    ) : !member.active ? (
                      <Badge tone="neutral">removed</Badge>
                    ) : member.joined ? (
                      <Badge tone="positive">joined</Badge>
                    ) : (
                      <Badge tone="info">
                        {member.inviteExpires === null
                          ? 'invited'
                          : `invited until ${formatTimestamp(member.inviteExpires)}`}
                      </Badge>
                    )}
                  </td>
                  <td>
                    {member.introducedBy ?? <span className="muted">founding</span>}
                    {member.countsAs !== member.login ? (
                      <span className="muted"> (counts as {member.countsAs})</span>
                    ) : null}
                  </td>
                  <td>
                    {member.signingKey === null ? (
                      <span className="muted">not yet</span>
                    ) : (
                      <code className="mono team-fingerprint">{member.signingKey}</code>
                    )}
                  </td>
                  <td>
                    {member.notice === 'self'
                      ? 'you'
                      : member.notice === 'acknowledged'
                        ? 'acknowledged'
                        : member.notice === 'new'
                          ? 'not yet'
                          : '-'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Panel>
  );
}

type Check =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; verification: TeamVerification }
  | { state: 'failed'; message: string };

/** The same check as `ledger audit verify --team`: the server's whole chain, not this laptop's copy. */
function TeamHistoryPanel() {
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const running = check.state === 'running';
  async function verify(): Promise<void> {
    setCheck({ state: 'running' });
    try {
      setCheck({ state: 'done', verification: await api().team.verify({}) });
    } catch (reason) {
      setCheck({ state: 'failed', message: sentenceOf(uiErrorOf(reason)) });
    }
  }
  return (
    <Panel
      title="Team history"
      actions={
        <Button size="sm" icon="check" busy={running} onClick={() => void verify()}>
          {running ? 'Verifying…' : 'Verify'}
        </Button>
      }
    >
      <div role="status" aria-live="polite">
        {check.state === 'idle' ? (
          <p className="muted">
            Every event is signed by the officer who made it and chained by the server. Verify re-reads the
            server&apos;s whole history and checks every hash and signature against this laptop&apos;s copy and its
            anchor in the keychain.
          </p>
        ) : check.state === 'running' ? (
          <p className="muted">Checking every event…</p>
        ) : check.state === 'failed' ? (
          <p>
            <Badge tone="negative">not checked</Badge> {check.message}
          </p>
        ) : (
          <Properties
            items={[
              [
                'History',
                check.verification.ok ? (
                  <Badge key="v" tone="positive">
                    verified
                  </Badge>
                ) : (
                  <Badge key="v" tone="negative">
                    broken
                  </Badge>
                ),
              ],
              ['Events', check.verification.events.toLocaleString('en-US')],
              check.verification.firstBad === null
                ? [
                    'Head',
                    <code
                      key="h"
                      className="mono team-fingerprint"
                    >{`#${String(check.verification.head.seq)} ${check.verification.head.hash}`}</code>,
                  ]
                : [
                    'First bad event',
                    `${check.verification.firstBad.seq === null ? '' : `#${String(check.verification.firstBad.seq)}: `}${check.verification.firstBad.reason}`,
                  ],
            ]}
          />
        )}
      </div>
    </Panel>
  );
}
