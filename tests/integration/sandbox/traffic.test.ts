/**
 * The sandbox's traffic (issue 27): one entry per API request (time, method, path, status,
 * ms, key id) and per delivery attempt (event, url, status, attempt, next retry), told to the
 * `traffic` option; `npm run sandbox` prints them as lines, --json as objects, --quiet none.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, trafficLineOf, type RunningSandbox, type SandboxTraffic } from '../../../src/sandbox/index.ts';

let sandbox: RunningSandbox | null = null;
const servers: Server[] = [];
const cleanups: (() => void)[] = [];

afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
  for (const server of servers.splice(0)) server.close();
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function basic(running: RunningSandbox): string {
  return `Basic ${Buffer.from(`${running.keyId}:${running.keySecret}`).toString('base64')}`;
}

async function until(check: () => boolean): Promise<void> {
  for (let round = 0; round < 2000 && !check(); round += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

describe('the traffic option', () => {
  it('tells each request with its key id, and each delivery attempt with its next retry', async () => {
    const entries: SandboxTraffic[] = [];
    sandbox = await startSandbox({
      port: 0,
      dataFile: ':memory:',
      accounts: 1,
      pendingTransactionsPerAccount: 1,
      retryBaseMs: 20,
      traffic: (entry) => entries.push(entry),
    });
    let answers = 0;
    const receiver = createServer((request, response) => {
      request.resume();
      answers += 1;
      response.writeHead(answers === 1 ? 500 : 200).end();
    });
    servers.push(receiver);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hookUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}/hook`;

    await fetch(`${sandbox.baseUrl}/ping`);
    await fetch(`${sandbox.baseUrl}/account?page_size=1`, { headers: { authorization: basic(sandbox) } });
    await fetch(`${sandbox.baseUrl}/account`, { headers: { authorization: 'Basic bm9wZTpub3Bl' } });
    await fetch(`${sandbox.baseUrl}/webhook`, {
      method: 'POST',
      headers: { authorization: basic(sandbox), 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'account.update', url: hookUrl }),
    });
    const account = sandbox.demo.accounts[0] ?? '';
    await fetch(`${sandbox.baseUrl}/simulation`, {
      method: 'POST',
      headers: { authorization: basic(sandbox), 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'account.pending_transaction',
        simulation: { account_id: account, amount: '5.00', type: 'deposit', desc: 'TRAFFIC TEST' },
      }),
    });
    await until(() => entries.filter((entry) => entry.kind === 'delivery').length === 2);

    const requests = entries.filter((entry) => entry.kind === 'request');
    expect(requests.slice(0, 4).map((entry) => [entry.method, entry.path, entry.status, entry.keyId])).toEqual([
      ['GET', '/ping', 200, null],
      ['GET', '/account', 200, sandbox.keyId],
      ['GET', '/account', 401, null],
      ['POST', '/webhook', 200, sandbox.keyId],
    ]);
    expect(requests.every((entry) => entry.ms >= 0 && /^\d{4}-\d\d-\d\dT.*Z$/.test(entry.time))).toBe(true);
    const [failed, sent] = entries.filter((entry) => entry.kind === 'delivery');
    expect(failed).toMatchObject({ event: 'account.update', url: hookUrl, status: 500, result: 'error', attempt: 1 });
    expect(Date.parse(failed?.nextRetryAt ?? '')).toBeGreaterThan(Date.parse(failed?.time ?? ''));
    expect(sent).toMatchObject({ status: 200, result: 'sent', attempt: 2, nextRetryAt: null, error: null });
    expect(trafficLineOf(failed as SandboxTraffic)).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} {2}-> account\.update +http:\/\/127\.0\.0\.1:\d+\/hook {2}500 {2}attempt 1, next retry \d\d:\d\d:\d\d\.\d{3}$/,
    );
    expect(trafficLineOf(requests[1] as SandboxTraffic)).toMatch(
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} {2}GET +/account +200 +\\d+\\.\\d ms {2}${sandbox.keyId}$`),
    );
  });
});

describe('npm run sandbox', () => {
  const cli = join(import.meta.dirname, '..', '..', '..', 'src', 'sandbox', 'cli.ts');

  async function run(args: string[]): Promise<{ lines: string[]; stop: () => Promise<void> }> {
    const child = spawn(process.execPath, [
      cli,
      '--port',
      '0',
      '--accounts',
      '1',
      '--pending-per-account',
      '1',
      ...args,
    ]);
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const lines: string[] = [];
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      pending += text;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      lines.push(...parts);
    });
    const exited = new Promise<void>((resolve) => {
      child.on('exit', () => {
        resolve();
      });
    });
    await until(() => lines.length > 0);
    return {
      lines,
      async stop() {
        child.kill('SIGINT');
        await exited;
      },
    };
  }

  it('--json: the banner object, then one object per request; --quiet: none', async () => {
    const json = await run(['--json']);
    const banner = JSON.parse(json.lines[0] ?? '{}') as { baseUrl: string; keyId: string; keySecret: string };
    await fetch(`${banner.baseUrl}/ping`);
    await until(() => json.lines.length >= 2);
    await json.stop();
    expect(JSON.parse(json.lines[1] ?? '{}')).toMatchObject({
      kind: 'request',
      method: 'GET',
      path: '/ping',
      status: 200,
    });

    const quiet = await run(['--quiet']);
    const url = /Sandbox listening on (\S+)/.exec(quiet.lines[0] ?? '')?.[1] ?? '';
    await until(() => quiet.lines.some((line) => line.startsWith('Ctrl+C')));
    await fetch(`${url}/ping`);
    await fetch(`${url}/ping`);
    await quiet.stop();
    expect(quiet.lines.filter((line) => line.includes('/ping'))).toEqual([]);
  });
});
