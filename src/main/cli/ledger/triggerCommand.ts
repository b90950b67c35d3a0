/**
 * `ledger trigger EVENT|--scenario FILE` and `ledger events`: make the bank send an event
 * (or run a scenario, one line per step as it happens), and the catalog of events. The work
 * is the TriggerService's, shared with the Trigger panel; this file reads options and prints.
 */
import { EVENT_CATALOG, NOTIFICATION_FIELDS, TRIGGERABLE_EVENTS } from '../../../shared/eventCatalog/eventCatalog.ts';
import type { ScenarioStepOutcome } from '../../../shared/eventCatalog/scenario.ts';
import { triggerParameters, triggerRequest, type TriggerResult } from '../../../shared/eventCatalog/trigger.ts';
import { parseWith } from '../../../shared/bank/index.ts';
import type { LedgerServices } from '../../services/ledgerServices.ts';
import type { Profile } from '../../services/profiles/profile.ts';
import { loadScenario, SHIPPED_SCENARIOS } from '../../services/trigger/scenarioFiles.ts';
import { defined, type LedgerArguments } from './cliArguments.ts';
import { UsageError } from '../common/usageError.ts';
import { describeSubscribers, subscribeCommand, subscribersOf, type EventSubscribers } from './webhookSubscriptions.ts';

export interface CommandContext {
  arguments: LedgerArguments;
  /** Where the app keeps its data (the cache, and what `--next` remembers). */
  dataFolder: string;
  open(): Promise<LedgerServices>;
  /**
   * The --profile, with the embedded sandbox started when it is the one (unless the command
   * only reads the cache: needsBank false).
   */
  profile(services: LedgerServices, needsBank?: boolean): Promise<Profile>;
  /** Waits (bounded) until the embedded sandbox has made the deliveries it owes now. */
  deliveriesMade(): Promise<string | null>;
  print(text: string): void;
  printJson(value: unknown): void;
  signal?: AbortSignal;
}

export const EXIT_OK = 0;
const EXIT_FAILED = 1;

function triggerOptions(context: CommandContext) {
  const { options } = context.arguments;
  const text = (name: 'account' | 'application' | 'webhook' | 'ach' | 'status' | 'amount') =>
    typeof options[name] === 'string' ? options[name] : undefined;
  const parameters = defined({
    accountId: text('account'),
    applicationId: text('application'),
    webhookId: text('webhook'),
    achId: text('ach'),
    status: text('status'),
    amount: text('amount'),
  });
  const parsed = parseWith(triggerParameters, parameters);
  if (!parsed.ok) throw new UsageError(asFlags(parsed.problems).join('; '));
  return parsed.value;
}

const FLAGS: Readonly<Record<string, string>> = {
  accountId: 'account',
  applicationId: 'application',
  webhookId: 'webhook',
  achId: 'ach',
  status: 'status',
  amount: 'amount',
};

/** `accountId: must be …` → `--account: must be …`: the problem named as the user typed it. */
function asFlags(problems: readonly string[]): string[] {
  return problems.map((problem) => problem.replace(/^(\w+): /, (_, field: string) => `--${FLAGS[field] ?? field}: `));
}

/**
 * Per event caused, how many webhooks the bank will post it to; null when the bank's webhook
 * list cannot be read (the trigger itself succeeded: that is said, not thrown).
 */
async function subscribersFor(
  context: CommandContext,
  services: LedgerServices,
  profile: Profile,
  events: readonly string[],
): Promise<EventSubscribers[] | null> {
  if (events.length === 0) return [];
  try {
    return subscribersOf(await services.clients.clientFor(profile.id).listWebhooks(context.signal), events);
  } catch {
    return null;
  }
}

/** Which events nobody receives, and the command that subscribes a listener to them. */
function printUnheard(context: CommandContext, profile: Profile, subscribers: EventSubscribers[] | null): void {
  if (subscribers === null) {
    context.print("(The bank's webhook list could not be read: whether a webhook receives these events is unknown.)");
    return;
  }
  const unheard = subscribers.filter((entry) => entry.enabled === 0).map((entry) => entry.event);
  if (unheard.length === 0) return;
  context.print(
    `No webhook receives ${unheard.join(', ')}: nothing was sent for ${unheard.length === 1 ? 'it' : 'them'}. Subscribe a listener with:`,
  );
  context.print(`  ${subscribeCommand(profile.name, unheard)}`);
}

function printResult(
  context: CommandContext,
  profile: Profile,
  result: TriggerResult,
  subscribers: EventSubscribers[] | null,
): void {
  if (context.arguments.json) {
    context.printJson({ ...result, subscribers });
    return;
  }
  context.print(`Triggered ${result.event} on profile ${result.profileName}: ${result.objectId}.`);
  for (const call of result.calls) context.print(`  ${call.request} → ${call.outcome}`);
  context.print('Events caused (sent to the webhooks subscribed to them):');
  const width = Math.max(...result.caused.map((notification) => notification.event.length));
  for (const notification of result.caused) {
    const heard = subscribers?.find((entry) => entry.event === notification.event);
    context.print(
      `  ${notification.event.padEnd(width)}  ${notification.id}  ${notification.url}${heard === undefined ? '' : `  (${describeSubscribers(heard)})`}`,
    );
  }
  printUnheard(context, profile, subscribers);
  context.print('The object now:');
  context.print(JSON.stringify(result.object, null, 2));
}

function printStep(context: CommandContext, outcome: ScenarioStepOutcome): void {
  if (context.arguments.json) {
    context.printJson({ step: outcome });
    return;
  }
  const number = `[${String(outcome.index + 1)}/${String(outcome.total)}]`;
  if (outcome.state === 'running') {
    context.print(`${number} ${outcome.title} …`);
    return;
  }
  const events = outcome.caused.map((notification) => `${notification.event} ${notification.id}`).join(', ');
  context.print(
    `${number} ${outcome.state === 'ok' ? 'ok' : 'FAILED'}: ${outcome.detail}${events === '' ? '' : ` (caused ${events})`}`,
  );
}

export async function runTrigger(context: CommandContext): Promise<number> {
  const { options, name } = context.arguments;
  const scenarioName = typeof options.scenario === 'string' ? options.scenario : undefined;
  if (scenarioName !== undefined && name !== null) {
    throw new UsageError('Give either an EVENT or --scenario FILE, not both.');
  }
  if (scenarioName === undefined && name === null) {
    throw new UsageError(
      `\`trigger\` needs an EVENT (${TRIGGERABLE_EVENTS.join(', ')}) or --scenario FILE (shipped: ${SHIPPED_SCENARIOS.map((entry) => entry.id).join(', ')}).`,
    );
  }
  const confirmRemote = options.yes === true;
  if (scenarioName !== undefined) {
    const scenario = await loadScenario(scenarioName);
    const causedEvents: { event: string }[] = [];
    const services = await context.open();
    const profile = await context.profile(services);
    const result = await services.trigger.runScenario(profile.id, scenario, {
      confirmRemote,
      onStep: (outcome) => {
        causedEvents.push(...outcome.caused);
        printStep(context, outcome);
      },
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    const owed = await context.deliveriesMade();
    const subscribers = await subscribersFor(
      context,
      services,
      profile,
      causedEvents.map((notification) => notification.event),
    );
    if (context.arguments.json) context.printJson({ scenario: result.name, state: result.state, owed, subscribers });
    else {
      for (const entry of subscribers ?? []) context.print(`  ${entry.event}: ${describeSubscribers(entry)}`);
      printUnheard(context, profile, subscribers);
      context.print(`Scenario "${result.name}" ${result.state}.${owed === null ? '' : ` ${owed}`}`);
    }
    return result.state === 'completed' ? EXIT_OK : EXIT_FAILED;
  }
  const parsed = parseWith(triggerRequest, { event: name, ...triggerOptions(context) });
  if (!parsed.ok) {
    const [eventProblem] = parsed.problems.filter((problem) => problem.startsWith('event: '));
    throw new UsageError(
      eventProblem === undefined
        ? asFlags(parsed.problems).join('; ')
        : `EVENT ${String(name)}: ${eventProblem.replace(/^event: /, '')}`,
    );
  }
  const services = await context.open();
  const profile = await context.profile(services);
  const result = await services.trigger.trigger(profile.id, parsed.value, {
    confirmRemote,
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  const subscribers = await subscribersFor(
    context,
    services,
    profile,
    result.caused.map((notification) => notification.event),
  );
  printResult(context, profile, result, subscribers);
  const owed = await context.deliveriesMade();
  if (owed !== null && !context.arguments.json) context.print(owed);
  return EXIT_OK;
}

export function runEvents(context: CommandContext): number {
  if (context.arguments.json) {
    context.printJson({ notification: NOTIFICATION_FIELDS, events: EVENT_CATALOG });
    return EXIT_OK;
  }
  context.print('Every notification is a POST with this JSON body (no signature; Basic auth when the webhook has it):');
  for (const field of NOTIFICATION_FIELDS) context.print(`  ${field.name.padEnd(5)}  ${field.rule}`);
  context.print('');
  for (const entry of EVENT_CATALOG) {
    context.print(`${entry.event}${entry.sandbox ? '' : '  (real service only)'}`);
    context.print(`  Caused by: ${entry.causes}`);
    if (entry.trigger !== null) context.print(`  Trigger:   ${entry.trigger}`);
    context.print(`  Example:   ${JSON.stringify(entry.example)}`);
  }
  return EXIT_OK;
}
