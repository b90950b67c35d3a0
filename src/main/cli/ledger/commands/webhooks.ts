/**
 * `ledger webhooks list|add|update|remove --profile NAME`: a profile's webhooks, asked of and
 * written to the bank. The bank keeps one webhook per event, so `add` with several --event
 * makes one each, and the listing groups them by the address they post to. Each write goes
 * through BankWrites: production needs --yes, and the audit log records it. A Basic secret is
 * read from standard input, never from an argument.
 */
import type { WebhookResponse, WebhookUpdateRequest } from '../../../../shared/bank/index.ts';
import { eventName, parseWith, webhookUrl } from '../../../../shared/bank/index.ts';
import { readSecret, type SecretInput } from '../readSecret.ts';
import { defined, read, type Values } from '../cliArguments.ts';
import { UsageError } from '../../common/usageError.ts';
import type { CommandContext } from '../triggerCommand.ts';
import { groupByAddress, type WebhookGroup } from '../webhookSubscriptions.ts';

export type WebhookCommandContext = CommandContext & SecretInput;

/** Every --event given (the option may repeat), each checked as an event name. */
function eventsOf(values: Values): string[] {
  const given = values.event;
  const list = Array.isArray(given) ? given : typeof given === 'string' ? [given] : [];
  return list.map((event) => {
    const parsed = parseWith(eventName, event);
    if (!parsed.ok) throw new UsageError(`--event ${event}: ${parsed.problems.join('; ').replace(/^: /, '')}`);
    return parsed.value;
  });
}

function urlOf(values: Values): string | undefined {
  const url = read.text(values, 'url');
  if (url === undefined) return undefined;
  if (!parseWith(webhookUrl, url).ok) throw new UsageError(`--url: must be an absolute http:// or https:// URL.`);
  return url;
}

function printGroups(context: CommandContext, groups: readonly WebhookGroup[]): void {
  for (const group of groups) {
    context.print(
      `${group.url}${group.basicUser === null ? ' (no Basic credentials)' : ` (Basic user ${group.basicUser})`}`,
    );
    const width = Math.max(...group.webhooks.map((webhook) => webhook.event.length));
    for (const webhook of group.webhooks) {
      const error = webhook.error === null ? '' : `  ${webhook.error}`;
      context.print(`  ${webhook.event.padEnd(width)}  ${webhook.status.padEnd(8)}  ${webhook.id}${error}`);
    }
  }
}

function count(webhooks: number): string {
  return `${String(webhooks)} webhook${webhooks === 1 ? '' : 's'}`;
}

export async function webhooksList(context: CommandContext): Promise<number> {
  const events = eventsOf(context.arguments.options);
  const services = await context.open();
  const profile = await context.profile(services);
  const all = await services.clients.clientFor(profile.id).listWebhooks(context.signal);
  const webhooks = events.length === 0 ? all : all.filter((webhook) => events.includes(webhook.event ?? ''));
  const groups = groupByAddress(webhooks);
  if (context.arguments.json) {
    context.printJson({ asOf: new Date().toISOString(), source: 'bank', groups });
    return 0;
  }
  if (webhooks.length === 0) {
    context.print(
      `${profile.name} has no webhooks${events.length === 0 ? '' : ` for ${events.join(', ')}`}: add one with \`webhooks add --profile NAME --url URL --event E\`.`,
    );
    return 0;
  }
  context.print(
    `${count(webhooks.length)} at ${groups.length === 1 ? '1 address' : `${String(groups.length)} addresses`} (${profile.name}):`,
  );
  printGroups(context, groups);
  return 0;
}

export async function webhooksAdd(context: WebhookCommandContext): Promise<number> {
  const { options } = context.arguments;
  const events = eventsOf(options);
  if (events.length === 0) throw new UsageError('`webhooks add` needs at least one --event.');
  const url = urlOf(options) ?? '';
  const basicUser = read.text(options, 'basic');
  if (basicUser !== undefined && basicUser.includes(':'))
    throw new UsageError('--basic: the Basic user cannot contain a colon.');
  const basicSecret = basicUser === undefined ? undefined : await readSecret(context, `Basic secret for ${basicUser}`);
  const services = await context.open();
  const profile = await context.profile(services);
  const confirmation = { confirmProduction: options.yes === true, ...defined({ signal: context.signal }) };
  const made: WebhookResponse[] = [];
  try {
    for (const event of new Set(events)) {
      made.push(
        await services.writes.createWebhook(
          profile.id,
          { event, url, ...(basicUser === undefined ? {} : { basic_user: basicUser, basic_secret: basicSecret }) },
          confirmation,
        ),
      );
    }
  } catch (error) {
    // All or nothing: the webhooks made before the failure are removed again, and the user told.
    const undone: string[] = [];
    for (const webhook of made) {
      try {
        await services.writes.deleteWebhook(profile.id, webhook.id, confirmation);
        undone.push(webhook.id);
      } catch {
        // Said below: those left stay listed by `webhooks list`.
      }
    }
    const left = made.filter((webhook) => !undone.includes(webhook.id)).map((webhook) => webhook.id);
    const message = error instanceof Error ? error.message : String(error);
    const note =
      made.length === 0
        ? ''
        : left.length === 0
          ? ` The ${count(made.length)} made before it ${made.length === 1 ? 'was' : 'were'} removed again.`
          : ` Still at the bank: ${left.join(', ')} (remove with \`webhooks remove ID\`).`;
    if (error instanceof Error) {
      error.message = message + note;
      throw error;
    }
    throw new Error(message + note, { cause: error });
  }
  const groups = groupByAddress(made);
  if (context.arguments.json) {
    context.printJson({ created: made.map((webhook) => webhook.id), groups });
    return 0;
  }
  context.print(`Added ${count(made.length)} on ${profile.name} (one per event):`);
  printGroups(context, groups);
  return 0;
}

export async function webhooksUpdate(context: WebhookCommandContext): Promise<number> {
  const { options } = context.arguments;
  const id = context.arguments.name ?? '';
  const events = eventsOf(options);
  if (events.length > 1) throw new UsageError('`webhooks update` takes one --event: a webhook is for one event.');
  const basicUser = read.text(options, 'basic');
  if (basicUser !== undefined && basicUser.includes(':'))
    throw new UsageError('--basic: the Basic user cannot contain a colon.');
  const status = read.webhookStatus(options);
  if (status === 'error') throw new UsageError('--status: error is set only by the bank; use enabled or disabled.');
  const changes: WebhookUpdateRequest = defined({
    url: urlOf(options),
    event: events[0],
    status,
  });
  if (basicUser !== undefined) {
    changes.basic_user = basicUser;
    changes.basic_secret = await readSecret(context, `Basic secret for ${basicUser}`);
  }
  if (Object.keys(changes).length === 0)
    throw new UsageError('Say what to change: --url, --event, --status enabled|disabled or --basic USER.');
  const services = await context.open();
  const profile = await context.profile(services);
  const updated = await services.writes.updateWebhook(profile.id, id, changes, {
    confirmProduction: options.yes === true,
    ...defined({ signal: context.signal }),
  });
  if (context.arguments.json) context.printJson({ webhook: updated });
  else {
    context.print(`Updated webhook ${id} on ${profile.name}:`);
    printGroups(context, groupByAddress([updated]));
  }
  return 0;
}

/** `webhooks remove ID`, or `webhooks remove --url URL`: every webhook posting to that address. */
export async function webhooksRemove(context: CommandContext): Promise<number> {
  const { options, name } = context.arguments;
  const url = urlOf(options);
  if ((name === null) === (url === undefined))
    throw new UsageError(
      '`webhooks remove` takes a webhook ID or --url URL (every webhook posting there), one of the two.',
    );
  const services = await context.open();
  const profile = await context.profile(services);
  const ids =
    name !== null
      ? [name]
      : (await services.clients.clientFor(profile.id).listWebhooks(context.signal))
          .filter((webhook) => webhook.url === url)
          .map((webhook) => webhook.id);
  const confirmation = { confirmProduction: options.yes === true, ...defined({ signal: context.signal }) };
  for (const id of ids) await services.writes.deleteWebhook(profile.id, id, confirmation);
  if (context.arguments.json) context.printJson({ removed: ids });
  else if (ids.length === 0) context.print(`No webhook of ${profile.name} posts to ${url ?? ''}; nothing removed.`);
  else context.print(`Removed ${count(ids.length)} from ${profile.name}: ${ids.join(', ')}.`);
  return 0;
}
