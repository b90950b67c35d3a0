/**
 * `npm run bench -- proxy`: issue 37's figure. A sync of 100,000 pending transactions from the
 * sandbox (its own process, serving HTTPS with a CA made for this run) into the encrypted cache,
 * through a real CONNECT proxy with Basic login (Debian's tinyproxy, on a free 127.0.0.1 port),
 * against the same sync made directly in the same run (alternated: direct, proxy, direct, proxy).
 * Target: the proxied sync within 1.2× of the direct one's time.
 */
import { join } from 'node:path';
import type { NetworkSettings } from '../../src/shared/profiles/networkFields.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../src/main/services/ledgerServices.ts';
import { InMemoryProfileStorage } from '../../src/main/services/profiles/profileStorage.ts';
import { makeCertificates } from '../support/network/certificates.ts';
import { startTinyproxy } from '../support/network/tinyproxy.ts';
import type { BenchFigure, Benchmark } from './benchmark.ts';
import { startSandboxProcess, stopSandboxProcess, temporaryFolder, type SandboxChild } from './sandboxChild.ts';

const SYNC_RECORDS = 100_000;
const PAGE = 1000;
const PROXY_USER = 'bench';
const PROXY_PASSWORD = 'bench-proxy-password';

/** One sync into a new cache in `folder`, the profile's network as given; its time in seconds. */
async function syncSeconds(
  sandbox: SandboxChild,
  folder: string,
  network: NetworkSettings,
  proxyPassword?: string,
): Promise<number> {
  const services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: new InMemorySecretStore(),
    profileStorage: new InMemoryProfileStorage(),
    syncPageSize: PAGE,
    network: { environment: {}, systemResolver: null },
  });
  try {
    const added = await services.addProfile(
      { name: 'Bench', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId },
      sandbox.keySecret,
    );
    const { profile } = await services.setNetwork(added.id, network, proxyPassword);
    const started = performance.now();
    const outcome = await services.sync.start({
      kind: 'pending-transactions',
      profileId: profile.id,
      accountId: sandbox.account,
    }).done;
    const seconds = (performance.now() - started) / 1000;
    if (outcome.state !== 'done' || outcome.written !== SYNC_RECORDS) {
      throw new Error(`sync ended ${outcome.state} with ${String(outcome.written)} rows: ${outcome.error ?? ''}`);
    }
    return seconds;
  } finally {
    await services.close();
  }
}

const proxySyncBenchmark: Benchmark = {
  title: 'Sync of 100,000 pending transactions through a CONNECT proxy (tinyproxy, Basic login)',
  async run(): Promise<BenchFigure[]> {
    const certificates = makeCertificates();
    const temp = temporaryFolder();
    const sandbox = await startSandboxProcess(SYNC_RECORDS, [
      '--tls-cert',
      certificates.certFile,
      '--tls-key',
      certificates.keyFile,
    ]);
    const tinyproxy = await startTinyproxy({ user: PROXY_USER, password: PROXY_PASSWORD });
    try {
      const direct: NetworkSettings = { proxy: { mode: 'none' }, caFile: certificates.caFile };
      const proxied: NetworkSettings = {
        proxy: { mode: 'explicit', url: tinyproxy.url, user: PROXY_USER },
        caFile: certificates.caFile,
      };
      await syncSeconds(sandbox, join(temp.folder, 'warm'), direct); // the sandbox's pages and our JIT
      const times = { direct: [] as number[], proxied: [] as number[] };
      for (const round of ['a', 'b']) {
        times.direct.push(await syncSeconds(sandbox, join(temp.folder, `direct-${round}`), direct));
        times.proxied.push(await syncSeconds(sandbox, join(temp.folder, `proxy-${round}`), proxied, PROXY_PASSWORD));
      }
      if (!tinyproxy.requestLines().some((line) => line.startsWith('CONNECT '))) {
        throw new Error('tinyproxy saw no CONNECT: the proxied sync did not go through it');
      }
      const rate = (seconds: number[]): number =>
        seconds.reduce((sum, value) => sum + SYNC_RECORDS / value, 0) / seconds.length;
      const proxiedRate = rate(times.proxied);
      const directRate = rate(times.direct);
      return [
        {
          name: 'sync over HTTPS through tinyproxy (CONNECT tunnel, Basic login)',
          value: proxiedRate,
          unit: 'records/s',
          baseline: { name: 'the same sync over HTTPS, direct', value: directRate },
          target: 'within 1.2× of direct (≥ 83% of its rate)',
          met: proxiedRate * 1.2 >= directRate,
        },
      ];
    } finally {
      await tinyproxy.stop();
      await stopSandboxProcess(sandbox);
      temp.remove();
      certificates.remove();
    }
  },
};

export default proxySyncBenchmark;
