/**
 * A secret belongs to the origin it was entered for (issue 15, item 1; review H1). A real
 * sandbox bank holds the old origin; a catcher server on another loopback port plays the new
 * host and records every request it gets. Whatever path a call takes (test connection, sync,
 * the offline ping, the command line, an edited profiles file), the old secret never reaches
 * the catcher, and nothing at all reaches it until a secret is entered for it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BankHttp, PathOutsideBank } from '../../../src/main/services/bank/bankHttp.ts';
import { SecretNeedsReentry } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { ledger } from './support/ledgerRun.ts';
import { servicesOn, startBank, type RunningSandbox, type ServicesOnBank } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

interface Caught {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

interface Catcher {
  baseUrl: string;
  requests: Caught[];
  close: () => Promise<void>;
}

/** Answers 200 `{"data":[]}` to anything and remembers every request. */
async function startCatcher(): Promise<Catcher> {
  const requests: Caught[] = [];
  const server: Server = createServer((request, response) => {
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"data":[],"page_next":null,"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // `localhost`, not 127.0.0.1: another origin than the sandbox's even were the port reused.
    baseUrl: `http://localhost:${String(port)}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Every form in which the old secret could travel: raw, and inside a Basic header. */
function leaks(requests: Caught[], sandbox: RunningSandbox): string[] {
  const basic = Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64');
  return requests
    .flatMap((request) => [request.url, ...Object.values(request.headers).flat()])
    .filter((text): text is string => typeof text === 'string')
    .filter((text) => text.includes(sandbox.keySecret) || text.includes(basic));
}

let sandbox: RunningSandbox;
let catcher: Catcher;
let temp: { folder: string; remove: () => void };

beforeEach(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 5 });
  catcher = await startCatcher();
  temp = makeTempFolder();
});

afterEach(async () => {
  await catcher.close();
  await sandbox.close();
  temp.remove();
});

describe('a secret bound to its origin, in the services', () => {
  let bank: ServicesOnBank;
  beforeEach(async () => {
    bank = await servicesOn(sandbox, join(temp.folder, 'data'));
  });
  afterEach(async () => {
    await bank.services.close();
  });

  it('drops the secret when the base URL moves to another origin, and makes no call until it is entered again', async () => {
    await bank.services.clients.clientFor(bank.profile.id).checkConnection();
    const moved = await bank.services.updateProfile(bank.profile.id, { baseUrl: catcher.baseUrl });
    expect(moved.waitingForSecret).toBe(true);
    expect(moved.profile.secretDropped).toBe(`its address moved from ${sandbox.baseUrl} to ${catcher.baseUrl}`);
    expect(await bank.secrets.has(`profile:${bank.profile.id}`)).toBe(false);

    // Test connection, accounts, a sync and the offline ping: none of them leaves.
    expect(() => bank.services.clients.clientFor(bank.profile.id)).toThrow(SecretNeedsReentry);
    expect(() => bank.services.clients.clientFor(bank.profile.id)).toThrow(/needs its secret again/);
    const ping = await bank.services.clients.connectivityOf(bank.profile.id).checkNow();
    expect(ping.status).toBe('offline');
    expect(ping.reason).toMatch(/needs its secret again/);
    const sync = bank.services.sync.start({ kind: 'webhooks', profileId: bank.profile.id });
    await expect(sync.done).resolves.toMatchObject({ state: 'failed' });
    expect(catcher.requests).toEqual([]);

    const actions = bank.services.cache.audit.list({ profileId: bank.profile.id }).rows.map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['profile.update', 'credentials.drop']));

    // Entered again, for the new origin: only the new secret goes there.
    const again = await bank.services.setProfileSecret(bank.profile.id, 'secret-for-the-new-host');
    expect(again.secretDropped).toBeUndefined();
    await bank.services.clients.clientFor(bank.profile.id).checkConnection();
    expect(catcher.requests.length).toBeGreaterThan(0);
    expect(catcher.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${sandbox.keyId}:secret-for-the-new-host`).toString('base64')}`,
    );
    expect(leaks(catcher.requests, sandbox)).toEqual([]);
  });

  it('keeps the secret for a new path on the same origin, a new name or the Production flag', async () => {
    const renamed = await bank.services.updateProfile(bank.profile.id, {
      name: 'Sandbox two',
      baseUrl: `${sandbox.baseUrl}/`,
      production: true,
    });
    expect(renamed.waitingForSecret).toBe(false);
    await bank.services.clients.clientFor(bank.profile.id).checkConnection();
    const off = await bank.services.updateProfile(bank.profile.id, { production: false });
    expect(off.profile.production).toBe(false);
    const actions = bank.services.cache.audit.list({ profileId: bank.profile.id }).rows.map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['profile.production-on', 'profile.production-off']));
    expect(actions).not.toContain('credentials.drop');
  });

  it('never sends the secret to an address written into the profiles file behind its back', async () => {
    // Any process of the user can edit config.json: the binding lives in the keychain entry.
    const storage = new FileProfileStorage(join(temp.folder, 'data'));
    const edited = (storage.get('profiles') as { id: string; baseUrl: string }[]).map((entry) =>
      entry.id === bank.profile.id ? { ...entry, baseUrl: catcher.baseUrl } : entry,
    );
    storage.set('profiles', edited);
    const client = bank.services.clients.clientFor(bank.profile.id);
    await expect(client.checkConnection()).rejects.toThrow(SecretNeedsReentry);
    await expect(client.ping()).rejects.toThrow(/entered for http:\/\/127\.0\.0\.1:\d+, and the profile now points at/);
    await expect(client.listAccounts()).rejects.toThrow(SecretNeedsReentry);
    expect(catcher.requests).toEqual([]);
  });

  it('refuses a new address that breaks the https rule, and changes nothing', async () => {
    for (const [baseUrl, problem] of [
      ['http://bank.example', /must use https:\/\/ for a remote bank/],
      ['https://key:secret@bank.example', /must not contain a user name or password/],
    ] as const) {
      await expect(bank.services.updateProfile(bank.profile.id, { baseUrl })).rejects.toThrow(problem);
    }
    expect(bank.services.profiles.find(bank.profile.id).baseUrl).toBe(sandbox.baseUrl);
    await bank.services.clients.clientFor(bank.profile.id).checkConnection();
  });
});

describe('`ledger profile update`', () => {
  const secrets = new InMemorySecretStore();
  const data = (): string[] => ['--data', join(temp.folder, 'cli')];

  it('leaves the profile waiting without a secret, then takes one from standard input', async () => {
    const added = await ledger(
      [...data(), 'profile', 'add', 'Bank', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId, '--production'],
      secrets,
      sandbox.keySecret,
    );
    expect(added.code).toBe(0);

    const moved = await ledger([...data(), 'profile', 'update', 'Bank', '--base-url', catcher.baseUrl], secrets);
    expect(moved).toMatchObject({ code: 0, stderr: '' });
    expect(moved.stdout).toMatch(/old api key secret was dropped/);
    expect(moved.stdout).toMatch(/needs its secret again and makes no call until then/);
    const list = await ledger([...data(), 'profile', 'list'], secrets);
    expect(list.stdout).toMatch(/Bank .*needs its secret again/);

    const refused = await ledger([...data(), 'accounts', '--profile', 'Bank'], secrets);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ledger: Profile Bank needs its secret again/);
    expect(catcher.requests).toEqual([]);

    const entered = await ledger([...data(), '--json', 'profile', 'update', 'Bank'], secrets, 'cli-new-secret\n');
    expect(entered.code).toBe(0);
    expect(JSON.parse(entered.stdout)).toMatchObject({ waitingForSecret: false, profile: { name: 'Bank' } });
    expect(entered.stdout).not.toContain('cli-new-secret');
    await ledger([...data(), 'accounts', '--profile', 'Bank'], secrets);
    expect(catcher.requests.length).toBeGreaterThan(0);
    expect(catcher.requests.every((request) => request.headers.authorization?.startsWith('Basic ') === true)).toBe(
      true,
    );
    expect(leaks(catcher.requests, sandbox)).toEqual([]);

    const off = await ledger(
      [...data(), 'profile', 'update', 'Bank', '--no-production', '--name', 'Bank (test)'],
      secrets,
    );
    expect(off).toMatchObject({ code: 0 });
    expect(off.stdout).toMatch(/Updated profile Bank \(test\) \(http:\/\/localhost:\d+\)\./);
    const audit = await ledger([...data(), '--json', 'audit'], secrets);
    const actions = (JSON.parse(audit.stdout) as { rows: { action: string }[] }).rows.map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['credentials.drop', 'credentials.set', 'profile.production-off']));
  });

  it('moves origin and takes the new secret in one step', async () => {
    await ledger(
      [...data(), 'profile', 'add', 'Bank', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId],
      secrets,
      sandbox.keySecret,
    );
    const moved = await ledger(
      [...data(), 'profile', 'update', 'Bank', '--base-url', catcher.baseUrl],
      secrets,
      'one-step-secret',
    );
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/new api key secret is in the keychain, for http:\/\/localhost:\d+/);
    await ledger([...data(), 'accounts', '--profile', 'Bank'], secrets);
    expect(catcher.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${sandbox.keyId}:one-step-secret`).toString('base64')}`,
    );
    expect(leaks(catcher.requests, sandbox)).toEqual([]);
  });

  it('answers each bad input with one clear line and changes nothing', async () => {
    await ledger(
      [...data(), 'profile', 'add', 'Bank', '--base-url', sandbox.baseUrl, '--key-id', sandbox.keyId],
      secrets,
      sandbox.keySecret,
    );
    const cases: [string[], number, RegExp][] = [
      [['profile', 'update', 'Bank'], 2, /needs --base-url, --name, --production or --no-production, or a secret/],
      [['profile', 'update'], 2, /needs exactly one NAME/],
      [['profile', 'update', 'Nope', '--name', 'X'], 1, /There is no profile named Nope/],
      [['profile', 'update', 'Bank', '--base-url', 'http://bank.example'], 1, /must use https:\/\/ for a remote bank/],
      [['profile', 'update', 'Bank', '--base-url', 'https://u:p@bank.example'], 1, /user name or password/],
      [['profile', 'update', 'Bank', '--key-id', 'k'], 2, /has no option --key-id/],
      [['profile', 'update', 'Local sandbox', '--base-url', 'https://bank.example'], 2, /chooses its own address/],
      [['profile', 'update', 'Bank', '--name', 'Local sandbox'], 1, /already exists/],
    ];
    for (const [argv, code, message] of cases) {
      const answer = await ledger([...data(), ...argv], secrets);
      expect(answer.code, argv.join(' ')).toBe(code);
      expect(answer.stderr, argv.join(' ')).toMatch(message);
      expect(answer.stderr.trim().split('\n')).toHaveLength(1);
    }
    const list = await ledger([...data(), '--json', 'profile', 'list'], secrets);
    const bankRow = (JSON.parse(list.stdout) as { rows: { name: string; baseUrl: string }[] }).rows.find(
      (row) => row.name === 'Bank',
    );
    expect(bankRow?.baseUrl).toBe(sandbox.baseUrl);
    const still = await ledger([...data(), 'accounts', '--profile', 'Bank'], secrets);
    expect(still.code).toBe(0);
  });
});

describe('a request path cannot leave the base URL (review L13)', () => {
  it('refuses protocol-relative and absolute paths before anything is sent', async () => {
    let authorizations = 0;
    const http = new BankHttp({
      profileName: 'Sandbox',
      authScheme: 'basic',
      baseUrl: sandbox.baseUrl,
      authorization: () => {
        authorizations += 1;
        return Promise.resolve({ header: 'Basic c2VjcmV0', expiresAt: null });
      },
    });
    const catcherHost = catcher.baseUrl.replace(/^http:/, '');
    for (const path of [`${catcherHost}/x`, `${catcher.baseUrl}/x`, `/\\${catcherHost.slice(2)}/x`, 'relative/x']) {
      await expect(http.send({ method: 'GET', path, endpoint: 'GET /x' }), path).rejects.toThrow(PathOutsideBank);
    }
    expect(authorizations).toBe(0);
    expect(catcher.requests).toEqual([]);
    // A normal path still works.
    await expect(http.send({ method: 'GET', path: '/ping', endpoint: 'GET /ping' })).resolves.toMatchObject({
      status: 200,
    });
  });
});
