/**
 * `ledger team policy`: the workspace's four-eyes policy (which moves need a second officer).
 * Without options it prints the policy; a lead changes it with `--require from>to` (repeated)
 * or `--none`. The change is signed by the lead, chained in the team's history, checked again
 * by the server (a lead only), and recorded in this laptop's audit log.
 */
import { readPolicy, setPolicy } from '../../../services/team/teamPolicy.ts';
import { UsageError } from '../../common/usageError.ts';
import { audit, withTeam, type TeamCommandContext } from './team.ts';

const EXIT_OK = 0;

function describe(rules: readonly string[]): string {
  if (rules.length === 0) return 'No move needs a second officer: every proposal takes effect at once.';
  return `A second officer approves: ${rules.map((rule) => rule.replace('>', ' → ')).join(', ')}.`;
}

export function teamPolicy(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (services, team) => {
    const options = context.arguments.options;
    const required = options.require;
    const rules = Array.isArray(required) ? required : typeof required === 'string' ? [required] : null;
    const none = options.none === true;
    if (rules !== null && none) throw new UsageError('`team policy` takes --require RULE… or --none, not both.');
    if (rules === null && !none) {
      const policy = await readPolicy(team);
      if (context.arguments.json) context.printJson(policy);
      else context.print(`Four-eyes policy of ${policy.workspace}: ${describe(policy.rules)}`);
      return EXIT_OK;
    }
    const wanted = rules ?? [];
    try {
      const policy = await setPolicy(team, wanted);
      audit(services, team, 'team.policy', team.workspace, 'ok', policy.rules.join(',') || '(none)');
      if (context.arguments.json) context.printJson(policy);
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
