/**
 * The Trigger panel: make the bank send an event, run a scenario with each step's outcome
 * pushed as it happens, stop a running scenario. Sandbox profiles only; a remote profile needs
 * `confirmRemote` (answered `confirmation_required` until then); production is refused.
 */
import { z } from 'zod';
import { scenarioRunResult, scenarioStepOutcome } from '../../eventCatalog/scenario.ts';
import { triggerRequest, triggerResult } from '../../eventCatalog/trigger.ts';
import { idText, nameText, noInput, profileId } from '../common.ts';

/** A scenario file chosen in the app is at most this large (the shipped ones are ~2 KB). */
const SCENARIO_TEXT_MAX = 256 * 1024;

const confirmRemote = z.boolean().optional();

const shippedScenario = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  steps: z.number().int().min(1),
});
export type ShippedScenarioSummary = z.infer<typeof shippedScenario>;

const scenarioSource = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('shipped'), id: idText }),
  /** A JSON file the user chose: checked against the scenario schema in main. */
  z.strictObject({
    kind: z.literal('file'),
    name: nameText,
    text: z.string().min(1).max(SCENARIO_TEXT_MAX, { message: 'must be at most 256 KB' }),
  }),
]);

export const triggerOperations = {
  run: {
    input: z.strictObject({ profileId, request: triggerRequest, confirmRemote }),
    output: triggerResult,
  },
  scenarios: { input: noInput, output: z.array(shippedScenario) },
  runScenario: {
    input: z.strictObject({
      profileId,
      /** Chosen by the caller, so the pushed steps can be told apart from another run's. */
      runId: z.uuid({ message: 'must be a UUID' }),
      source: scenarioSource,
      confirmRemote,
    }),
    output: scenarioRunResult,
  },
  /** Stops a running scenario after its current request; the rest is not attempted. */
  cancelScenario: {
    input: z.strictObject({ runId: z.uuid({ message: 'must be a UUID' }) }),
    output: z.object({ cancelled: z.boolean() }),
  },
} as const;

export const triggerEvents = {
  /** A scenario step started or ended. */
  step: scenarioStepOutcome,
} as const;
