/**
 * Reliability, the longer runs (the bounded ones are tests/integration/reliability):
 * - IPC fuzzing: tens of thousands of adversarial inputs, spread over every channel of the
 *   contract, through the real router and services. Every one must be refused with
 *   invalid_input and reach no handler; refusals per second against valid `app.info` calls
 *   per second through the same router, in the same run.
 * - Faults under load: a run through every fault (healthy, slow, past the deadline, 500s,
 *   resets, down, recovered) against a same-size run where the receiver stays healthy, each in
 *   a fresh process: events accounted for, throughput, peak RSS of the services' process and
 *   of the bank's, descriptors leaked; and a run with four times the events, whose peak RSS
 *   shows whether memory grows with the load or stays bounded.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { createRouter } from '../../src/main/ipc/routerCore.ts';
import { startServices } from '../../src/main/app/services.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../src/main/services/profiles/profileStorage.ts';
import { OPERATIONS_BY_CHANNEL } from '../../src/shared/ipc/contract.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { invalidInputFor } from '../integration/reliability/support/adversarialInput.ts';
import type { FaultRunOptions, FaultRunReport } from '../integration/reliability/support/faultRun.ts';
import { FAULT_PHASES } from '../integration/reliability/support/faultRun.ts';
import type { Benchmark, BenchFigure } from './benchmark.ts';

const FUZZ_INPUTS = Number(process.env['LEDGERDESK_BENCH_FUZZ_INPUTS'] ?? 30_000);
const SEED = 20_260_808;
const EVENTS_PER_PHASE = 100;

const ipcFuzz: Benchmark = {
  title: 'Reliability: IPC fuzzing through the real router and services',
  async run(): Promise<BenchFigure[]> {
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-bench-fuzz-'));
    const sandbox = await startSandbox({
      port: 0,
      dataFile: ':memory:',
      accounts: 1,
      pendingTransactionsPerAccount: 10,
    });
    const services = await startServices({
      dataFolder: folder,
      sandbox,
      secretStore: new InMemorySecretStore(),
      settings: new InMemoryProfileStorage(),
      keychain: () => Promise.resolve({ available: true, backend: 'in-memory (bench)' }),
      app: { name: 'Ledgerdesk', version: '0.0.0-bench', platform: process.platform },
      send: () => undefined,
      chooseSavePath: () => Promise.resolve(null),
      openExternal: () => false,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    try {
      let handlerCalls = 0;
      const counted: Record<string, Record<string, (input: unknown, context: unknown) => unknown>> = {};
      for (const [domain, methods] of Object.entries(
        services.handlers as unknown as Record<string, Record<string, (input: unknown, context: unknown) => unknown>>,
      )) {
        counted[domain] = {};
        for (const [method, handler] of Object.entries(methods)) {
          counted[domain][method] = (input, context) => {
            handlerCalls += 1;
            return handler(input, context);
          };
        }
      }
      const router = createRouter({
        handlers: counted,
        senderPolicy: { isOwnWindow: () => true, allowedOrigins: ['app://ledgerdesk'] },
        knownSecrets: () => services.knownSecrets(),
      });
      const sender = { webContentsId: 1, isMainFrame: true, frameUrl: 'app://ledgerdesk/' };
      const channels = [...OPERATIONS_BY_CHANNEL.values()];
      const perChannel = Math.ceil(FUZZ_INPUTS / channels.length);
      let refused = 0;
      let wrong = 0;
      let fuzzMs = 0;
      for (const [index, entry] of channels.entries()) {
        const inputs = fc.sample(invalidInputFor(entry.input), { seed: SEED + index, numRuns: perChannel });
        const started = performance.now();
        for (const fuzz of inputs) {
          const answer = await router.dispatch(sender, entry.channel, fuzz.input);
          if (!answer.ok && answer.error.code === 'invalid_input') refused += 1;
          else wrong += 1;
        }
        fuzzMs += performance.now() - started;
      }
      const fuzzCalls = handlerCalls;
      const validCalls = Math.min(refused, 20_000);
      const validStarted = performance.now();
      for (let call = 0; call < validCalls; call += 1) await router.dispatch(sender, 'app.info', {});
      const validMs = performance.now() - validStarted;
      const inputs = refused + wrong;
      return [
        {
          name: `adversarial inputs over ${String(channels.length)} channels, refused with invalid_input`,
          value: refused,
          unit: 'inputs',
          target: `all ${String(inputs)}, no handler run`,
          met: wrong === 0 && fuzzCalls === 0,
        },
        {
          name: 'refusals per second (inputs up to 10 MiB of bytes, 2 MiB strings, 20,001 entries, 5,000 levels)',
          value: (refused / fuzzMs) * 1000,
          unit: 'calls/s',
          baseline: { name: 'valid app.info calls per second, same router', value: (validCalls / validMs) * 1000 },
        },
      ];
    } finally {
      await services.stop();
      await sandbox.close();
      rmSync(folder, { recursive: true, force: true });
    }
  },
};

/** One fault run in a fresh process (tests/bench/reliabilityFaultRun.ts). */
function faultRun(options: FaultRunOptions): Promise<FaultRunReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, 'reliabilityFaultRun.ts'), JSON.stringify(options)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const line = output.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || line === '')
        reject(new Error(`the fault run exited with ${String(code)}: ${output.slice(0, 500)}`));
      else resolve(JSON.parse(line) as FaultRunReport);
    });
  });
}

function eventsOf(report: FaultRunReport): number {
  return report.events.ach + report.events.account;
}

const faultsUnderLoad: Benchmark = {
  title: 'Reliability: faults under load (sandbox process, services, listener, sync)',
  async run(): Promise<BenchFigure[]> {
    const healthyPhases = FAULT_PHASES.map(() => 'healthy' as const);
    const healthy = await faultRun({
      eventsPerPhase: EVENTS_PER_PHASE,
      syncAccountSize: 20_000,
      phases: healthyPhases,
    });
    const faults = await faultRun({ eventsPerPhase: EVENTS_PER_PHASE, syncAccountSize: 20_000 });
    const bigger = await faultRun({ eventsPerPhase: EVENTS_PER_PHASE * 4, syncAccountSize: 20_000 });
    const throughput = (report: FaultRunReport): number =>
      eventsOf(report) / (report.seconds.load + report.seconds.drain);
    const accounted = [faults, bigger].every((report) => report.violations.length === 0);
    return [
      {
        name: `events through every fault, accounted for (${String(faults.outcomes.sentFirstTime)} sent at once, ${String(faults.outcomes.sentAfterRetries)} after retries, ${String(faults.outcomes.gaveUp)} given up while down; ${String(faults.sends.total)} attempts)`,
        value: eventsOf(faults) + eventsOf(bigger),
        unit: 'events',
        target: 'every event sent, or error with will_retry false; cache = bank',
        met: accounted,
      },
      {
        name: 'event throughput through the faults (first event to drained)',
        value: throughput(faults),
        unit: 'events/s',
        baseline: { name: 'same load, receiver always healthy', value: throughput(healthy) },
      },
      {
        name: `peak RSS of the services' process through the faults (${String(faults.rss.samples)} samples)`,
        value: faults.rss.peakMiB,
        unit: 'MiB',
        baseline: { name: 'receiver always healthy', value: healthy.rss.peakMiB },
      },
      {
        name: 'peak RSS of the bank process through the faults',
        value: faults.rss.bankPeakMiB,
        unit: 'MiB',
        baseline: { name: 'receiver always healthy', value: healthy.rss.bankPeakMiB },
      },
      {
        name: `peak RSS of the services' process with 4× the events (${String(eventsOf(bigger))})`,
        value: bigger.rss.peakMiB,
        unit: 'MiB',
        baseline: { name: `${String(eventsOf(faults))} events`, value: faults.rss.peakMiB },
        target: '≤ 1.5× (bounded, not growing with the load)',
        met: bigger.rss.peakMiB <= faults.rss.peakMiB * 1.5,
      },
      {
        name: `file descriptors left open after the runs (before ${String(faults.fds.before)}, after ${String(faults.fds.after)})`,
        value: faults.fds.leaked.length + bigger.fds.leaked.length + healthy.fds.leaked.length,
        unit: 'kinds leaked',
        target: '0',
        met: faults.fds.leaked.length + bigger.fds.leaked.length + healthy.fds.leaked.length === 0,
      },
    ];
  },
};

export default [ipcFuzz, faultsUnderLoad];
