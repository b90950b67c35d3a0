/**
 * Settings › Team › New members: every member who joined and whose signing-key fingerprint this
 * officer has not acknowledged yet (issue 35, T2). The officer compares the fingerprint with the
 * member in person, or on a call they trust, says so, and acknowledges: once the team's
 * membership is signed, that is a signed confirmation, and a member a lead invited counts as a
 * person of their own for four-eyes from then on. A fingerprint that does not match is not
 * acknowledged: the notice says to tell the team lead.
 */
import { useId, useState } from 'react';
import { Button } from '../../components/Button.tsx';
import { Checkbox } from '../../components/Field.tsx';
import { useTeamStore, type TeamMember } from './teamStore.ts';

export function NewMemberNotices({ members }: { members: readonly TeamMember[] }) {
  const fresh = members.filter((member) => member.notice === 'new' && member.signingKey !== null);
  if (fresh.length === 0) return null;
  return (
    <section className="team-notices" aria-label="New members to acknowledge">
      {fresh.map((member) => (
        <NewMemberNotice key={member.login} member={member} />
      ))}
    </section>
  );
}

function NewMemberNotice({ member }: { member: TeamMember }) {
  const acknowledge = useTeamStore((state) => state.acknowledgeMember);
  const [compared, setCompared] = useState(false);
  const [busy, setBusy] = useState(false);
  const heading = useId();
  const who = member.introducedBy === null ? '' : `, invited by ${member.introducedBy}`;
  return (
    <article className="team-notice" aria-labelledby={heading}>
      <h3 id={heading} className="team-notice-title">
        New member: {member.login} ({member.role}
        {who})
      </h3>
      <p>
        Before you rely on {member.login}&apos;s decisions, compare this signing-key fingerprint with {member.login} in
        person, or on a call you trust:
      </p>
      <p>
        <code className="mono team-fingerprint">{member.signingKey}</code>
      </p>
      {member.countsAs !== member.login ? (
        <p className="muted">
          Until another member confirms {member.login}, four-eyes counts {member.login} as {member.countsAs}: they
          cannot be each other&apos;s second officer.
        </p>
      ) : null}
      <div className="team-notice-actions">
        <Checkbox
          label={`The fingerprint ${member.login} read me is the one above`}
          checked={compared}
          onChange={setCompared}
          hint="If it differs, do not acknowledge: tell your team lead."
        />
        <Button
          size="sm"
          variant="primary"
          busy={busy}
          disabled={!compared}
          onClick={() => {
            setBusy(true);
            void acknowledge(member.login, member.signingKey ?? '').finally(() => {
              setBusy(false);
            });
          }}
        >
          {busy ? 'Acknowledging…' : `Acknowledge ${member.login}`}
        </Button>
      </div>
    </article>
  );
}
