/**
 * The four-eyes policy of a workspace: which moves ("from>to" over review states) need a
 * second officer. Read from this laptop's verified history (the signed policy events, never the
 * server's column: issue 35, T1); changed only by a lead, online, as an event the lead signs
 * (kind "workspace", action "policy", the sorted rules in its disposition).
 *
 * Once the membership is signed (issue 35, T4), a stricter policy (every rule in force kept) is
 * in force at once; a weaker one (any rule dropped, "none" included) waits, shown to every
 * officer, until a second lead, another person than the proposer, approves it
 * (`policy-approve`, naming the proposal by its chain hash), or a lead withdraws it
 * (`policy-reject`). The server (team.set_policy, team.decide_policy) refuses the same.
 */
import { randomUUID } from 'node:crypto';
import { intentBytes, type TeamIntent } from './crypto/teamCanonical.ts';
import { signIntent } from './crypto/officerKeys.ts';
import { payloadOf } from './teamDesk.ts';
import { TeamProblem } from './teamProblem.ts';
import type { PolicyState, TeamSession } from './teamSession.ts';
import { approvalRulesOf } from './teamTerms.ts';

export type TeamPolicy = PolicyState;

/** The policy as the verified history makes it (pulled first when the server answers). */
export async function readPolicy(team: TeamSession): Promise<TeamPolicy> {
  await team.synchronise();
  return policyOf(team);
}

function policyOf(team: TeamSession): TeamPolicy {
  const membership = team.membership();
  const pending = membership.pendingPolicy;
  return {
    workspace: team.workspace,
    rules: [...membership.rules],
    pending:
      pending === null ? null : { rules: [...pending.rules], by: pending.by, seq: pending.seq, hash: pending.hash },
    signed: membership.signed,
  };
}

async function signAndSend(
  team: TeamSession,
  intent: TeamIntent,
  sql: string,
): Promise<{ seq: number; state: string | null }> {
  const { signPrivate } = await team.keys();
  const answer = await team.connection.with(async (db) => {
    const result = await db.query<{ answer: { seq: number; state?: string | null } }>(sql, [
      team.workspace,
      payloadOf(intent, signIntent(signPrivate, intentBytes(intent))),
    ]);
    return result.rows[0]?.answer;
  });
  if (answer === undefined) throw new TeamProblem('refused', 'The team server did not record the policy.');
  await team.sync.pull();
  return { seq: answer.seq, state: answer.state ?? null };
}

/**
 * Sets the policy (a lead, online). Answers the policy now in force, the seq of the signed
 * event, and whether the new rules are in force or wait for a second lead.
 */
export async function setPolicy(
  team: TeamSession,
  rules: readonly string[],
  now: () => Date = () => new Date(),
): Promise<TeamPolicy & { seq: number; outcome: 'in-force' | 'pending' }> {
  const checked = approvalRulesOf(rules);
  if ('problem' in checked) throw new TeamProblem('invalid', checked.problem);
  if (team.settings.role !== 'lead')
    throw new TeamProblem('refused', `Only a lead of ${team.workspace} changes its four-eyes policy.`);
  const sent = await signAndSend(
    team,
    {
      id: randomUUID(),
      workspace: team.workspace,
      kind: 'workspace',
      ref: team.workspace,
      action: 'policy',
      disposition: checked.rules.join(','),
      assignee: null,
      baseVersion: null,
      keyVersion: null,
      clientAt: now().toISOString(),
      sealed: null,
    },
    'SELECT team.set_policy($1, $2::jsonb) AS answer',
  );
  return { ...policyOf(team), seq: sent.seq, outcome: sent.state === 'pending' ? 'pending' : 'in-force' };
}

/** A lead approves (another person than the proposer) or withdraws the weaker policy waiting. */
export async function decidePolicy(
  team: TeamSession,
  decision: 'approve' | 'reject',
  now: () => Date = () => new Date(),
): Promise<TeamPolicy & { seq: number }> {
  if (team.settings.role !== 'lead')
    throw new TeamProblem('refused', `Only a lead of ${team.workspace} decides its four-eyes policy.`);
  await team.sync.pull();
  const pending = team.membership().pendingPolicy;
  if (pending === null) throw new TeamProblem('invalid', `No weaker policy of ${team.workspace} awaits a decision.`);
  if (decision === 'approve' && pending.by === team.settings.login)
    throw new TeamProblem(
      'refused',
      `You proposed this policy (event ${String(pending.seq)}): a second lead approves it, or you withdraw it.`,
    );
  const sent = await signAndSend(
    team,
    {
      id: randomUUID(),
      workspace: team.workspace,
      kind: 'workspace',
      ref: team.workspace,
      action: decision === 'approve' ? 'policy-approve' : 'policy-reject',
      disposition: pending.hash,
      assignee: null,
      baseVersion: null,
      keyVersion: null,
      clientAt: now().toISOString(),
      sealed: null,
    },
    'SELECT team.decide_policy($1, $2::jsonb) AS answer',
  );
  return { ...policyOf(team), seq: sent.seq };
}
