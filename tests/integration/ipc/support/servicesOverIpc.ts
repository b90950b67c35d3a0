/**
 * The real services behind the real router and bridge, as the window reaches them: one profile
 * on a running sandbox bank, the domains a test names wired through `translateServiceError` as
 * handlers.ts wires every domain, and calls dispatched from the app's own window. For tests
 * that check a domain end to end without the Electron binary.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PartialHandlers } from '../../../../src/main/ipc/handlerTypes.ts';
import type { LedgerHandlerServices } from '../../../../src/main/ipc/ledgerAccess.ts';
import { createRouter } from '../../../../src/main/ipc/routerCore.ts';
import { translateServiceError } from '../../../../src/main/ipc/serviceErrors.ts';
import { KeyringSecretStore } from '../../../../src/main/services/credentials/keyringSecretStore.ts';
import { InMemorySecretStore } from '../../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../../src/main/services/profiles/fileProfileStorage.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../../../src/shared/ipc/bridge.ts';
import type { RunningSandbox } from '../../services/support/sandboxBank.ts';
export { refusal } from '../../../support/refusal.ts';

const OWN_WINDOW = 3;

export interface ServicesOverIpc {
  /** The test's own temporary folder (the data folder is `data` inside it; saved files go here). */
  folder: string;
  ledger: LedgerServices;
  api: LedgerdeskApi;
  profileId: string;
  /** Closes the services and removes the folder (the bank is the caller's to close). */
  close(): Promise<void>;
}

export async function openServicesOverIpc(options: {
  /** Names the temporary folder, so a leftover one says which test left it. */
  folderPrefix: string;
  bank: RunningSandbox;
  /** The domains under test, built on the wired services. */
  domains: (wired: LedgerHandlerServices) => PartialHandlers;
}): Promise<ServicesOverIpc> {
  const folder = mkdtempSync(join(tmpdir(), `ledgerdesk-${options.folderPrefix}-`));
  const dataFolder = join(folder, 'data');
  const ledger = await LedgerServices.open({
    dataFolder,
    // The real Secret Service under scripts/with-keyring.sh.
    secretStore:
      process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1' ? new KeyringSecretStore() : new InMemorySecretStore(),
    profileStorage: new FileProfileStorage(dataFolder),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    syncParallelism: 3,
  });
  const { bank } = options;
  const profile = await ledger.addProfile(
    { name: 'Sandbox', baseUrl: bank.baseUrl, authScheme: 'basic', keyId: bank.keyId, production: false },
    bank.keySecret,
  );
  const wired: LedgerHandlerServices = {
    ledger,
    ledgerProblem: null,
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform, dataFolder },
    sandboxUrl: () => null,
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory (tests)' }),
    activeProfile: { get: () => profile.id, set: () => undefined },
    chooseSavePath: (name) => Promise.resolve(join(folder, name)),
    openLink: () => false,
  };
  const router = createRouter({
    handlers: translated(options.domains(wired)),
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
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
  return {
    folder,
    ledger,
    api,
    profileId: profile.id,
    async close() {
      await ledger.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The services' errors in the contract's codes, as handlers.ts wires every domain. */
function translated(handlers: PartialHandlers): PartialHandlers {
  const wrapped: Record<string, Record<string, (input: unknown, context: unknown) => Promise<unknown>>> = {};
  for (const [domain, methods] of Object.entries(
    handlers as Record<string, Record<string, (...args: unknown[]) => unknown>>,
  )) {
    wrapped[domain] = Object.fromEntries(
      Object.entries(methods).map(([method, handler]) => [
        method,
        async (input: unknown, context: unknown) => {
          try {
            return await handler(input, context);
          } catch (error) {
            throw translateServiceError(error);
          }
        },
      ]),
    );
  }
  return wrapped;
}
