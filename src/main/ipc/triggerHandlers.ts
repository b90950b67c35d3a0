/**
 * Handlers of the trigger domain, wired to the TriggerService (the same one `ledger trigger`
 * uses). A running scenario pushes each step's outcome as `trigger.step` and can be stopped.
 */
import { scenarioOf, SHIPPED_SCENARIOS } from '../services/trigger/scenarioFiles.ts';
import type { LedgerServices } from '../services/ledgerServices.ts';
import type { Scenario } from '../../shared/eventCatalog/scenario.ts';
import type { EventPublisher } from './eventPublisher.ts';
import type { Handlers } from './handlerTypes.ts';
import { IpcFailure } from './serviceErrors.ts';

export interface TriggerHandlerServices {
  ledger: LedgerServices | null;
  ledgerProblem: string | null;
  publisher?: EventPublisher;
}

export type TriggerHandlers = Pick<Handlers, 'trigger'>;

export function createTriggerHandlers(services: TriggerHandlerServices): TriggerHandlers {
  const running = new Map<string, AbortController>();

  function trigger() {
    if (services.ledger === null) {
      throw new IpcFailure('not_available', services.ledgerProblem ?? 'The bank services are not running.', {
        action: 'Check the keychain status in Settings, then restart Ledgerdesk.',
      });
    }
    return services.ledger.trigger;
  }

  function scenarioFrom(
    source: { kind: 'shipped'; id: string } | { kind: 'file'; name: string; text: string },
  ): Scenario {
    if (source.kind === 'shipped') {
      const shipped = SHIPPED_SCENARIOS.find((entry) => entry.id === source.id);
      if (shipped === undefined) throw new IpcFailure('not_found', `No shipped scenario is called ${source.id}.`);
      return shipped.scenario;
    }
    let value: unknown;
    try {
      value = JSON.parse(source.text);
    } catch (error) {
      throw new IpcFailure('invalid_input', `Scenario file ${source.name} is not JSON: ${(error as Error).message}.`, {
        field: 'source.text',
      });
    }
    return scenarioOf(value, source.name);
  }

  return {
    trigger: {
      run: ({ profileId, request, confirmRemote }) =>
        trigger().trigger(profileId, request, confirmRemote === undefined ? {} : { confirmRemote }),
      scenarios: () =>
        SHIPPED_SCENARIOS.map((entry) => ({
          id: entry.id,
          name: entry.scenario.name,
          description: entry.scenario.description ?? null,
          steps: entry.scenario.steps.length,
        })),
      async runScenario({ profileId, runId, source, confirmRemote }) {
        const scenario = scenarioFrom(source);
        if (running.has(runId)) throw new IpcFailure('conflict', `Scenario run ${runId} is already running.`);
        const controller = new AbortController();
        running.set(runId, controller);
        try {
          return await trigger().runScenario(profileId, scenario, {
            runId,
            signal: controller.signal,
            ...(confirmRemote === undefined ? {} : { confirmRemote }),
            onStep: (outcome) => services.publisher?.publish('trigger', 'step', outcome),
          });
        } finally {
          running.delete(runId);
        }
      },
      cancelScenario({ runId }) {
        const controller = running.get(runId);
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
    },
  };
}
