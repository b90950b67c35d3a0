/**
 * The app's services as tests start them (what the shell does, minus Electron): an in-memory
 * keychain and settings, a throwaway data folder, no browser, no log; each test overrides only
 * what it watches (the sandbox, pushed events, the main-process confirmation port).
 */
import { join } from 'node:path';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../src/main/services/profiles/profileStorage.ts';
import { startServices, type RunningServices, type ServicesOptions } from '../../src/main/app/services.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../src/shared/ipc/bridge.ts';

export function startTestServices(folder: string, overrides: Partial<ServicesOptions> = {}): Promise<RunningServices> {
  return startServices({
    dataFolder: folder,
    sandbox: null,
    secretStore: new InMemorySecretStore(),
    settings: new InMemoryProfileStorage(),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    send: () => undefined,
    chooseSavePath: (name) => Promise.resolve(join(folder, name)),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ...overrides,
  });
}

/** `window.ledgerdesk` as the app's own window would call it: the shared bridge on the real router. */
export function windowApi(router: Router, webContentsId: number): LedgerdeskApi {
  return buildLedgerdeskApi({
    invoke: (channel, input) =>
      router.dispatch({ webContentsId, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' }, channel, input),
    on: () => () => undefined,
  });
}
