/**
 * Making the bank send an event on purpose, for the command line (`ledger trigger`) and the
 * Trigger panel alike: the guard (sandbox profiles yes; a remote non-production profile only
 * where the bank answers /simulation and after the user confirms; production never), the
 * audit entry of every attempt, and scenarios run step by step with each outcome reported.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TriggerRequest, TriggerResult } from '../../../shared/eventCatalog/trigger.ts';
import { triggerRequest } from '../../../shared/eventCatalog/trigger.ts';
import { parseWith } from '../../../shared/bank/index.ts';
import {
  REFERENCE,
  type Scenario,
  type ScenarioRunResult,
  type ScenarioStep,
  type ScenarioStepOutcome,
} from '../../../shared/eventCatalog/scenario.ts';
import type { AuditLog } from '../audit/auditLog.ts';
import { BankError } from '../bank/bankError.ts';
import type { BankClients } from '../bank/bankClients.ts';
import type { Profile } from '../profiles/profile.ts';
import type { Profiles } from '../profiles/profiles.ts';
import { ScenarioFileProblem } from './scenarioFiles.ts';
import { TriggerActions, TriggerProblem, type ActionOutcome } from './triggerActions.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

/** Never on production; nowhere the bank has no /simulation. */
export class TriggerRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TriggerRefused';
  }

  get answer(): ContractAnswer {
    return { code: 'not_available' };
  }
}

/** A remote profile: the user must say yes first (it changes data at someone else's sandbox). */
export class TriggerNeedsConfirmation extends Error {
  readonly profileName: string;
  constructor(profileName: string, baseUrl: string) {
    super(
      `Profile ${profileName} is a remote bank (${baseUrl}): triggering creates and moves objects there. Confirm to go ahead.`,
    );
    this.name = 'TriggerNeedsConfirmation';
    this.profileName = profileName;
  }

  get answer(): ContractAnswer {
    return {
      code: 'confirmation_required',
      field: 'confirmRemote',
      action: 'Confirm that you mean to create and move objects at this remote bank, then trigger again.',
    };
  }
}

/** The failures whose message is the whole story (the command line prints it as is). */
export const TRIGGER_FAILURES = [TriggerRefused, TriggerNeedsConfirmation, TriggerProblem, ScenarioFileProblem];

export interface TriggerOptions {
  /** The user confirmed triggering on a remote (non-production) profile. */
  confirmRemote?: boolean;
  signal?: AbortSignal;
}

export interface ScenarioOptions extends TriggerOptions {
  /** Told as each step starts and ends. */
  onStep?: (outcome: ScenarioStepOutcome) => void;
  runId?: string;
}

export interface TriggerServiceOptions {
  profiles: Profiles;
  clients: BankClients;
  audit: () => AuditLog;
}

/** How often a wait_for_sends step asks the bank's send log again. */
const SEND_POLL_MS = 250;

export class TriggerService {
  readonly #options: TriggerServiceOptions;

  constructor(options: TriggerServiceOptions) {
    this.#options = options;
  }

  async trigger(profileId: string, request: TriggerRequest, options: TriggerOptions = {}): Promise<TriggerResult> {
    const valid = checkedRequest(request);
    const profile = this.#options.profiles.find(profileId);
    await this.#allow(profile, `trigger ${valid.event}`, options);
    const outcome = await this.#audited(profile, `trigger.${valid.event}`, () =>
      new TriggerActions(this.#client(profile), options.signal).run(valid),
    );
    return { event: valid.event, profileName: profile.name, ...outcome };
  }

  async runScenario(profileId: string, scenario: Scenario, options: ScenarioOptions = {}): Promise<ScenarioRunResult> {
    const profile = this.#options.profiles.find(profileId);
    await this.#allow(profile, `scenario "${scenario.name}"`, options);
    const runId = options.runId ?? randomUUID();
    const results = new Map<string, ActionOutcome>();
    const outcomes: ScenarioStepOutcome[] = [];
    const total = scenario.steps.length;
    let state: ScenarioRunResult['state'] = 'completed';
    for (const [index, step] of scenario.steps.entries()) {
      const base = { runId, index, total, action: step.action, title: step.title ?? titleOf(step) };
      options.onStep?.({ ...base, state: 'running', detail: 'Running…', objectId: null, caused: [] });
      let outcome: ScenarioStepOutcome;
      try {
        const result = await this.#runStep(profile, step, results, options.signal);
        if (step.id !== undefined && result !== null) results.set(step.id, result);
        outcome = {
          ...base,
          state: 'ok',
          detail:
            result === null
              ? `Waited ${step.action === 'wait' ? `${String(step.ms)} ms` : ''}.`
              : result.calls.map((call) => call.outcome).join('; ') || 'Done.',
          objectId: result?.objectId ?? null,
          caused: result?.caused ?? [],
        };
      } catch (error) {
        const cancelled = options.signal?.aborted === true;
        state = cancelled ? 'cancelled' : 'failed';
        outcome = {
          ...base,
          state: 'failed',
          detail: cancelled ? 'Stopped.' : error instanceof Error ? error.message : String(error),
          objectId: null,
          caused: [],
        };
      }
      outcomes.push(outcome);
      options.onStep?.(outcome);
      if (state !== 'completed') break;
    }
    this.#options.audit().record({
      profileId: profile.id,
      profileName: profile.name,
      action: 'trigger.scenario',
      target: scenario.name.slice(0, 120),
      result: state === 'completed' ? 'ok' : 'failed',
      ...(state === 'completed' ? {} : { detail: outcomes.at(-1)?.detail ?? state }),
    });
    return { runId, name: scenario.name, state, steps: outcomes };
  }

  async #runStep(
    profile: Profile,
    step: ScenarioStep,
    results: ReadonlyMap<string, ActionOutcome>,
    signal: AbortSignal | undefined,
  ): Promise<ActionOutcome | null> {
    const resolve = (value: string): string => resolveReference(value, results);
    const actions = new TriggerActions(this.#client(profile), signal);
    switch (step.action) {
      case 'trigger': {
        const request = checkedRequest({
          event: step.event,
          ...Object.fromEntries(Object.entries(step.with).map(([name, value]) => [name, resolve(value)])),
        });
        return this.#audited(profile, `trigger.${step.event}`, () => actions.run(request));
      }
      case 'register_webhook':
        return this.#audited(profile, 'webhook.create', () => actions.registerWebhook(step.event, resolve(step.url)));
      case 'update_webhook':
        return this.#audited(profile, 'webhook.update', () =>
          actions.updateWebhook(resolve(step.webhookId), {
            ...(step.status === undefined ? {} : { status: step.status }),
            ...(step.url === undefined ? {} : { url: resolve(step.url) }),
          }),
        );
      case 'delete_webhook':
        return this.#audited(profile, 'webhook.delete', () => actions.deleteWebhook(resolve(step.webhookId)));
      case 'wait':
        await sleep(step.ms, undefined, signal === undefined ? {} : { signal });
        return null;
      case 'submit_application':
        return this.#audited(profile, 'trigger.submit_application', () =>
          actions.submitApplicationWithTin(
            step.ownership,
            step.outcome,
            step.accountProductId === undefined ? undefined : resolve(step.accountProductId),
          ),
        );
      case 'wait_for_application': {
        const id = resolve(step.applicationId);
        const deadline = Date.now() + step.timeoutMs;
        for (;;) {
          const status = await actions.applicationStatus(id);
          if (status === step.status) {
            return {
              objectId: id,
              object: { id, status },
              caused: [],
              calls: [{ request: `GET /apply/account_application/${id}`, outcome: `now ${status}` }],
            };
          }
          if (Date.now() >= deadline) {
            throw new TriggerProblem(
              `After ${String(step.timeoutMs)} ms account application ${id} is ${status ?? 'of no status'}, not ${step.status}.`,
            );
          }
          await sleep(SEND_POLL_MS, undefined, signal === undefined ? {} : { signal });
        }
      }
      case 'wait_for_sends': {
        const filters = {
          status: step.status,
          ...(step.webhookId === undefined ? {} : { webhook_id: resolve(step.webhookId) }),
          ...(step.objectId === undefined ? {} : { object_id: resolve(step.objectId) }),
        };
        const deadline = Date.now() + step.timeoutMs;
        for (;;) {
          const seen = await actions.countSends(filters);
          if (seen >= step.count) {
            return {
              objectId: filters.webhook_id ?? filters.object_id ?? '',
              object: { ...filters, count: seen },
              caused: [],
              calls: [{ request: 'GET /webhook_send', outcome: `${String(seen)} ${step.status} send records` }],
            };
          }
          if (Date.now() >= deadline) {
            throw new TriggerProblem(
              `After ${String(step.timeoutMs)} ms the bank has ${String(seen)} of ${String(step.count)} ${step.status} send records for ${JSON.stringify(filters)}.`,
            );
          }
          await sleep(SEND_POLL_MS, undefined, signal === undefined ? {} : { signal });
        }
      }
    }
  }

  /**
   * Sandbox profiles: yes. Production: never (refused and audited). Remote: only when the
   * bank answers POST /simulation (an empty body must be refused as bad input, not as an
   * unknown path) and the user confirmed.
   */
  async #allow(profile: Profile, what: string, options: TriggerOptions): Promise<void> {
    if (profile.production) {
      const refusal = new TriggerRefused(
        `Profile ${profile.name} is a production profile: ${what} is never run against production (it would create and move real objects). Use a sandbox profile.`,
      );
      this.#options.audit().record({
        profileId: profile.id,
        profileName: profile.name,
        action: 'trigger',
        target: what.slice(0, 120),
        result: 'refused',
        detail: refusal.message,
      });
      throw refusal;
    }
    if (profile.kind === 'embedded-sandbox') return;
    const client = this.#client(profile);
    try {
      await client.http.send({
        method: 'POST',
        path: '/simulation',
        endpoint: 'POST /simulation',
        json: {},
        idempotencyKey: randomUUID(),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      if (!(error instanceof BankError)) throw error;
      if (error.kind === 'not-found' || error.status === 405) {
        throw new TriggerRefused(
          `The bank of profile ${profile.name} (${client.baseUrl}) does not answer POST /simulation, so it cannot be made to send events: only sandboxes can.`,
        );
      }
      if (error.kind !== 'bad-request' && error.kind !== 'unprocessable') throw error;
    }
    if (options.confirmRemote !== true) throw new TriggerNeedsConfirmation(profile.name, client.baseUrl);
  }

  async #audited<Result extends { objectId: string }>(
    profile: Profile,
    action: string,
    run: () => Promise<Result>,
  ): Promise<Result> {
    const audit = this.#options.audit();
    try {
      const result = await run();
      audit.record({ profileId: profile.id, profileName: profile.name, action, target: result.objectId, result: 'ok' });
      return result;
    } catch (error) {
      audit.record({
        profileId: profile.id,
        profileName: profile.name,
        action,
        target: action,
        result: 'failed',
        detail: error instanceof Error ? error.message : String(error),
      });
      throw error;
    }
  }

  #client(profile: Profile) {
    return this.#options.clients.clientFor(profile.id);
  }
}

/** A trigger request checked as the command line and the app check it: a mistake is one sentence naming the field. */
function checkedRequest(value: unknown): TriggerRequest {
  const parsed = parseWith(triggerRequest, value);
  if (!parsed.ok) throw new TriggerProblem(`${parsed.problems.join('; ')}.`);
  return parsed.value;
}

/** `{{step.objectId}}` / `{{step.object.a.b}}` → the earlier result's value; other text as is. */
function resolveReference(value: string, results: ReadonlyMap<string, ActionOutcome>): string {
  const match = REFERENCE.exec(value);
  if (match === null) return value;
  const [, stepId = '', path = ''] = match;
  const result = results.get(stepId);
  if (result === undefined) throw new TriggerProblem(`${value}: step "${stepId}" has no result.`);
  if (path === 'objectId') return result.objectId;
  let current: unknown = result.object;
  for (const key of path.split('.').slice(1)) {
    current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  }
  if (typeof current !== 'string' && typeof current !== 'number') {
    throw new TriggerProblem(`${value}: step "${stepId}"'s result has no text at ${path}.`);
  }
  return String(current);
}

function titleOf(step: ScenarioStep): string {
  switch (step.action) {
    case 'trigger':
      return `Trigger ${step.event}${step.with.status === undefined ? '' : ` → ${step.with.status}`}`;
    case 'register_webhook':
      return `Register a webhook for ${step.event}`;
    case 'update_webhook':
      return `Update webhook ${step.webhookId}`;
    case 'delete_webhook':
      return `Delete webhook ${step.webhookId}`;
    case 'wait':
      return `Wait ${String(step.ms)} ms`;
    case 'wait_for_sends':
      return `Wait for ${String(step.count)} ${step.status} send record${step.count === 1 ? '' : 's'}`;
    case 'submit_application':
      return `Submit a ${step.ownership} application its TINs ask to be ${step.outcome.replace('_', ' ')}`;
    case 'wait_for_application':
      return `Wait until the application is ${step.status.replace('_', ' ')}`;
  }
}
