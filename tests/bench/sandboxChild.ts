/**
 * The sandbox bank in a process of its own for the services' benchmarks (services.bench.ts,
 * syncThreads.ts), as the app runs it in a utilityProcess: it never shares the measured
 * thread, only the machine's cores.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { BankClient } from '../../src/main/services/bank/bankClient.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../src/main/services/ledgerServices.ts';
import { InMemoryProfileStorage } from '../../src/main/services/profiles/profileStorage.ts';

export interface SandboxChild {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  /** The one account, holding every pending transaction. */
  account: string;
  process: ChildProcess;
}

/** A throwaway folder under the system's temporary folder. */
export function temporaryFolder(prefix = 'ledgerdesk-bench-services-'): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  return {
    folder,
    remove: () => {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Starts `node args…` and returns its process with the JSON of the first line it prints. */
export async function startChild(args: string[]): Promise<{ started: unknown; child: ChildProcess }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    lines.close();
    return { started: JSON.parse(line) as unknown, child };
  }
  throw new Error(`${args[0] ?? 'the process'} ended before it started`);
}

/**
 * A sandbox with one account holding `perAccount` pending transactions; `options`: more of the
 * sandbox's flags (e.g. `--tls-cert FILE --tls-key FILE`).
 */
export async function startSandboxProcess(perAccount: number, options: readonly string[] = []): Promise<SandboxChild> {
  const { started, child } = await startChild([
    'src/sandbox/cli.ts',
    '--json',
    // No line per request: nobody reads them once the first line is in, and a sandbox whose
    // unread output piles up in its memory never exits on SIGTERM.
    '--quiet',
    '--accounts',
    '1',
    '--pending-per-account',
    String(perAccount),
    ...options,
  ]);
  const sandbox = started as { baseUrl: string; keyId: string; keySecret: string; accounts: string[] };
  return { ...sandbox, account: sandbox.accounts[0] ?? '', process: child };
}

export function stopSandboxProcess(sandbox: SandboxChild): Promise<void> {
  return new Promise((resolve) => {
    sandbox.process.once('exit', () => {
      resolve();
    });
    sandbox.process.kill('SIGTERM');
  });
}

/** A bank client for the sandbox, with its Basic credentials. */
export function clientOf(sandbox: SandboxChild): BankClient {
  const header = `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`;
  return new BankClient({
    profileName: 'bench',
    authScheme: 'basic',
    baseUrl: sandbox.baseUrl,
    authorization: () => Promise.resolve({ header, expiresAt: null }),
  });
}

/** Called just before the sync starts and just after it ends (memory sampling, CPU snapshots). */
export interface SyncWatch {
  started: () => void;
  ended: () => void;
}

/**
 * Syncs the sandbox's account into a new cache in `folder` through the app's services, and
 * returns how long the sync took in seconds. Throws unless it kept all `records`.
 */
export async function syncSandboxAccount(
  sandbox: SandboxChild,
  folder: string,
  records: number,
  pageSize: number,
  watch: SyncWatch = { started: () => undefined, ended: () => undefined },
  /** Date windows walked at once (the app's default when absent; 1: one cursor). */
  parallelism?: number,
): Promise<number> {
  const services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: new InMemorySecretStore(),
    profileStorage: new InMemoryProfileStorage(),
    syncPageSize: pageSize,
    ...(parallelism === undefined ? {} : { syncParallelism: parallelism }),
  });
  try {
    const profile = await services.addProfile(
      { name: 'Bench', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId },
      sandbox.keySecret,
    );
    watch.started();
    const started = performance.now();
    const outcome = await services.sync.start({
      kind: 'pending-transactions',
      profileId: profile.id,
      accountId: sandbox.account,
    }).done;
    const seconds = (performance.now() - started) / 1000;
    watch.ended();
    if (outcome.state !== 'done' || outcome.written !== records) {
      throw new Error(`sync ended ${outcome.state} with ${String(outcome.written)} rows: ${outcome.error ?? ''}`);
    }
    return seconds;
  } finally {
    await services.close();
  }
}

/**
 * The same sandbox behind a proxy process that holds each answer back `delayMs` (latencyProxy.ts):
 * a bank across a network. The proxy forwards the Host the sandbox expects.
 */
export async function startFarBank(sandbox: SandboxChild, delayMs: number): Promise<SandboxChild> {
  const { started, child } = await startChild([
    'tests/bench/latencyProxy.ts',
    '--target',
    sandbox.baseUrl,
    '--delay-ms',
    String(delayMs),
  ]);
  return { ...sandbox, baseUrl: (started as { baseUrl: string }).baseUrl, process: child };
}

export function megabytes(bytes: number): number {
  return bytes / 2 ** 20;
}

/** syncSandboxAccount, sampling this process's resident memory every 10 ms while it runs. */
export async function syncWatchingMemory(
  sandbox: SandboxChild,
  folder: string,
  records: number,
  pageSize: number,
  parallelism?: number,
): Promise<{ seconds: number; rssBefore: number; peakRss: number }> {
  let rssBefore = 0;
  let peakRss = 0;
  let sampler: NodeJS.Timeout | undefined;
  const seconds = await syncSandboxAccount(
    sandbox,
    folder,
    records,
    pageSize,
    {
      started: () => {
        rssBefore = process.memoryUsage().rss;
        peakRss = rssBefore;
        sampler = setInterval(() => {
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
        }, 10);
      },
      ended: () => {
        clearInterval(sampler);
      },
    },
    parallelism,
  );
  return { seconds, rssBefore, peakRss };
}
