/** The real sandbox bank for integration tests, and the services pointed at it. */
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../../src/sandbox/index.ts';
import { InMemorySecretStore } from '../../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../../src/main/services/ledgerServices.ts';
import type { Profile } from '../../../../src/main/services/profiles/profile.ts';
import { FileProfileStorage } from '../../../../src/main/services/profiles/fileProfileStorage.ts';

export type { RunningSandbox };

export async function startBank(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, dataFile: ':memory:', retryBaseMs: 20, ...options });
}

export function basicOf(sandbox: RunningSandbox): string {
  return `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`;
}

/** POST /simulation (sandbox only): moves objects and emits their events. */
export async function simulate(
  sandbox: RunningSandbox,
  type: string,
  simulation: Record<string, unknown>,
): Promise<unknown> {
  const answer = await fetch(`${sandbox.baseUrl}/simulation`, {
    method: 'POST',
    headers: { authorization: basicOf(sandbox), 'content-type': 'application/json' },
    body: JSON.stringify({ type, simulation }),
  });
  if (answer.status !== 202) throw new Error(`simulation ${type}: ${String(answer.status)} ${await answer.text()}`);
  return answer.json();
}

/** Waits (bounded) until the sandbox has delivered every notification it owes. */
export async function deliveriesSettled(sandbox: RunningSandbox, rounds = 400): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    const backlog = sandbox.deliveryBacklog();
    if (backlog.owed === 0 && backlog.inFlight === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the sandbox still owes deliveries');
}

export interface ServicesOnBank {
  services: LedgerServices;
  secrets: InMemorySecretStore;
  profile: Profile;
}

/** Services in `folder`, with a remote Basic profile "Sandbox" pointing at the running bank. */
export async function servicesOn(
  sandbox: RunningSandbox,
  folder: string,
  options: {
    pageSize?: number;
    production?: boolean;
    secrets?: InMemorySecretStore;
    cacheSizeLimitBytes?: number;
  } = {},
): Promise<ServicesOnBank> {
  const secrets = options.secrets ?? new InMemorySecretStore();
  const services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: secrets,
    profileStorage: new FileProfileStorage(folder),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ping: { firstDelayMs: 20, maxDelayMs: 200 },
    ...(options.pageSize === undefined ? {} : { syncPageSize: options.pageSize }),
    ...(options.cacheSizeLimitBytes === undefined ? {} : { cacheSizeLimitBytes: options.cacheSizeLimitBytes }),
  });
  const existing = services.profiles.list().find((entry) => entry.name === 'Sandbox');
  const profile =
    existing ??
    (await services.addProfile(
      {
        name: 'Sandbox',
        baseUrl: sandbox.baseUrl,
        authScheme: 'basic',
        keyId: sandbox.keyId,
        production: options.production ?? false,
      },
      sandbox.keySecret,
    ));
  return { services, secrets, profile };
}

/**
 * The option a test's webhook writes take: the test's bank is a Ledgerdesk sandbox on loopback,
 * which delivers to loopback, so issue 37's address rule lets it through (`--allow-http`).
 */
export const LOOPBACK_SANDBOX = { allowHttp: true } as const;
