/**
 * The whole app's services (src/main/app/services.ts, every domain as handlers.ts wires it)
 * on a real embedded sandbox bank, behind the real router and bridge, called from the app's
 * own window. `untilPushed` re-checks a condition each time the app pushes an event to the
 * window (a listener batch, a sync's progress), so a test waits on the app's own signals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRouter } from '../../../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices } from '../../../../src/main/app/services.ts';
import { InMemorySecretStore } from '../../../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../../../src/main/services/profiles/profileStorage.ts';
import { startSandbox, type RunningSandbox } from '../../../../src/sandbox/index.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../../../src/shared/ipc/bridge.ts';
import { eventChannel } from '../../../../src/shared/ipc/contract.ts';

const OWN_WINDOW = 3;

export interface AppOverIpc {
  api: LedgerdeskApi;
  sandbox: RunningSandbox;
  services: RunningServices;
  /** The embedded sandbox's profile (the active one). */
  profileId: string;
  untilPushed<Value>(check: () => Promise<Value | undefined>): Promise<Value>;
  /** The payloads pushed on one event channel so far (e.g. `sync.progress`'s), oldest first. */
  pushedOn(domain: string, event: string): unknown[];
  close(): Promise<void>;
}

export async function openAppOverIpc(folderPrefix: string): Promise<AppOverIpc> {
  const folder = mkdtempSync(join(tmpdir(), `ledgerdesk-${folderPrefix}-`));
  const sandbox = await startSandbox({ port: 0, dataFile: ':memory:', retryBaseMs: 20, retryCapMs: 40 });
  const waiters = new Set<() => void>();
  const pushes: { channel: string; payload: unknown }[] = [];
  const services = await startServices({
    dataFolder: folder,
    sandbox,
    secretStore: new InMemorySecretStore(),
    settings: new InMemoryProfileStorage(),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    send: (channel, payload) => {
      pushes.push({ channel, payload });
      for (const waiter of [...waiters]) waiter();
    },
    chooseSavePath: (name) => Promise.resolve(join(folder, name)),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
    knownSecrets: () => services.knownSecrets(),
  });
  const api = buildLedgerdeskApi({
    invoke: (channel, input) =>
      router.dispatch(
        { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' },
        channel,
        input,
      ),
    on: () => () => undefined,
  });
  const { activeProfileId } = await api.profiles.list();
  return {
    api,
    sandbox,
    services,
    profileId: activeProfileId ?? '',
    pushedOn: (domain, event) =>
      pushes.filter((push) => push.channel === eventChannel(domain, event)).map((push) => push.payload),
    untilPushed<Value>(check: () => Promise<Value | undefined>): Promise<Value> {
      return new Promise((resolve, reject) => {
        let checking = false;
        // A push that arrives while a check is under way is not lost: the check runs again.
        let pushedMeanwhile = false;
        const run = (): void => {
          if (checking) {
            pushedMeanwhile = true;
            return;
          }
          checking = true;
          pushedMeanwhile = false;
          check().then(
            (value) => {
              checking = false;
              if (value === undefined) {
                if (pushedMeanwhile) run();
                return;
              }
              waiters.delete(run);
              resolve(value);
            },
            (error: unknown) => {
              waiters.delete(run);
              reject(error instanceof Error ? error : new Error(String(error)));
            },
          );
        };
        waiters.add(run);
        run();
      });
    },
    async close() {
      await services.stop();
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
