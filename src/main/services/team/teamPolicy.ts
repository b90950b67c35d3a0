/**
 * The four-eyes policy of a workspace: which moves ("from>to" over review states) need a
 * second officer. Read from the server; changed only by a lead, online, as an event the lead
 * signs (kind "workspace", action "policy", the sorted rules in its disposition) so every
 * laptop verifying the history sees who changed the policy, to what, and when. The server
 * (team.set_policy) checks the rules again and refuses anyone but a lead.
 */
import { randomUUID } from 'node:crypto';
import { intentBytes, type TeamIntent } from './crypto/teamCanonical.ts';
import { signIntent } from './crypto/officerKeys.ts';
import { payloadOf } from './teamDesk.ts';
import { TeamProblem } from './teamProblem.ts';
import { workspaceInfo } from './teamServerReads.ts';
import type { TeamSession } from './teamSession.ts';
import { approvalRulesOf } from './teamTerms.ts';

export interface TeamPolicy {
  workspace: string;
  /** Sorted "from>to" rules; empty: no move needs a second officer. */
  rules: string[];
}

export async function readPolicy(team: TeamSession): Promise<TeamPolicy> {
  const info = await team.connection.with((db) => workspaceInfo(db, team.workspace));
  if (info === null) throw new TeamProblem('refused', `${team.workspace} is not visible to ${team.settings.login}.`);
  return { workspace: team.workspace, rules: [...info.approvalRules].sort() };
}

/** Sets the policy (a lead, online); answers the new policy and the seq of its signed event. */
export async function setPolicy(
  team: TeamSession,
  rules: readonly string[],
  now: () => Date = () => new Date(),
): Promise<TeamPolicy & { seq: number }> {
  const checked = approvalRulesOf(rules);
  if ('problem' in checked) throw new TeamProblem('invalid', checked.problem);
  if (team.settings.role !== 'lead')
    throw new TeamProblem('refused', `Only a lead of ${team.workspace} changes its four-eyes policy.`);
  const intent: TeamIntent = {
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
  };
  const { signPrivate } = await team.keys();
  const answer = await team.connection.with(async (db) => {
    const result = await db.query<{ answer: { seq: number } }>('SELECT team.set_policy($1, $2::jsonb) AS answer', [
      team.workspace,
      payloadOf(intent, signIntent(signPrivate, intentBytes(intent))),
    ]);
    return result.rows[0]?.answer;
  });
  if (answer === undefined) throw new TeamProblem('refused', 'The team server did not record the policy.');
  await team.sync.pull();
  return { workspace: team.workspace, rules: checked.rules, seq: answer.seq };
}
