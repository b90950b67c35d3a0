/**
 * The listener's registrations in the app (issue 27, item 6), through the real router, services
 * and embedded sandbox: listener.registrations lists what was registered; listener.unregister
 * deletes one at the bank, is audited as webhook.unregister, and the list and the bank agree;
 * an unknown webhook id is refused by name and changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices } from '../../../src/main/shell/services.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../../src/main/services/profiles/profileStorage.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';

const OWN_WINDOW = 3;
let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let api: LedgerdeskApi;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-registrations-'));
  sandbox = await startSandbox({ port: 0, dataFile: ':memory:', retryBaseMs: 20, retryCapMs: 40 });
  services = await startServices({
    dataFolder: folder,
    sandbox,
    secretStore: new InMemorySecretStore(),
    settings: new InMemoryProfileStorage(),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    send: () => undefined,
    chooseSavePath: (name) => Promise.resolve(join(folder, name)),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
    knownSecrets: () => services.knownSecrets(),
  });
  api = buildLedgerdeskApi({
    invoke: (channel, input) =>
      router.dispatch(
        { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' },
        channel,
        input,
      ),
    on: () => () => undefined,
  });
});

afterAll(async () => {
  await services.stop();
  await sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the listener’s registrations in the app', () => {
  it('lists two registrations, removes one (audited, gone at the bank), refuses an unknown id', async () => {
    const { activeProfileId } = await api.profiles.list();
    const profileId = activeProfileId ?? '';
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
