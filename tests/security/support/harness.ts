/**
 * The review's IPC harness (security-3b75e6a.md §1.1) as a test helper: the services behind
 * the real router and bridge, on a real data folder, a real sandbox bank on loopback and the
 * keychain given (the real Secret Service in these tests), restartable on the same folder.
 */
import { join } from 'node:path';
import { createRouter } from '../../../src/main/ipc/routerCore.ts';
import type { SecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import type { WriteConfirmer } from '../../../src/main/services/writes/writeConfirmer.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { startServices, type RunningServices } from '../../../src/main/app/services.ts';
import type { RunningSandbox } from '../../../src/sandbox/index.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
export { refusal } from '../../support/refusal.ts';

export interface Harness {
  api: LedgerdeskApi;
  services: RunningServices;
  /** What the main-process confirmation answers next. */
  confirmAnswer: { value: boolean };
  /** What the save dialog answers next (null: `<folder>/<default name>`). */
  nextSavePath: { value: string | null };
  stop(): Promise<void>;
}

export async function startHarness(
  folder: string,
  sandbox: RunningSandbox | null,
  store: SecretStore,
  /** Main's question before a Production write (a real implementation that answers). */
  writeConfirmer?: WriteConfirmer,
): Promise<Harness> {
  const confirmAnswer = { value: false };
  const nextSavePath: { value: string | null } = { value: null };
  const services = await startServices({
    dataFolder: folder,
    sandbox,
    secretStore: store,
    settings: new FileProfileStorage(folder),
    keychain: () => Promise.resolve({ available: true, backend: 'secret-service' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    send: () => undefined,
    chooseSavePath: (name) => Promise.resolve(nextSavePath.value ?? join(folder, name)),
    printToPdf: () => Promise.resolve(Buffer.from('%PDF-1.7 stand-in\n')),
    confirm: () => Promise.resolve(confirmAnswer.value),
    ...(writeConfirmer === undefined ? {} : { writeConfirmer }),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: { isOwnWindow: () => true, allowedOrigins: ['app://ledgerdesk'] },
    knownSecrets: () => services.knownSecrets(),
  });
  const api = buildLedgerdeskApi({
    invoke: (channel, input) =>
      router.dispatch({ webContentsId: 1, isMainFrame: true, frameUrl: 'app://ledgerdesk/index.html' }, channel, input),
    on: () => () => undefined,
  });
  return { api, services, confirmAnswer, nextSavePath, stop: () => services.stop() };
}

/** Syncs an account's pending transactions and waits (bounded) for the job to finish. */
export async function syncPending(api: LedgerdeskApi, profileId: string, accountId: string): Promise<void> {
  const started = await api.sync.start({ profileId, job: { kind: 'pendingTransactions', accountId } });
  for (let round = 0; round < 400; round += 1) {
    const { jobs } = await api.sync.status({ profileId });
    if (!jobs.some((job) => job.jobId === started.jobId && job.state === 'running')) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the sync did not finish');
}

/** Makes the sandbox bank add a pending transaction with this description (its /simulation). */
export async function simulatePending(sandbox: RunningSandbox, accountId: string, desc: string): Promise<void> {
  const answer = await fetch(`${sandbox.baseUrl}/simulation`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify({
      type: 'account.pending_transaction',
      simulation: { account_id: accountId, amount: '-1.00', desc },
    }),
  });
  if (answer.status >= 300) throw new Error(`the simulation was refused: ${String(answer.status)}`);
}
