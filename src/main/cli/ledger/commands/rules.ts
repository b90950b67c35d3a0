/** `ledger rules`, `rules add RULE …`, `rules remove RULE`: a profile's watch rules. */
import { describeRule, type WatchRuleInput } from '../../../../shared/review/watchRule.ts';
import { defined, read } from '../cliArguments.ts';
import { table } from '../cliOutput.ts';
import type { CommandContext } from '../triggerCommand.ts';

export async function rulesList(context: CommandContext): Promise<number> {
  const services = await context.open();
  const profile = await context.profile(services, false);
  const rules = services.reviews.rules.list(profile.id);
  if (context.arguments.json) context.printJson({ rows: rules });
  else if (rules.length === 0) context.print(`${profile.name} has no watch rules.`);
  else
    context.print(
      table(
        ['NAME', 'KIND', 'MATCHES'],
        rules.map((rule) => [rule.name, rule.kind, describeRule(rule)]),
      ),
    );
  return 0;
}

export async function rulesAdd(context: CommandContext): Promise<number> {
  const { options } = context.arguments;
  const text = (
    option:
      | 'amount-beyond'
      | 'description-has'
      | 'type'
      | 'type-source'
      | 'application-status'
      | 'send-status'
      | 'citizenship-outside',
  ) => (typeof options[option] === 'string' ? options[option] : undefined);
  const input = {
    name: context.arguments.name ?? '',
    kind: read.reviewKind(options),
    ...defined({
      amountBeyond: text('amount-beyond'),
      descriptionHas: text('description-has'),
      type: text('type'),
      typeSource: text('type-source'),
      applicationStatus: text('application-status'),
      applicantYoungerThan: read.wholeNumber(options, 'younger-than', 150),
      applicantOlderThan: read.wholeNumber(options, 'older-than', 150),
      citizenshipOutside: text('citizenship-outside'),
      sendStatus: text('send-status'),
      attemptAtLeast: read.wholeNumber(options, 'attempt-at-least', 1000),
    }),
  } as WatchRuleInput;
  const services = await context.open();
  const profile = await context.profile(services, false);
  const saved = services.reviews.saveRule(profile.id, input);
  if (context.arguments.json) context.printJson({ rule: saved });
  else
    context.print(
      `Saved watch rule "${saved.name}" of ${profile.name} (${describeRule(saved)}); it applies after each sync.`,
    );
  return 0;
}

export async function rulesRemove(context: CommandContext): Promise<number> {
  const services = await context.open();
  const profile = await context.profile(services, false);
  services.reviews.removeRule(profile.id, context.arguments.name ?? '');
  if (context.arguments.json) context.printJson({ removed: context.arguments.name });
  else
    context.print(`Removed watch rule "${context.arguments.name ?? ''}" of ${profile.name}; the flags it made stay.`);
  return 0;
}
