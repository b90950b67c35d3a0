/**
 * Issue 37: a profile reaches its bank through real proxies, started here on free 127.0.0.1
 * ports: Debian's tinyproxy (a CONNECT proxy with Basic authentication, its own config file)
 * and mitmdump (a TLS-inspecting proxy with its own CA, as a corporate one). The bank is the
 * real sandbox serving HTTPS with a CA made for this run. Each failure is its own error: a
 * wrong proxy password, a proxy that is down, an inspecting proxy's certificate; NO_PROXY
 * keeps loopback direct; and the proxy's log shows no Authorization of the bank.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import { DEFAULT_NETWORK_SETTINGS, type NetworkSettings } from '../../../src/shared/profiles/networkFields.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { HttpTransport } from '../../../src/main/services/http/transport.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import { startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import { makeCertificates, type TestCertificates } from '../../support/network/certificates.ts';
import { freePort } from '../../support/network/freePort.ts';
import { startTinyproxy, type RunningTinyproxy } from '../../support/network/tinyproxy.ts';
import { startMitmproxy, type RunningMitmproxy } from '../../support/network/mitmproxy.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bankClientPort } from '../../../src/main/services/listener/bankClientPort.ts';
import { basicHeader, startTestListener } from '../listener/support.ts';

const PROXY_USER = 'alice';
const PROXY_PASSWORD = 'correct-horse-battery';

let certificates: TestCertificates;
let sandbox: RunningSandbox;
let tinyproxy: RunningTinyproxy;
let mitmproxy: RunningMitmproxy;
const temps: { remove: () => void }[] = [];
const opened: LedgerServices[] = [];
const transports: HttpTransport[] = [];

beforeAll(async () => {
  certificates = makeCertificates();
  sandbox = await startBank({
    accounts: 1,
    pendingTransactionsPerAccount: 600,
    tls: { cert: certificates.cert, key: certificates.key },
  });
  [tinyproxy, mitmproxy] = await Promise.all([
    startTinyproxy({ user: PROXY_USER, password: PROXY_PASSWORD }),
    startMitmproxy({ upstreamCaFile: certificates.caFile }),
  ]);
});

afterAll(async () => {
  for (const services of opened) await services.close();
  for (const transport of transports) transport.close();
  // Any of them may be missing when beforeAll failed half-way.
  const proxies = [tinyproxy, mitmproxy] as ({ stop: () => Promise<void> } | undefined)[];
  const bank = sandbox as RunningSandbox | undefined;
  await Promise.all([...proxies.map(async (proxy) => proxy?.stop()), bank?.close()]);
  for (const temp of temps) temp.remove();
  certificates.remove();
});

/** Services with a remote profile "Bank" on the HTTPS sandbox, its network as given. */
async function servicesWith(
  network: NetworkSettings,
  options: { proxyPassword?: string; environment?: Record<string, string> } = {},
): Promise<{ services: LedgerServices; profile: Profile }> {
  const temp = makeTempFolder();
  temps.push(temp);
  const transport = new HttpTransport();
  transports.push(transport);
  const services = await LedgerServices.open({
    dataFolder: temp.folder,
    secretStore: new InMemorySecretStore(),
    profileStorage: new FileProfileStorage(temp.folder),
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 2 },
    timeouts: { connectMs: 3_000, responseMs: 20_000 },
    network: { environment: options.environment ?? {}, systemResolver: null },
    // A transport of its own: a tunnel another test opened is never what this one measures.
    transport,
  });
  opened.push(services);
  const added = await services.addProfile(
    { name: 'Bank', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId },
    sandbox.keySecret,
  );
  const { profile } = await services.setNetwork(added.id, network, options.proxyPassword);
  return { services, profile };
}

function account(): string {
  const [first] = sandbox.demo.accounts;
  if (first === undefined) throw new Error('the sandbox has no account');
  return first;
}

async function syncOutcome(services: LedgerServices, profile: Profile) {
  return services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId: account() }).done;
}

const apiKeyBase64 = (): string => Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64');

describe('through a CONNECT proxy with Basic authentication (tinyproxy)', () => {
  it('syncs, and the proxy saw only CONNECT lines, never the bank’s Authorization', async () => {
    const before = tinyproxy.requestLines().length;
    const { services, profile } = await servicesWith(
      {
        proxy: { mode: 'explicit', url: tinyproxy.url, user: PROXY_USER },
        caFile: certificates.caFile,
      },
      { proxyPassword: PROXY_PASSWORD },
    );
    const outcome = await syncOutcome(services, profile);
    expect(outcome).toMatchObject({ state: 'done', fetched: 600 });
    const lines = tinyproxy.requestLines().slice(before);
    const port = new URL(sandbox.baseUrl).port;
    // Only tunnels: the proxy never read a request of the bank's.
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line === `CONNECT 127.0.0.1:${port} HTTP/1.1`)).toBe(true);
    const log = tinyproxy.log();
    expect(log).not.toContain(apiKeyBase64());
    expect(log).not.toContain(sandbox.keySecret);
    expect(log).not.toMatch(/authorization: basic/i);
  });

  it('says a wrong proxy password is the proxy’s refusal, not the bank’s and not “offline”', async () => {
    const { services, profile } = await servicesWith(
      { proxy: { mode: 'explicit', url: tinyproxy.url, user: PROXY_USER }, caFile: certificates.caFile },
      { proxyPassword: 'not the password' },
    );
    const error = await services.clients
      .clientFor(profile.id)
      .checkConnection()
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(BankError);
    const bankError = error as BankError;
    expect(bankError.kind).toBe('proxy-auth');
    expect(bankError.attempts).toBe(1);
    expect(bankError.forPeople?.message).toMatch(new RegExp(`refused the login of user "${PROXY_USER}" \\(401`));
    expect(bankError.forPeople?.message).toContain(`127.0.0.1:${String(tinyproxy.port)}`);
    expect(bankError.forPeople?.action).toContain('Settings → Profiles → Edit → Network');
    expect(bankError.message).not.toMatch(/bank .*cannot be reached|offline/i);
    expect(bankError.message).not.toContain('not the password');
  });

  it('says a proxy that wants a login and got none', async () => {
    const { services, profile } = await servicesWith({
      proxy: { mode: 'explicit', url: tinyproxy.url },
      caFile: certificates.caFile,
    });
    const error = (await services.clients
      .clientFor(profile.id)
      .ping()
      .catch((failure: unknown) => failure)) as BankError;
    expect(error.kind).toBe('proxy-auth');
    // tinyproxy answers a CONNECT without a login 407, and one with a wrong login 401 (TOOLCHAIN.md).
    expect(error.forPeople?.message).toMatch(/asks for a login \(407 Proxy Authentication Required\)/);
  });
});

describe('a file download and a listener forward through the same proxy', () => {
  it('downloads a file whose content_url the lean bank gives, through the proxy, its Authorization never in the proxy’s log', async () => {
    const leanBank = await startBank({
      accounts: 1,
      pendingTransactionsPerAccount: 1,
      lean: true,
      tls: { cert: certificates.cert, key: certificates.key },
    });
    try {
      const { services, profile } = await servicesWith(
        { proxy: { mode: 'explicit', url: tinyproxy.url, user: PROXY_USER }, caFile: certificates.caFile },
        { proxyPassword: PROXY_PASSWORD },
      );
      await services.updateProfile(
        profile.id,
        { baseUrl: leanBank.baseUrl, keyId: leanBank.keyId },
        leanBank.keySecret,
      );
      const [fileId] = leanBank.demo.files;
      if (fileId === undefined) throw new Error('the sandbox seeded no file');
      const before = tinyproxy.requestLines().length;
      const file = await services.clients.clientFor(profile.id).readFileContent(fileId, {
        maxBytes: 10 * 1024 * 1024,
        accept: ['image/png', 'image/jpeg', 'application/pdf'],
      });
      expect(file.bytes.byteLength).toBeGreaterThan(0);
      expect(['image/png', 'image/jpeg', 'application/pdf']).toContain(file.contentType);
      const lines = tinyproxy.requestLines().slice(before);
      const port = new URL(leanBank.baseUrl).port;
      expect(lines.every((line) => line.startsWith('CONNECT '))).toBe(true);
      expect(lines).toContain(`CONNECT 127.0.0.1:${port} HTTP/1.1`);
      const log = tinyproxy.log();
      expect(log).not.toContain(Buffer.from(`${leanBank.keyId}:${leanBank.keySecret}`).toString('base64'));
      expect(log).not.toContain('file_download');
    } finally {
      await leanBank.close();
    }
  });

  it('forwards what the listener received to a local handler through the proxy, the bank’s Basic never in its log', async () => {
    const { services, profile } = await servicesWith(
      { proxy: { mode: 'explicit', url: tinyproxy.url, user: PROXY_USER }, caFile: certificates.caFile },
      { proxyPassword: PROXY_PASSWORD },
    );
    const arrived: { authorization: string | undefined; body: string }[] = [];
    const handler = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        arrived.push({ authorization: request.headers.authorization, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('handled');
      });
    });
    await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', resolve));
    const handlerPort = (handler.address() as AddressInfo).port;
    const listening = await startTestListener({
      bank: bankClientPort(services.clients.clientFor(profile.id)),
      basic: { user: 'bank', secret: 'listener-secret-77' },
      settings: { forwardTo: `http://127.0.0.1:${String(handlerPort)}/hooks`, hydrate: false },
    });
    try {
      const before = tinyproxy.requestLines().length;
      const bankBasic = basicHeader('bank', 'listener-secret-77');
      const notification = JSON.stringify({
        event: 'ach.update',
        op: 'update',
        id: 'ach_1',
        url: `${sandbox.baseUrl}/ach/ach_1`,
      });
      const answer = await fetch(`${listening.url}/webhooks/in`, {
        method: 'POST',
        headers: { authorization: bankBasic, 'content-type': 'application/json' },
        body: notification,
      });
      expect(answer.status).toBe(200);
      await listening.listener.idle();
      expect(arrived).toEqual([{ authorization: bankBasic, body: notification }]);
      const [kept] = listening.listener.requests({ limit: 1 });
      expect(listening.listener.deliveries(kept?.id ?? 0)[0]).toMatchObject({ status: 200, excerpt: 'handled' });
      // Other profiles of this file keep pinging their banks while offline: only CONNECT lines, one to the handler.
      const lines = tinyproxy.requestLines().slice(before);
      expect(lines.every((line) => line.startsWith('CONNECT '))).toBe(true);
      expect(lines.filter((line) => line.includes(`:${String(handlerPort)} `))).toEqual([
        `CONNECT 127.0.0.1:${String(handlerPort)} HTTP/1.1`,
      ]);
      expect(tinyproxy.log()).not.toContain(bankBasic.slice('Basic '.length));
    } finally {
      await listening.close();
      handler.close();
    }
  });
});

describe('a proxy that is down', () => {
  it('is its own error, naming the proxy, and nothing reaches the bank', async () => {
    const downPort = await freePort();
    const { services, profile } = await servicesWith({
      proxy: { mode: 'explicit', url: `http://127.0.0.1:${String(downPort)}` },
      caFile: certificates.caFile,
    });
    const outcome = await syncOutcome(services, profile);
    expect(outcome.state).toBe('failed');
    const failure = outcome.failure as BankError;
    expect(failure.kind).toBe('proxy-unreachable');
    expect(failure.forPeople?.message).toContain(`The proxy 127.0.0.1:${String(downPort)}`);
    expect(failure.forPeople?.message).toContain('cannot be reached (ECONNREFUSED)');
    expect(failure.forPeople?.message).not.toMatch(/the bank .* cannot be reached/i);
  });
});

describe('HTTPS_PROXY / NO_PROXY (the environment)', () => {
  it('goes through HTTPS_PROXY with user:password@ in it, as curl and npm read it', async () => {
    const before = tinyproxy.requestLines().length;
    const proxy = new URL(tinyproxy.url);
    proxy.username = PROXY_USER;
    proxy.password = PROXY_PASSWORD;
    const { services, profile } = await servicesWith(
      { proxy: { mode: 'environment' }, caFile: certificates.caFile },
      { environment: { HTTPS_PROXY: proxy.toString() } },
    );
    await services.clients.clientFor(profile.id).checkConnection();
    expect(tinyproxy.requestLines().length).toBeGreaterThan(before);
  });

  it('sends loopback through the proxy unless NO_PROXY names it', async () => {
    const downPort = await freePort();
    const environment = { https_proxy: `http://127.0.0.1:${String(downPort)}` };
    const proxied = await servicesWith(
      { proxy: { mode: 'environment' }, caFile: certificates.caFile },
      { environment },
    );
    const error = (await proxied.services.clients
      .clientFor(proxied.profile.id)
      .ping()
      .catch((failure: unknown) => failure)) as BankError;
    expect(error.kind).toBe('proxy-unreachable');
    expect(error.forPeople?.message).toContain('(named by HTTPS_PROXY / HTTP_PROXY)');

    const direct = await servicesWith(
      { proxy: { mode: 'environment' }, caFile: certificates.caFile },
      { environment: { ...environment, NO_PROXY: 'localhost,127.0.0.1' } },
    );
    const outcome = await syncOutcome(direct.services, direct.profile);
    expect(outcome).toMatchObject({ state: 'done', fetched: 600 });
  });

  it('keeps the embedded sandbox direct whatever the environment says', async () => {
    const temp = makeTempFolder();
    temps.push(temp);
    const downPort = await freePort();
    const services = await LedgerServices.open({
      dataFolder: temp.folder,
      secretStore: new InMemorySecretStore(),
      profileStorage: new FileProfileStorage(temp.folder),
      embeddedBaseUrl: () => sandbox.baseUrl,
      network: { environment: { HTTPS_PROXY: `http://127.0.0.1:${String(downPort)}` }, systemResolver: null },
    });
    opened.push(services);
    const embedded = services.profiles.list()[0];
    if (embedded === undefined) throw new Error('no embedded profile');
    await expect(services.clients.policyFor(embedded).routeFor(new URL(sandbox.baseUrl))).resolves.toEqual({
      kind: 'direct',
    });
    expect(() => services.profiles.update(embedded.id, { network: DEFAULT_NETWORK_SETTINGS })).toThrow(
      /always reached directly/,
    );
  });
});

describe('through a TLS-inspecting proxy (mitmproxy)', () => {
  it('refuses the sync with a sentence naming the proxy’s CA, then syncs once the profile trusts that CA', async () => {
    const { services, profile } = await servicesWith({
      proxy: { mode: 'explicit', url: mitmproxy.url },
      caFile: certificates.caFile,
    });
    const refused = await syncOutcome(services, profile);
    expect(refused.state).toBe('failed');
    const failure = refused.failure as BankError;
    expect(failure.kind).toBe('tls-untrusted');
    expect(failure.attempts).toBe(1);
    const said = `${failure.forPeople?.message ?? ''} ${failure.forPeople?.action ?? ''}`;
    expect(said).toContain('issued by "CN=mitmproxy, O=mitmproxy"');
    expect(said).toContain('ledger profile update NAME --ca FILE');
    expect(said).toContain('Settings → Profiles → Edit → CA certificates');
    expect(refused.error).toContain('mitmproxy');

    await services.setNetwork(profile.id, {
      proxy: { mode: 'explicit', url: mitmproxy.url },
      caFile: mitmproxy.caFile,
    });
    const trusted = await syncOutcome(services, services.profiles.find(profile.id));
    expect(trusted).toMatchObject({ state: 'done', fetched: 600 });
  });
});

describe('a CA bundle the profile names', () => {
  it('is checked when it is set: a missing file or one without certificates is refused by name', async () => {
    const { services, profile } = await servicesWith({ proxy: { mode: 'none' }, caFile: certificates.caFile });
    await expect(
      services.setNetwork(profile.id, { proxy: { mode: 'none' }, caFile: `${certificates.folder}/nothing.pem` }),
    ).rejects.toThrow(/nothing\.pem does not exist/);
    await expect(
      services.setNetwork(profile.id, { proxy: { mode: 'none' }, caFile: `${certificates.folder}/server.ext` }),
    ).rejects.toThrow(/holds no certificate/);
  });

  it('without it, the bank’s own CA is not trusted, and the refusal names the bank’s certificate', async () => {
    const { services, profile } = await servicesWith({ proxy: { mode: 'none' }, caFile: null });
    const error = (await services.clients
      .clientFor(profile.id)
      .ping()
      .catch((failure: unknown) => failure)) as BankError;
    expect(error.kind).toBe('tls-untrusted');
    expect(error.forPeople?.message).toContain('issued by "CN=Ledgerdesk Test CA, O=Ledgerdesk tests"');
  });
});
