/**
 * The listener's registrations in the app (issue 27, item 6), through the real router, services
 * and embedded sandbox: listener.registrations lists what was registered; listener.unregister
 * deletes one at the bank, is audited as webhook.unregister, and the list and the bank agree;
 * an unknown webhook id is refused by name and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppOverIpc, type AppOverIpc } from '../../support/app.ts';

let app: AppOverIpc;
let api: AppOverIpc['api'];
let sandbox: AppOverIpc['sandbox'];

beforeAll(async () => {
  app = await openAppOverIpc('registrations');
  ({ api, sandbox } = app);
});

afterAll(async () => {
  await app.close();
});

describe('the listener’s registrations in the app', () => {
  it('lists two registrations, removes one (audited, gone at the bank), refuses an unknown id', async () => {
    const { profileId } = app;
    await api.listener.start({ port: 0 });
    expect((await api.listener.registrations()).registrations).toEqual([]);
    const ach = await api.listener.register({ profileId, event: 'ach.update' });
    const application = await api.listener.register({ profileId, event: 'account_application.update' });

    const listed = (await api.listener.registrations()).registrations;
    expect(listed.map((row) => [row.webhookId, row.event])).toEqual([
      [ach.webhook.id, 'ach.update'],
      [application.webhook.id, 'account_application.update'],
    ]);
    expect(listed[0]?.url).toBe(ach.listenerUrl);
    expect(listed[0]?.basicUser).toBe(ach.webhook.basic_user);
    // Only the Basic user crosses to the window, never the secret or where it is kept.
    expect(Object.keys(listed[0] ?? {}).sort()).toEqual([
      'basicUser',
      'createdAt',
      'event',
      'path',
      'url',
      'webhookId',
    ]);

    await expect(api.listener.unregister({ profileId, webhookId: ach.webhook.id })).resolves.toEqual({
      deleted: true,
      id: ach.webhook.id,
    });
    expect((await api.listener.registrations()).registrations.map((row) => row.webhookId)).toEqual([
      application.webhook.id,
    ]);
    const atBank = (id: string): Promise<number> =>
      fetch(`${sandbox.baseUrl}/webhook/${id}`, {
        headers: { authorization: `Bearer ${sandbox.bearerToken}` },
      }).then((answer) => answer.status);
    expect(await atBank(ach.webhook.id)).toBe(404);
    expect(await atBank(application.webhook.id)).toBe(200);
    const audit = await api.audit.list({ profileId, action: 'webhook.unregister' });
    expect(audit.rows.map((entry) => [entry.action, entry.result])).toEqual([['webhook.unregister', 'ok']]);

    const refusal: unknown = await api.listener.unregister({ profileId, webhookId: ach.webhook.id }).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(refusal).toMatchObject({ code: 'not_found' });
    expect(String((refusal as { message?: unknown }).message)).toContain(
      `Webhook ${ach.webhook.id} was not registered by this listener`,
    );
    expect((await api.listener.registrations()).registrations).toHaveLength(1);
  });
});
