/**
 * The app's main side for an e2e page: the real services (in-memory keychain and settings, the
 * given data folder and sandbox) behind the real IPC router, which accepts only the harness's
 * page from the renderer's origin. Events go to `send`, which forwards them to the open pages.
 */
import { join } from 'node:path';
import { createRouter, type Router } from '../../../src/main/ipc/routerCore.ts';
import type { SecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../../src/main/services/profiles/profileStorage.ts';
import { startServices, type RunningServices, type SandboxAddress } from '../../../src/main/app/services.ts';
import { HARNESS_WEB_CONTENTS_ID } from './ledgerdeskPage.ts';

export interface HarnessServices {
  services: RunningServices;
  router: Router;
}

export async function startHarnessServices(options: {
  folder: string;
  sandbox: SandboxAddress | null;
  rendererUrl: string;
  send: (channel: string, payload: unknown) => void;
  secretStore?: SecretStore;
  /** Chromium's printing for the review report's PDF (the shell's printHtmlToPdf stands in the app). */
  printToPdf?: (html: string) => Promise<Uint8Array>;
}): Promise<HarnessServices> {
  const { folder } = options;
  const services = await startServices({
    dataFolder: folder,
    sandbox: options.sandbox,
    secretStore: options.secretStore ?? new InMemorySecretStore(),
    settings: new InMemoryProfileStorage(),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-e2e', platform: process.platform },
    send: options.send,
    chooseSavePath: (name) => Promise.resolve(join(folder, name)),
    ...(options.printToPdf === undefined ? {} : { printToPdf: options.printToPdf }),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: {
      isOwnWindow: (id) => id === HARNESS_WEB_CONTENTS_ID,
      allowedOrigins: [new URL(options.rendererUrl).origin],
    },
    knownSecrets: () => services.knownSecrets(),
  });
  return { services, router };
}
