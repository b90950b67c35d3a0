/**
 * The trigger channels through the real router and the shared bridge on the real services:
 * the input is checked like every other channel's (a bad field named, nothing sent), a
 * scenario's steps are pushed as `trigger.step` while it runs, a bad scenario file is one
 * sentence, and a remote profile answers `confirmation_required` until confirmed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { openAppOverIpc, type AppOverIpc } from '../../support/app.ts';
import type { ScenarioStepOutcome } from '../../../src/shared/eventCatalog/scenario.ts';
import type { RunningSandbox } from '../../../src/sandbox/index.ts';

let app: AppOverIpc;
let sandbox: RunningSandbox;
let api: LedgerdeskApi;
let profileId: string;
/** The scenario steps the app pushed to the window (`trigger.step`), oldest first. */
const pushedSteps = (): ScenarioStepOutcome[] => app.pushedOn('trigger', 'step') as ScenarioStepOutcome[];

async function rejectionOf(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (reason) {
    return reason as Record<string, unknown>;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  app = await openAppOverIpc('ipc-trigger', { sandbox: { pendingTransactionsPerAccount: 5 } });
  ({ api, profileId, sandbox } = app);
});

afterAll(() => app.close());

describe('the trigger channels', () => {
  it('triggers on the embedded sandbox and answers the object and its events', async () => {
    const result = await api.trigger.run({ profileId, request: { event: 'account.update', amount: '1.25' } });
    expect(result.caused).toEqual([expect.objectContaining({ event: 'account.update', op: 'update' })]);
    expect(result.object.id).toBe(result.objectId);
  });

  it.each([
    [{ profileId: 'local-sandbox', request: { event: 'wire.update' } }, 'request.event'],
    [{ profileId: 'local-sandbox', request: { event: 'ach.create', accountId: 'x' } }, 'request.accountId'],
    [{ profileId: 'local-sandbox', request: { event: 'ach.create', surprise: 1 } }, 'request'],
    [{ profileId: 'local-sandbox', request: { event: 'ach.create' }, confirmRemote: 'yes' }, 'confirmRemote'],
  ])('refuses %j naming %s', async (input, field) => {
    const error = await rejectionOf(api.trigger.run(input as never));
    expect(error).toMatchObject({ code: 'invalid_input', field });
  });

  it('lists the shipped scenarios and runs one, pushing each step as it starts and ends', async () => {
    const shipped = await api.trigger.scenarios({});
    expect(shipped.map((entry) => entry.id)).toContain('ach-to-settlement');
    const runId = crypto.randomUUID();
    const result = await api.trigger.runScenario({
      profileId,
      runId,
      source: { kind: 'shipped', id: 'ach-to-settlement' },
    });
    expect(result.state).toBe('completed');
    const pushed = pushedSteps().filter((step) => step.runId === runId);
    expect(pushed.map((step) => `${String(step.index)}:${step.state}`)).toEqual(
      result.steps.flatMap((step) => [`${String(step.index)}:running`, `${String(step.index)}:ok`]),
    );
    expect(await api.trigger.cancelScenario({ runId })).toEqual({ cancelled: false });
  });

  it('stops a running scenario when asked, in the middle of a wait, and runs nothing after', async () => {
    const runId = crypto.randomUUID();
    const text = JSON.stringify({
      name: 'long wait',
      steps: [
        { action: 'trigger', event: 'file.create' },
        { action: 'wait', ms: 60_000 },
        { action: 'trigger', event: 'file.create' },
      ],
    });
    const running = api.trigger.runScenario({ profileId, runId, source: { kind: 'file', name: 'long.json', text } });
    for (let round = 0; !pushedSteps().some((step) => step.runId === runId && step.index === 1); round += 1) {
      if (round > 2000) throw new Error('the wait step never started');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await api.trigger.cancelScenario({ runId })).toEqual({ cancelled: true });
    const result = await running;
    expect(result.state).toBe('cancelled');
    expect(result.steps.map((step) => [step.state, step.detail])).toEqual([
      ['ok', expect.stringMatching(/^file file_\w+$/) as unknown],
      ['failed', 'Stopped.'],
    ]);
    expect(await api.trigger.cancelScenario({ runId })).toEqual({ cancelled: false });
  });

  it('says what is wrong with a scenario file, and with an unknown shipped one', async () => {
    const runId = crypto.randomUUID();
    const notJson = await rejectionOf(
      api.trigger.runScenario({ profileId, runId, source: { kind: 'file', name: 'mine.json', text: '{' } }),
    );
    expect(notJson.code).toBe('invalid_input');
    expect(notJson.message).toMatch(/^Scenario file mine\.json is not JSON/);
    const invalid = await rejectionOf(
      api.trigger.runScenario({
        profileId,
        runId,
        source: {
          kind: 'file',
          name: 'mine.json',
          text: JSON.stringify({ name: 'x', steps: [{ action: 'wait', ms: 0 }] }),
        },
      }),
    );
    expect(invalid.code).toBe('invalid_input');
    expect(invalid.message).toMatch(/steps\[0\]\.ms/);
    const unknown = await rejectionOf(
      api.trigger.runScenario({ profileId, runId, source: { kind: 'shipped', id: 'nope' } }),
    );
    expect(unknown).toMatchObject({ code: 'not_found' });
    const badRun = await rejectionOf(
      api.trigger.runScenario({ profileId, runId: 'not-a-uuid', source: { kind: 'shipped', id: 'nope' } }),
    );
    expect(badRun).toMatchObject({ code: 'invalid_input', field: 'runId' });
  });

  it('asks for a confirmation on a remote profile, and refuses a production one', async () => {
    const remote = await api.profiles.create({
      name: 'Remote sandbox',
      baseUrl: sandbox.baseUrl,
      authScheme: 'basic',
      keyId: sandbox.keyId,
    });
    const remoteId = remote.id;
    await api.credentials.set({ profileId: remoteId, secret: sandbox.keySecret });
    const asked = await rejectionOf(api.trigger.run({ profileId: remoteId, request: { event: 'file.create' } }));
    expect(asked).toMatchObject({ code: 'confirmation_required', field: 'confirmRemote' });
    const done = await api.trigger.run({ profileId: remoteId, request: { event: 'file.create' }, confirmRemote: true });
    expect(done.objectId).toMatch(/^file_/);
    const production = await api.profiles.create({
      name: 'Live bank',
      baseUrl: sandbox.baseUrl,
      authScheme: 'basic',
      keyId: sandbox.keyId,
      production: true,
    });
    await api.credentials.set({ profileId: production.id, secret: sandbox.keySecret });
    const refused = await rejectionOf(
      api.trigger.run({ profileId: production.id, request: { event: 'file.create' }, confirmRemote: true }),
    );
    expect(refused.code).toBe('not_available');
    expect(refused.message).toMatch(/production profile/);
  });
});
