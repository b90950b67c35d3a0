/**
 * `ledger team policy`: the workspace's four-eyes policy (which moves need a second officer),
 * as the verified history makes it. Without options it prints the policy and any weaker one
 * waiting; a lead changes it with `--require from>to` (repeated) or `--none`. The change is
 * signed by the lead, chained in the team's history, checked again by the server (a lead only),
 * and recorded in this laptop's audit log. A weaker policy waits until a second lead runs
 * `--approve` (or a lead `--withdraw`s it): one lead cannot switch four-eyes off alone.
 */
import { decidePolicy, readPolicy, setPolicy, type TeamPolicy } from '../../../services/team/teamPolicy.ts';
import { UsageError } from '../../common/usageError.ts';
import { audit, withTeam, type TeamCommandContext } from './team.ts';

const EXIT_OK = 0;

function describe(rules: readonly string[]): string {
  if (rules.length === 0) return 'No move needs a second officer: every proposal takes effect at once.';
  return `A second officer approves: ${rules.map((rule) => rule.replace('>', ' → ')).join(', ')}.`;
}

function describePending(policy: TeamPolicy): string {
  if (policy.pending === null) return '';
  return ` Waiting for a second lead (proposed by ${policy.pending.by}, event ${String(policy.pending.seq)}): ${describe(policy.pending.rules)} Until a second lead runs \`ledger team policy --approve\`, the rules above hold.`;
}

export function teamPolicy(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (services, team) => {
    const options = context.arguments.options;
    const required = options.require;
    const rules = Array.isArray(required) ? required : typeof required === 'string' ? [required] : null;
    const none = options.none === true;
    const decision = options.approve === true ? 'approve' : options.withdraw === true ? 'reject' : null;
    if ([rules !== null, none, options.approve === true, options.withdraw === true].filter(Boolean).length > 1)
      throw new UsageError('`team policy` takes one of --require RULE…, --none, --approve or --withdraw.');
    if (decision !== null) {
      try {
        const policy = await decidePolicy(team, decision);
        audit(services, team, `team.policy-${decision}`, team.workspace, 'ok', policy.rules.join(',') || '(none)');
        if (context.arguments.json) context.printJson(policy);
        else
          context.print(
            `${decision === 'approve' ? 'Approved' : 'Withdrew'} the weaker policy (event ${String(policy.seq)}). Four-eyes policy of ${policy.workspace}: ${describe(policy.rules)}`,
          );
      } catch (error) {
        audit(
          services,
          team,
          `team.policy-${decision}`,
          team.workspace,
          'refused',
          error instanceof Error ? error.message : String(error),
        );
        throw error;
      }
      return EXIT_OK;
    }
    if (rules === null && !none) {
      const policy = await readPolicy(team);
      if (context.arguments.json) context.printJson(policy);
      else
        context.print(`Four-eyes policy of ${policy.workspace}: ${describe(policy.rules)}${describePending(policy)}`);
      return EXIT_OK;
    }
    const wanted = rules ?? [];
    try {
      const policy = await setPolicy(team, wanted);
      audit(
        services,
        team,
        'team.policy',
        team.workspace,
        'ok',
        `${wanted.join(',') || '(none)'}${policy.outcome === 'pending' ? ' (waits for a second lead)' : ''}`,
      );
      if (context.arguments.json) context.printJson(policy);
      else if (policy.outcome === 'pending')
        context.print(
          `The new policy is weaker than the one in force, so it waits for a second lead (event ${String(policy.seq)}); every officer sees it. Until another lead runs \`ledger team policy --approve\`: ${describe(policy.rules)}`,
        );
      else
        context.print(
          `Four-eyes policy of ${policy.workspace} changed (event ${String(policy.seq)}): ${describe(policy.rules)}`,
        );
    } catch (error) {
      audit(
        services,
        team,
        'team.policy',
        team.workspace,
        'refused',
        error instanceof Error ? error.message : String(error),
      );
      throw error;
    }
    return EXIT_OK;
  });
}
