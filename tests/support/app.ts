/**
 * The one way integration tests reach the whole app as its window does: the app's services
 * (src/main/app/services.ts, every domain as handlers.ts wires it) on a real embedded sandbox
 * bank, behind the real router and bridge, called from the app's own window. Tests used to
 * wire these four by hand, each a little differently (issue 39); options say what a test
 * changes (the bank's data, the services' ports) and the rest is the same everywhere.
 *
 * `untilPushed` re-checks a condition each time the app pushes an event to the window (a
 * listener batch, a sync's progress), so a test waits on the app's own signals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRouter } from '../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices, type ServicesOptions } from '../../src/main/app/services.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../src/main/services/profiles/profileStorage.ts';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../src/shared/ipc/bridge.ts';
import { eventChannel } from '../../src/shared/ipc/contract.ts';
import type { SyncJob } from '../../src/shared/ipc/domains/sync.ts';

const OWN_WINDOW = 3;

export interface AppOverIpcOptions {
  /** Over the harness's bank: in memory, fast retries. */
  sandbox?: SandboxOptions;
  /** Over the harness's services: in-memory keychain and settings, quiet log. */
  services?: Partial<Omit<ServicesOptions, 'dataFolder' | 'sandbox' | 'send'>>;
}

export interface AppOverIpc {
  api: LedgerdeskApi;
  sandbox: RunningSandbox;
  services: RunningServices;
  /** The data folder (saved files land in it too). */
  folder: string;
  /** The embedded sandbox's profile (the active one). */
  profileId: string;
  untilPushed<Value>(check: () => Promise<Value | undefined>): Promise<Value>;
  /** The payloads pushed on one event channel so far (e.g. `sync.progress`'s), oldest first. */
  pushedOn(domain: string, event: string): unknown[];
  /** Every push so far, oldest first, as the window received it. */
  readonly pushes: readonly { channel: string; payload: unknown }[];
  /** Every answer the window received so far, oldest first (to check none carries a secret). */
  readonly answers: readonly unknown[];
  /** Starts a sync job of the active profile and waits (bounded) until it is no longer running. */
  syncAndWait(job: SyncJob): Promise<void>;
  close(): Promise<void>;
}

export async function openAppOverIpc(folderPrefix: string, options: AppOverIpcOptions = {}): Promise<AppOverIpc> {
  const folder = mkdtempSync(join(tmpdir(), `ledgerdesk-${folderPrefix}-`));
  const sandbox = await startSandbox({
    port: 0,
    dataFile: ':memory:',
    retryBaseMs: 20,
    retryCapMs: 40,
    ...options.sandbox,
  });
  const waiters = new Set<() => void>();
  const pushes: { channel: string; payload: unknown }[] = [];
  const services = await startServices({
    secretStore: new InMemorySecretStore(),
    settings: new InMemoryProfileStorage(),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    chooseSavePath: (name) => Promise.resolve(join(folder, name)),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ...options.services,
    dataFolder: folder,
    sandbox,
    send: (channel, payload) => {
      pushes.push({ channel, payload });
      for (const waiter of [...waiters]) waiter();
    },
  });
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
    knownSecrets: () => services.knownSecrets(),
  });
  const answers: unknown[] = [];
  const api = buildLedgerdeskApi({
    invoke: async (channel, input) => {
      const answer = await router.dispatch(
        { webContentsId: OWN_WINDOW, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' },
        channel,
        input,
      );
      answers.push(answer);
      return answer;
    },
    on: () => () => undefined,
  });
  const profileId = (await api.profiles.list()).activeProfileId ?? '';
  return {
    api,
    sandbox,
    services,
    folder,
    profileId,
    pushes,
    answers,
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
    async syncAndWait(job) {
      const started = await api.sync.start({ profileId, job });
      for (let round = 0; round < 400; round += 1) {
        const { jobs } = await api.sync.status({ profileId });
        if (!jobs.some((each) => each.jobId === started.jobId && each.state === 'running')) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the sync did not finish');
    },
    async close() {
      await services.stop();
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
