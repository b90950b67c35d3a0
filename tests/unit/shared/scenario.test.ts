/** The scenario schema refuses what cannot run, naming the step; the lifecycle path finder. */
import { describe, expect, it } from 'vitest';
import { scenario } from '../../../src/shared/eventCatalog/scenario.ts';
import { pathOf } from '../../../src/main/services/trigger/triggerActions.ts';
import { ACCOUNT_APPLICATION_TRANSITIONS, ACH_TRANSITIONS } from '../../../src/shared/bank/lifecycles.ts';
import { scenarioOf, SHIPPED_SCENARIOS } from '../../../src/main/services/trigger/scenarioFiles.ts';

function problemsOf(value: unknown): string[] {
  const parsed = scenario.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('scenario files', () => {
  it('accepts the shipped scenarios and a step with references to earlier results', () => {
    // The five TIN scenarios (issue 37) ask the bank for each outcome by the TIN's first digit.
    expect(SHIPPED_SCENARIOS.map((entry) => entry.id).sort()).toEqual([
      'ach-to-settlement',
      'application-to-approval',
      'tin-approved',
      'tin-manual-review',
      'tin-processing',
      'tin-rejected',
      'tin-submitted',
      'webhook-error-recovery',
    ]);
    const parsed = scenario.parse({
      name: 'refs',
      steps: [
        { id: 'ach', action: 'trigger', event: 'ach.create' },
        { action: 'trigger', event: 'account.update', with: { accountId: '{{ach.object.account_id}}' } },
        { action: 'wait_for_sends', objectId: '{{ach.objectId}}', status: 'sent' },
      ],
    });
    expect(parsed.steps[2]).toMatchObject({ count: 1, timeoutMs: 60_000 });
    expect(parsed.steps[0]).toMatchObject({ with: {} });
  });

  it.each([
    [{ steps: [] }, /name: /],
    [{ name: 'x', steps: [] }, /steps: must have at least one step/],
    [{ name: 'x', steps: [{ action: 'dance' }] }, /steps.0.action: must be one of trigger, register_webhook/],
    [{ name: 'x', steps: [{ action: 'trigger', event: 'wire.update' }] }, /event: must be one of ach.create/],
    [
      { name: 'x', steps: [{ action: 'trigger', event: 'ach.update', with: { achId: 'wh_1' } }] },
      /with.achId: must be an id starting with ach_/,
    ],
    [
      {
        name: 'x',
        steps: [
          { action: 'trigger', event: 'ach.update', with: { achId: '{{later.objectId}}' } },
          { id: 'later', action: 'wait', ms: 1 },
        ],
      },
      /steps.0: \{\{later.objectId\}\} refers to step "later", which no earlier step names/,
    ],
    [
      { name: 'x', steps: [{ action: 'trigger', event: 'ach.update', with: { achId: '{{ach}}' } }] },
      /a reference must look like \{\{step.objectId\}\}/,
    ],
    [
      {
        name: 'x',
        steps: [
          { id: 'a', action: 'wait', ms: 1 },
          { id: 'a', action: 'wait', ms: 1 },
        ],
      },
      /"a" names two steps/,
    ],
    [{ name: 'x', steps: [{ action: 'wait', ms: 3_600_000 }] }, /ms: must be at most 60000/],
    [{ name: 'x', steps: [{ action: 'wait', ms: 5, extra: true }] }, /Unrecognized key/],
    [
      { name: 'x', steps: [{ action: 'register_webhook', event: 'ach.update', url: 'ftp://x' }] },
      /url: must be an absolute http/,
    ],
  ])('refuses %j', (value, message) => {
    expect(problemsOf(value).join('\n')).toMatch(message);
  });
});

describe('a scenario file, as its author reads the mistakes', () => {
  it.each([
    [{ name: 'x', steps: [{ action: 'wait' }] }, 'steps[0].ms: is required'],
    [{ steps: [{ action: 'wait', ms: 1 }] }, 'name: is required'],
    [
      { name: 'x', steps: [{ action: 'wait', ms: 5, extra: true }] },
      'steps[0]: unknown field "extra" (see docs/scenarios.md for what a step takes)',
    ],
    [
      { name: 'x', steps: [{ action: 'trigger', event: 'ach.create', with: { acount: 'acct_1' } }] },
      'steps[0].with: unknown field "acount"',
    ],
    [
      { name: 'x', steps: [{ action: 'trigger', event: 'ach.update', with: { status: 'approved' } }] },
      'steps[0].with.status: must be one of processing, sent, returned, canceled for ach.update',
    ],
    [
      { name: 'x', steps: [{ action: 'trigger', event: 'webhook.update', with: { status: 'disabled' } }] },
      'steps[0].with.status: must be one of error, enabled for webhook.update',
    ],
    [
      { name: 'x', steps: [{ action: 'trigger', event: 'document.create', with: { accountId: 'acct_1' } }] },
      'steps[0].with.accountId: is not used by document.create (it takes no parameter)',
    ],
    [
      {
        name: 'x',
        steps: [{ action: 'trigger', event: 'account_application.update', with: { achId: 'ach_1', status: 'kyc' } }],
      },
      'steps[0].with.achId: is not used by account_application.update (it reads applicationId, status)',
    ],
  ])('says what is wrong with %j', (value, message) => {
    expect(() => scenarioOf(value, 'mine.json')).toThrow(`Scenario mine.json is not valid: ${message}`);
  });

  it('leaves a status given by reference to be checked once it is known', () => {
    const parsed = scenarioOf(
      {
        name: 'x',
        steps: [
          { id: 'a', action: 'trigger', event: 'ach.create' },
          { action: 'trigger', event: 'ach.update', with: { achId: '{{a.objectId}}', status: '{{a.object.status}}' } },
        ],
      },
      'mine.json',
    );
    expect(parsed.steps).toHaveLength(2);
  });
});

describe('pathOf', () => {
  it('finds the shortest chain of moves, or none', () => {
    expect(pathOf(ACH_TRANSITIONS, 'pending', 'returned')).toEqual(['processing', 'sent', 'returned']);
    expect(pathOf(ACH_TRANSITIONS, 'pending', 'canceled')).toEqual(['canceled']);
    expect(pathOf(ACH_TRANSITIONS, 'sent', 'pending')).toBeNull();
    expect(pathOf(ACH_TRANSITIONS, 'sent', 'sent')).toBeNull();
    expect(pathOf(ACCOUNT_APPLICATION_TRANSITIONS, 'submitted', 'approved')).toEqual(['kyc', 'processing', 'approved']);
  });
});
