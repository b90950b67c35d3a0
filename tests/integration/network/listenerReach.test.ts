/**
 * Issue 37, item 4: a listener the bank can reach. Its public URL (a tunnel's, a reverse
 * proxy's) is what Register with bank gives the bank, and a Host it answers as its own; it
 * serves HTTPS itself with a certificate made at test time, and the sandbox (HTTPS too,
 * `npm run sandbox -- --tls-cert … --tls-key …`) delivers to it; Setup is offered the public
 * URL of an ngrok tunnel to its port, read from a fake ngrok agent API on a random port.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankClientPort } from '../../../src/main/services/listener/bankClientPort.ts';
import { suggestTunnel } from '../../../src/main/services/listener/ngrokAgent.ts';
import { BankClient } from '../../../src/main/services/bank/bankClient.ts';
import { basicOf, startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { makeCertificates, type TestCertificates } from '../../support/network/certificates.ts';
import { startTestListener, type TestListener } from '../listener/support.ts';
import { startTestServices, windowApi } from '../../support/testServices.ts';
import { createRouter } from '../../../src/main/ipc/routerCore.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';

let certificates: TestCertificates;
let sandbox: RunningSandbox;

beforeAll(async () => {
  certificates = makeCertificates();
  sandbox = await startBank({
    tls: { cert: certificates.cert, key: certificates.key },
    // Its deliveries trust the test's CA: the listener's certificate is signed by it.
    deliveryCa: certificates.caPem,
  });
});

afterAll(async () => {
  await sandbox.close();
  certificates.remove();
});

function bankOf(target: RunningSandbox) {
  return bankClientPort(
    new BankClient({
      profileName: 'Remote sandbox',
      authScheme: 'basic',
      baseUrl: target.baseUrl,
      authorization: () => Promise.resolve({ header: basicOf(target), expiresAt: null }),
      network: {
        routeFor: () => Promise.resolve({ kind: 'direct' }),
        trust: () => trustOfTestCa(),
      },
    }),
  );
}

let trust: ReturnType<typeof import('../../../src/main/services/http/trust.ts').trustFor> | null = null;
function trustOfTestCa() {
  if (trust === null) throw new Error('trust not loaded');
  return trust;
}

beforeAll(async () => {
  const { trustFor } = await import('../../../src/main/services/http/trust.ts');
  trust = trustFor(certificates.caFile);
});

/** A raw request to the listener's socket with the Host header a tunnel would send. */
function postWithHost(listening: TestListener, host: string, secure: boolean): Promise<number> {
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      {
        host: '127.0.0.1',
        port: listening.port,
        method: 'POST',
        path: '/webhooks/in',
        headers: { host, 'content-type': 'application/json' },
        ...(secure ? { ca: certificates.caPem, servername: 'localhost' } : {}),
      },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      },
    );
    outgoing.on('error', reject);
    outgoing.end('{"event":"ach.update","op":"update","id":"ach_1","url":"https://x/ach/ach_1"}');
  });
}

describe('the public URL', () => {
  it('is answered as the listener’s own Host; another name is refused (421)', async () => {
    const listening = await startTestListener({ settings: { publicUrl: 'https://abc123.ngrok-free.app/' } });
    try {
      expect(listening.listener.settings.publicUrl).toBe('https://abc123.ngrok-free.app');
      expect(await postWithHost(listening, 'abc123.ngrok-free.app', false)).toBe(200);
      expect(await postWithHost(listening, 'other.ngrok-free.app', false)).toBe(421);
      listening.listener.configure({ publicUrl: null });
      expect(await postWithHost(listening, 'abc123.ngrok-free.app', false)).toBe(421);
    } finally {
      await listening.close();
    }
  });

  it('is refused with a path or another scheme', async () => {
    const listening = await startTestListener({ start: false });
    try {
      expect(() => listening.listener.configure({ publicUrl: 'https://hooks.example.com/ledgerdesk' })).toThrow(
        /just the scheme and host/,
      );
      expect(() => listening.listener.configure({ publicUrl: 'ftp://hooks.example.com' })).toThrow(/https:\/\//);
    } finally {
      await listening.close();
    }
  });

  it('is what Register with bank gives the bank: a public https:// address, no --allow-http needed', async () => {
    const listening = await startTestListener({
      bank: bankOf(sandbox),
      settings: { publicUrl: 'https://hooks.example.com' },
    });
    try {
      const registration = await listening.listener.register({ event: 'ach.update' });
      expect(registration.url).toMatch(/^https:\/\/hooks\.example\.com\/webhooks\/[\w-]+$/);
      const atBank = await new Promise<{ url?: string }>((resolve, reject) => {
        httpsRequest(
          `${sandbox.baseUrl}/webhook/${registration.webhookId}`,
          { ca: certificates.caPem, headers: { authorization: basicOf(sandbox) } },
          (answer) => {
            let text = '';
            answer.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            answer.on('end', () => {
              resolve(JSON.parse(text) as { url?: string });
            });
          },
        )
          .on('error', reject)
          .end();
      });
      expect(atBank.url).toBe(registration.url);
      await listening.listener.unregister(registration.webhookId);
    } finally {
      await listening.close();
    }
  });

  it('without one, a remote bank is not given the listener’s loopback address', async () => {
    const listening = await startTestListener({ bank: bankOf(sandbox) });
    try {
      await expect(listening.listener.register({ event: 'ach.update' })).rejects.toThrow(
        /names a loopback or private address[\s\S]*ngrok http/,
      );
      expect(listening.listener.registrations).toEqual([]);
    } finally {
      await listening.close();
    }
  });
});

describe('HTTPS', () => {
  it('serves HTTPS with its certificate, and the HTTPS sandbox delivers to it, verified', async () => {
    const listening = await startTestListener({
      bank: bankOf(sandbox),
      settings: { tls: { certFile: certificates.certFile, keyFile: certificates.keyFile }, hydrate: false },
    });
    try {
      expect(listening.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      // A private address: the sandbox says it delivers there, so --allow-http lets it be given.
      const registration = await listening.listener.register({ event: 'ach.create', allowHttp: true });
      expect(registration.url.startsWith(listening.url)).toBe(true);
      const [account] = sandbox.demo.accounts;
      const simulated = await new Promise<number>((resolve, reject) => {
        const outgoing = httpsRequest(
          `${sandbox.baseUrl}/simulation`,
          {
            method: 'POST',
            ca: certificates.caPem,
            headers: { authorization: basicOf(sandbox), 'content-type': 'application/json' },
          },
          (answer) => {
            answer.resume();
            resolve(answer.statusCode ?? 0);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(
          JSON.stringify({
            type: 'ach.create',
            simulation: { account_id: account, amount: '5.00', direction: 'credit' },
          }),
        );
      });
      expect(simulated).toBe(202);
      let received = listening.listener.requests({ event: 'ach.create' });
      for (let round = 0; round < 200 && received.length === 0; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        received = listening.listener.requests({ event: 'ach.create' });
      }
      expect(received[0]).toMatchObject({ verdict: 'ok', path: registration.path });
      await listening.listener.unregister(registration.webhookId);
    } finally {
      await listening.close();
    }
  });

  it('says which file it cannot read, and starts no server', async () => {
    const listening = await startTestListener({
      start: false,
      settings: { tls: { certFile: `${certificates.folder}/missing.pem`, keyFile: certificates.keyFile } },
    });
    try {
      await expect(listening.listener.start({ port: 0 })).rejects.toThrow(/missing\.pem cannot be read \(ENOENT\)/);
      expect(listening.listener.state.running).toBe(false);
      listening.listener.configure({ tls: { certFile: certificates.certFile, keyFile: certificates.caFile } });
      await expect(listening.listener.start({ port: 0 })).rejects.toThrow(/not a PEM file|do not make a TLS identity/);
    } finally {
      await listening.close();
    }
  });
});

describe('ngrok’s local agent API', () => {
  let agent: ReturnType<typeof createServer>;
  let agentUrl: string;
  let tunnels: unknown[] = [];

  beforeAll(async () => {
    agent = createServer((request, response) => {
      if (request.url !== '/api/tunnels') {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ tunnels, uri: '/api/tunnels' }));
    });
    agent.listen(0, '127.0.0.1');
    await once(agent, 'listening');
    agentUrl = `http://127.0.0.1:${String((agent.address() as AddressInfo).port)}`;
  });

  afterAll(() => {
    agent.close();
  });

  it('offers the https:// address of the tunnel to the listener’s port, not one to another port', async () => {
    tunnels = [
      {
        name: 'other',
        public_url: 'https://other.ngrok-free.app',
        proto: 'https',
        config: { addr: 'http://localhost:3000' },
      },
      {
        name: 'cmd (http)',
        public_url: 'http://abc.ngrok-free.app',
        proto: 'http',
        config: { addr: 'http://localhost:4880' },
      },
      {
        name: 'cmd',
        public_url: 'https://abc.ngrok-free.app',
        proto: 'https',
        config: { addr: 'http://localhost:4880' },
      },
    ];
    expect(await suggestTunnel(4880, { agentUrl })).toEqual({
      publicUrl: 'https://abc.ngrok-free.app',
      message: expect.stringContaining(
        'ngrok tunnels https://abc.ngrok-free.app to this listener (port 4880)',
      ) as string,
    });
    const none = await suggestTunnel(4999, { agentUrl });
    expect(none.publicUrl).toBeNull();
    expect(none.message).toContain(
      'no tunnel to port 4999 (it forwards to http://localhost:3000, http://localhost:4880)',
    );
  });

  it('says so when no agent runs', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const answer = await suggestTunnel(4880, { agentUrl: `http://127.0.0.1:${String(port)}` });
    expect(answer.publicUrl).toBeNull();
    expect(answer.message).toMatch(/No ngrok agent is running on this machine[\s\S]*ngrok http 4880/);
  });

  it('reaches Setup through the app’s listener.suggestPublicUrl, and the public URL saved is used', async () => {
    const temp = makeTempFolder();
    const running = await startTestServices(temp.folder, { ngrokAgentUrl: agentUrl });
    try {
      const router = createRouter({
        handlers: running.handlers,
        senderPolicy: { isOwnWindow: (id) => id === 1, allowedOrigins: ['app://ledgerdesk'] },
      });
      const api = windowApi(router, 1);
      const started = await api.listener.start({ port: 0 });
      tunnels = [
        {
          public_url: 'https://xyz.ngrok-free.app',
          proto: 'https',
          config: { addr: `http://localhost:${String(started.port)}` },
        },
      ];
      const offer = await api.listener.suggestPublicUrl();
      expect(offer.publicUrl).toBe('https://xyz.ngrok-free.app');
      const saved = await api.listener.configure({ publicUrl: offer.publicUrl });
      expect(saved.publicUrl).toBe('https://xyz.ngrok-free.app');
      await expect(api.listener.configure({ publicUrl: 'https://xyz.ngrok-free.app/path' })).rejects.toMatchObject({
        code: 'invalid_input',
        field: 'publicUrl',
      });
    } finally {
      await running.stop();
      temp.remove();
    }
  });
});

describe('npm run sandbox -- --tls-cert … --tls-key …', () => {
  it('serves HTTPS and prints its https:// address', async () => {
    const child = spawn(
      process.execPath,
      [
        'src/sandbox/cli.ts',
        '--json',
        '--quiet',
        '--tls-cert',
        certificates.certFile,
        '--tls-key',
        certificates.keyFile,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let text = '';
      child.stdout.setEncoding('utf8');
      for await (const chunk of child.stdout) {
        text += String(chunk);
        if (text.includes('\n')) break;
      }
      const started = JSON.parse(text.split('\n')[0] ?? '{}') as { baseUrl: string };
      expect(started.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const status = await new Promise<number>((resolve, reject) => {
        httpsRequest(`${started.baseUrl}/ping`, { ca: certificates.caPem }, (answer) => {
          answer.resume();
          resolve(answer.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('refuses a certificate without its key, in one line', async () => {
    const child = spawn(process.execPath, ['src/sandbox/cli.ts', '--tls-cert', certificates.certFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    expect(said).toContain('--tls-cert and --tls-key go together');
  });
});
