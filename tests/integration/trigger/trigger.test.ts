/**
 * Every event the trigger can cause, caused against the real sandbox bank and heard by the
 * real listener (`npm run listen` as a child process), verified (Basic credentials match),
 * with the event, op and id the trigger reported. Every shipped scenario runs to its end.
 * A production profile is refused (and the refusal audited); a remote sandbox needs a yes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRIGGERABLE_EVENTS } from '../../../src/shared/eventCatalog/eventCatalog.ts';
import type { TriggerRequest } from '../../../src/shared/eventCatalog/trigger.ts';
import type { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../../../src/main/services/profiles/profile.ts';
import { SHIPPED_SCENARIOS } from '../../../src/main/services/trigger/scenarioFiles.ts';
import { TriggerNeedsConfirmation, TriggerRefused } from '../../../src/main/services/trigger/triggerService.ts';
import { json, startFaultServer } from '../services/support/faultServer.ts';
import { basicOf, servicesOn, startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import { servicesOnEmbedded, startListen, subscribe, type ListenProcess } from './support.ts';

let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
let listen: ListenProcess;
let services: LedgerServices;

beforeAll(async () => {
  sandbox = await startBank({ accounts: 2, pendingTransactionsPerAccount: 5 });
  temp = makeTempFolder('ledgerdesk-trigger-');
  listen = await startListen(join(temp.folder, 'listen'));
  for (const event of [...TRIGGERABLE_EVENTS, 'account.create', 'webhook.create', 'webhook.delete']) {
    await subscribe(sandbox, listen.url, event);
  }
  services = await servicesOnEmbedded(sandbox, join(temp.folder, 'app'));
  services.profiles.list();
});

afterAll(async () => {
  await services.close();
  await listen.stop();
  await sandbox.close();
  temp.remove();
});

/** Each caused notification arrives at the listener once more than before, verified, with its op. */
async function expectHeard(caused: { event: string; op: string; id: string }[], from: number): Promise<void> {
  const seen = new Set<number>();
  for (const notification of caused) {
    const heard = await listen.waitFor(
      (request) =>
        !seen.has(request.requestId) && request.event === notification.event && request.id === notification.id,
      from,
    );
    seen.add(heard.requestId);
    expect(heard).toMatchObject({ verdict: 'ok', status: 200, path: `/hooks/${notification.event}` });
    expect(listen.opOf(heard.requestId)).toBe(notification.op);
  }
}

const CASES: { request: TriggerRequest; expected: string[] }[] = [
  { request: { event: 'ach.create' }, expected: ['ach.create', 'account.update'] },
  { request: { event: 'ach.update' }, expected: ['ach.create', 'account.update', 'ach.update'] },
  {
    request: { event: 'ach.update', status: 'returned' },
    expected: ['ach.create', 'account.update', 'ach.update', 'ach.update', 'ach.update'],
  },
  { request: { event: 'account.update', amount: '7.50' }, expected: ['account.update'] },
  { request: { event: 'account_application.create' }, expected: ['account_application.create'] },
  {
    request: { event: 'account_application.update' },
    expected: ['account_application.create', 'account_application.update'],
  },
  {
    request: { event: 'account_application.update', status: 'approved' },
    expected: [
      'account_application.create',
      'account_application.update',
      'account_application.update',
      'account_application.update',
      'account.create',
    ],
  },
  { request: { event: 'file.create' }, expected: ['file.create'] },
  { request: { event: 'document.create' }, expected: ['file.create', 'document.create'] },
  // Last: it moves a webhook (by default one not subscribed to webhook.update) into error and back.
  { request: { event: 'webhook.update' }, expected: ['webhook.update', 'webhook.update'] },
];

describe('ledger trigger against the sandbox, heard by npm run listen', () => {
  it.each(CASES)('$request.event $request.status causes $expected', async ({ request, expected }) => {
    const from = listen.heard.length;
    const result = await services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, request);
    expect(result.caused.map((notification) => notification.event)).toEqual(expected);
    expect(result.object.id).toBe(result.objectId);
    for (const notification of result.caused) expect(notification.url).toContain(sandbox.baseUrl);
    await expectHeard(result.caused, from);
  });

  it('moves the named objects: an ACH one step, an application to a status, a webhook into error only', async () => {
    const created = await services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, { event: 'ach.create' });
    const moved = await services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, {
      event: 'ach.update',
      achId: created.objectId,
    });
    expect(moved.object.status).toBe('processing');
    expect(moved.caused).toHaveLength(1);
    const application = await services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, {
      event: 'account_application.create',
    });
    const rejected = await services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, {
      event: 'account_application.update',
      applicationId: application.objectId,
      status: 'rejected',
    });
    expect(rejected.object.status).toBe('rejected');
    const webhookId = await subscribe(sandbox, listen.url, 'book.update');
    const from = listen.heard.length;
    const errored = await services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, {
      event: 'webhook.update',
      webhookId,
      status: 'error',
    });
    expect(errored.object).toMatchObject({ status: 'error' });
    await expectHeard(errored.caused, from);
    const back = await services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, {
      event: 'webhook.update',
      webhookId,
      status: 'enabled',
    });
    expect(back.object).toMatchObject({ status: 'enabled', error: null });
  });

  it('says clearly what cannot be done: a final status, a move the lifecycle forbids, an unknown object', async () => {
    const settled = await services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, {
      event: 'ach.update',
      status: 'canceled',
    });
    await expect(
      services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, { event: 'ach.update', achId: settled.objectId }),
    ).rejects.toThrow(/is canceled: that status is final/);
    await expect(
      services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, { event: 'ach.update', status: 'approved' }),
    ).rejects.toThrow('status: must be one of processing, sent, returned, canceled for ach.update.');
    await expect(
      services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, { event: 'file.create', accountId: 'acct_1' }),
    ).rejects.toThrow('accountId: is not used by file.create (it takes no parameter).');
    await expect(
      services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, { event: 'ach.create', accountId: 'acct_nothere' }),
    ).rejects.toThrow(/no account with id acct_nothere/);
    await expect(
      services.trigger.trigger(EMBEDDED_SANDBOX_PROFILE_ID, { event: 'ach.create', amount: '0.00' }),
    ).rejects.toThrow(/greater than 0.00/);
  });
});

describe('scenarios', () => {
  it.each(SHIPPED_SCENARIOS.map((shipped) => [shipped.id, shipped]))(
    '%s runs to its end, each step reported as it runs, its events heard',
    async (_id, shipped) => {
      const from = listen.heard.length;
      const seen: string[] = [];
      const result = await services.trigger.runScenario(EMBEDDED_SANDBOX_PROFILE_ID, shipped.scenario, {
        onStep: (outcome) => seen.push(`${String(outcome.index)}:${outcome.state}`),
      });
      expect(result.state, JSON.stringify(result.steps.at(-1))).toBe('completed');
      expect(result.steps).toHaveLength(shipped.scenario.steps.length);
      expect(seen).toEqual(
        shipped.scenario.steps.flatMap((_, index) => [`${String(index)}:running`, `${String(index)}:ok`]),
      );
      // What went to the listener's subscriptions arrived (the scenario's own webhook is not the listener).
      const subscribed = new Set([...TRIGGERABLE_EVENTS, 'account.create', 'webhook.create', 'webhook.delete']);
      await expectHeard(
        result.steps.flatMap((step) => step.caused).filter((notification) => subscribed.has(notification.event)),
        from,
      );
    },
  );

  it('stops at the first failing step and says which', async () => {
    const result = await services.trigger.runScenario(EMBEDDED_SANDBOX_PROFILE_ID, {
      name: 'bad move',
      steps: [
        { id: 'ach', action: 'trigger', event: 'ach.update', with: { status: 'canceled' } },
        { action: 'trigger', event: 'ach.update', with: { achId: '{{ach.objectId}}', status: 'sent' } },
        { action: 'wait', ms: 1 },
      ],
    });
    expect(result.state).toBe('failed');
    expect(result.steps).toHaveLength(2);
    expect(result.steps[1]).toMatchObject({ state: 'failed' });
    expect(result.steps[1]?.detail).toMatch(/canceled: it cannot move to sent/);
  });
});

describe('the guard', () => {
  it('refuses a production profile, clearly, and audits the refusal', async () => {
    const production = await servicesOn(sandbox, join(temp.folder, 'production'), { production: true });
    try {
      await expect(production.services.trigger.trigger(production.profile.id, { event: 'ach.create' })).rejects.toThrow(
        TriggerRefused,
      );
      await expect(
        production.services.trigger.trigger(production.profile.id, { event: 'ach.create' }, { confirmRemote: true }),
      ).rejects.toThrow(/production profile: trigger ach.create is never run against production/);
      const audit = production.services.cache.audit.list({ result: 'refused' });
      expect(audit.rows[0]).toMatchObject({ action: 'trigger', target: 'trigger ach.create', result: 'refused' });
      const before = (await fetch(`${sandbox.baseUrl}/ach?page_size=1000`, {
        headers: { authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}` },
      }).then((answer) => answer.json())) as { data: unknown[] };
      await expect(
        production.services.trigger.runScenario(
          production.profile.id,
          (SHIPPED_SCENARIOS[0] as (typeof SHIPPED_SCENARIOS)[number]).scenario,
          {
            confirmRemote: true,
          },
        ),
      ).rejects.toThrow(TriggerRefused);
      const after = (await fetch(`${sandbox.baseUrl}/ach?page_size=1000`, {
        headers: { authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}` },
      }).then((answer) => answer.json())) as { data: unknown[] };
      expect(after.data).toHaveLength(before.data.length);
    } finally {
      await production.services.close();
    }
  });

  it('asks for a yes on a remote sandbox that answers /simulation, then triggers', async () => {
    const remote = await servicesOn(sandbox, join(temp.folder, 'remote'));
    const files = async (): Promise<number> =>
      (
        (await (await fetch(`${sandbox.baseUrl}/file`, { headers: { authorization: basicOf(sandbox) } })).json()) as {
          total_estimated: number;
        }
      ).total_estimated;
    try {
      const before = await files();
      await expect(remote.services.trigger.trigger(remote.profile.id, { event: 'file.create' })).rejects.toThrow(
        TriggerNeedsConfirmation,
      );
      await expect(
        remote.services.trigger.runScenario(remote.profile.id, {
          name: 'one file',
          steps: [{ action: 'trigger', event: 'file.create', with: {} }],
        }),
      ).rejects.toThrow(TriggerNeedsConfirmation);
      // Asking made nothing at the bank.
      expect(await files()).toBe(before);
      const result = await remote.services.trigger.trigger(
        remote.profile.id,
        { event: 'file.create' },
        { confirmRemote: true },
      );
      expect(result.objectId).toMatch(/^file_/);
      expect(remote.services.cache.audit.list({ action: 'trigger.file.create' }).rows[0]).toMatchObject({
        result: 'ok',
        target: result.objectId,
      });
    } finally {
      await remote.services.close();
    }
  });

  it.each([404, 405])(
    'refuses a remote bank whose POST /simulation answers %i, confirmed or not, and sends nothing else',
    async (status) => {
      // A bank without simulations: every route it does not have answers 404 (or 405).
      const bank = await startFaultServer();
      bank.respond((_request, response) => {
        json(response, status, { error: 'No such route.' });
      });
      const remote = await servicesOn(
        { baseUrl: bank.baseUrl, keyId: 'key_live', keySecret: 'a-secret' } as RunningSandbox,
        join(temp.folder, `no-simulation-${String(status)}`),
      );
      try {
        for (const confirmRemote of [false, true]) {
          await expect(
            remote.services.trigger.trigger(remote.profile.id, { event: 'ach.create' }, { confirmRemote }),
          ).rejects.toThrow(
            /does not answer POST \/simulation, so it cannot be made to send events: only sandboxes can/,
          );
        }
        await expect(
          remote.services.trigger.runScenario(
            remote.profile.id,
            (SHIPPED_SCENARIOS[0] as (typeof SHIPPED_SCENARIOS)[number]).scenario,
            { confirmRemote: true },
          ),
        ).rejects.toThrow(TriggerRefused);
        // Only the probe (an empty body, which a bank with simulations refuses as bad input).
        const asked = bank.requests.filter((request) => !request.url.startsWith('/ping'));
        expect(asked.map((request) => `${request.method} ${request.url} ${request.body}`)).toEqual([
          'POST /simulation {}',
          'POST /simulation {}',
          'POST /simulation {}',
        ]);
      } finally {
        await remote.services.close();
        await bank.close();
      }
    },
  );
});
