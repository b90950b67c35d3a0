/**
 * Scenarios: the ones Ledgerdesk ships (by their short name) and the user's own JSON files,
 * each checked against the scenario schema before a single request is sent. A mistake is one
 * sentence naming the step and the field.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { scenario, type Scenario } from '../../../shared/eventCatalog/scenario.ts';
import achToSettlement from './scenarios/ach-to-settlement.json' with { type: 'json' };
import applicationToApproval from './scenarios/application-to-approval.json' with { type: 'json' };
import webhookErrorRecovery from './scenarios/webhook-error-recovery.json' with { type: 'json' };
import tinApproved from './scenarios/tin-approved.json' with { type: 'json' };
import tinManualReview from './scenarios/tin-manual-review.json' with { type: 'json' };
import tinProcessing from './scenarios/tin-processing.json' with { type: 'json' };
import tinRejected from './scenarios/tin-rejected.json' with { type: 'json' };
import tinSubmitted from './scenarios/tin-submitted.json' with { type: 'json' };
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export class ScenarioFileProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioFileProblem';
  }

  get answer(): ContractAnswer {
    return { code: 'invalid_input', field: 'source' };
  }
}

export interface ShippedScenario {
  /** What `ledger trigger --scenario` accepts instead of a file. */
  id: string;
  scenario: Scenario;
}

/** zod's words for a missing field and an unknown one, said the way a person writing the file thinks of them. */
function plainProblem(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => JSON.stringify(key)).join(', ');
    return `unknown field${issue.keys.length === 1 ? '' : 's'} ${keys} (see docs/scenarios.md for what a step takes)`;
  }
  return undefined;
}

/** Checks a scenario's JSON value; `source` names it in the message. */
export function scenarioOf(value: unknown, source: string): Scenario {
  const parsed = scenario.safeParse(value, { error: plainProblem });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.map((part) => (typeof part === 'number' ? `[${String(part)}]` : `.${String(part)}`));
    return `${where.join('').replace(/^\./, '') || '(the file)'}: ${issue.message}`;
  });
  throw new ScenarioFileProblem(`Scenario ${source} is not valid: ${problems.join('; ')}.`);
}

export const SHIPPED_SCENARIOS: readonly ShippedScenario[] = [
  { id: 'ach-to-settlement', scenario: scenarioOf(achToSettlement, 'ach-to-settlement') },
  { id: 'application-to-approval', scenario: scenarioOf(applicationToApproval, 'application-to-approval') },
  { id: 'webhook-error-recovery', scenario: scenarioOf(webhookErrorRecovery, 'webhook-error-recovery') },
  // For a real Treasury Prime sandbox (no simulation): the outcome its TINs' first digit asks for.
  { id: 'tin-approved', scenario: scenarioOf(tinApproved, 'tin-approved') },
  { id: 'tin-manual-review', scenario: scenarioOf(tinManualReview, 'tin-manual-review') },
  { id: 'tin-processing', scenario: scenarioOf(tinProcessing, 'tin-processing') },
  { id: 'tin-rejected', scenario: scenarioOf(tinRejected, 'tin-rejected') },
  { id: 'tin-submitted', scenario: scenarioOf(tinSubmitted, 'tin-submitted') },
];

/** A shipped scenario's name, or a path to a JSON file. */
export async function loadScenario(nameOrPath: string): Promise<Scenario> {
  const shipped = SHIPPED_SCENARIOS.find((candidate) => candidate.id === nameOrPath);
  if (shipped !== undefined) return shipped.scenario;
  let text: string;
  try {
    text = await readFile(nameOrPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ScenarioFileProblem(
      code === 'ENOENT'
        ? `Scenario ${nameOrPath}: no such file, and no shipped scenario has that name (${SHIPPED_SCENARIOS.map((entry) => entry.id).join(', ')}).`
        : `Scenario file ${nameOrPath} cannot be read (${code ?? 'unknown error'}).`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScenarioFileProblem(`Scenario file ${nameOrPath} is not JSON: ${(error as Error).message}.`);
  }
  return scenarioOf(value, nameOrPath);
}
