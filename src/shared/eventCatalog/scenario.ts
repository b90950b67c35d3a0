/**
 * A scenario file (docs/scenarios.md): named steps run in order against the bank — triggers,
 * webhook registration and changes, waits, and waits for the bank's send log — where a value
 * may refer to an earlier step's result, `{{step.objectId}}` or `{{step.object.<field>}}`.
 * Literal values are checked here, before anything is sent; references once they resolve.
 */
import { z } from 'zod';
import { eventName, idOf, WEBHOOK_SEND_STATUSES, webhookUrl } from '../bank/index.ts';
import { triggerEvent, triggerFieldProblems, triggerParameters } from './trigger.ts';

/** `{{step.objectId}}` or `{{step.object.field.path}}`. */
export const REFERENCE = /^\{\{([a-z][a-z0-9_-]*)\.(objectId|object(?:\.[A-Za-z0-9_]+)+)\}\}$/;

const stepId = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, { message: 'must be lower-case letters, digits, - or _, starting with a letter' });

/** A literal checked by `schema`, or a reference to an earlier result (checked once resolved). */
function literalOrReference(schema: z.ZodType) {
  return z.string().superRefine((value, context) => {
    if (REFERENCE.test(value)) return;
    if (value.includes('{{')) {
      context.addIssue({
        code: 'custom',
        message: 'a reference must look like {{step.objectId}} or {{step.object.field}}',
      });
      return;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message });
  });
}

const parameterShape = triggerParameters.shape;
const scenarioTriggerParameters = z.strictObject({
  accountId: literalOrReference(parameterShape.accountId.unwrap()).optional(),
  applicationId: literalOrReference(parameterShape.applicationId.unwrap()).optional(),
  webhookId: literalOrReference(parameterShape.webhookId.unwrap()).optional(),
  achId: literalOrReference(parameterShape.achId.unwrap()).optional(),
  status: literalOrReference(parameterShape.status.unwrap()).optional(),
  amount: literalOrReference(parameterShape.amount.unwrap()).optional(),
});

const common = {
  /** Names the step's result for later references. */
  id: stepId.optional(),
  /** What the step is for, shown as it runs. */
  title: z.string().min(1).max(200).optional(),
};

const scenarioStep = z.discriminatedUnion(
  'action',
  [
    z
      .strictObject({
        ...common,
        action: z.literal('trigger'),
        event: triggerEvent,
        with: scenarioTriggerParameters.default({}),
      })
      .superRefine((step, context) => {
        // What the event does not read, or a status it cannot reach, is refused before anything is sent.
        const literal = (value: unknown) => typeof value !== 'string' || !REFERENCE.test(value);
        for (const problem of triggerFieldProblems(step.event, step.with, literal)) {
          context.addIssue({ code: 'custom', path: ['with', problem.field], message: problem.message });
        }
      }),
    z.strictObject({
      ...common,
      action: z.literal('register_webhook'),
      event: eventName,
      url: literalOrReference(webhookUrl),
    }),
    z.strictObject({
      ...common,
      action: z.literal('update_webhook'),
      webhookId: literalOrReference(idOf('webhook')),
      status: z.enum(['enabled', 'disabled']).optional(),
      url: literalOrReference(webhookUrl).optional(),
    }),
    z.strictObject({
      ...common,
      action: z.literal('delete_webhook'),
      webhookId: literalOrReference(idOf('webhook')),
    }),
    z.strictObject({
      ...common,
      action: z.literal('wait'),
      ms: z.number().int().min(1).max(60_000, { message: 'must be at most 60000 (one minute)' }),
    }),
    /** Waits until the bank's send log has `count` records with `status` (for a webhook and/or an object). */
    z.strictObject({
      ...common,
      action: z.literal('wait_for_sends'),
      webhookId: literalOrReference(idOf('webhook')).optional(),
      objectId: literalOrReference(z.string().min(1)).optional(),
      status: z.enum(WEBHOOK_SEND_STATUSES),
      count: z.number().int().min(1).max(1000).default(1),
      timeoutMs: z.number().int().min(100).max(600_000).default(60_000),
    }),
  ],
  {
    error: () =>
      'must be one of trigger, register_webhook, update_webhook, delete_webhook, wait, wait_for_sends (the action field)',
  },
);
export type ScenarioStep = z.output<typeof scenarioStep>;

/** The references a step's values make, as [step id, path] pairs. */
function referencesOf(step: ScenarioStep): { stepId: string; path: string; text: string }[] {
  const values: unknown[] = step.action === 'trigger' ? Object.values(step.with) : Object.values(step);
  return values.flatMap((value) => {
    if (typeof value !== 'string') return [];
    const match = REFERENCE.exec(value);
    return match === null ? [] : [{ stepId: match[1] ?? '', path: match[2] ?? '', text: value }];
  });
}

export const scenario = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    description: z.string().max(2000).optional(),
    steps: z.array(scenarioStep).min(1, { message: 'must have at least one step' }).max(200),
  })
  .superRefine((value, context) => {
    const earlier = new Set<string>();
    value.steps.forEach((step, index) => {
      for (const reference of referencesOf(step)) {
        if (!earlier.has(reference.stepId)) {
          context.addIssue({
            code: 'custom',
            path: ['steps', index],
            message: `${reference.text} refers to step "${reference.stepId}", which no earlier step names`,
          });
        }
      }
      if (step.id !== undefined) {
        if (earlier.has(step.id)) {
          context.addIssue({ code: 'custom', path: ['steps', index, 'id'], message: `"${step.id}" names two steps` });
        }
        earlier.add(step.id);
      }
    });
  });
export type Scenario = z.output<typeof scenario>;

/** Pushed as each step starts and ends. */
export const scenarioStepOutcome = z.object({
  runId: z.string(),
  index: z.number().int().min(0),
  total: z.number().int().min(1),
  action: z.string(),
  title: z.string(),
  state: z.enum(['running', 'ok', 'failed']),
  /** One sentence: what happened (or why it failed). */
  detail: z.string(),
  objectId: z.string().nullable(),
  caused: z.array(z.object({ event: z.string(), op: z.string(), id: z.string(), url: z.string() })),
});
export type ScenarioStepOutcome = z.infer<typeof scenarioStepOutcome>;

export const scenarioRunResult = z.object({
  runId: z.string(),
  name: z.string(),
  state: z.enum(['completed', 'failed', 'cancelled']),
  steps: z.array(scenarioStepOutcome),
});
export type ScenarioRunResult = z.infer<typeof scenarioRunResult>;
