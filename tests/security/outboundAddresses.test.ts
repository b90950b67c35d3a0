/**
 * N4 and N7 of the security review of 3b75e6a. N4: "the listener itself" is the exact address
 * and port it bound; a squatter on another loopback address at that port (127.0.0.2, [::1])
 * never gets the listener's Basic secret on replay nor the bank's Authorization on forward.
 * N7: addresses are normalised before the allow-list's rules, so mapped, compatible, NAT64 and
 * 6to4 spellings of link-local and metadata addresses are refused like their plain forms, even
 * after the user confirms. The review's reproduction through the real IPC router and listener.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { refusal, startHarness, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
const LISTENER_SECRET = `SECRET-N4-${randomUUID()}`;

interface Squatter {
  caught: IncomingHttpHeaders[];
  server: Server;
}

async function squat(host: string, port: number): Promise<Squatter> {
  const caught: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    caught.push(request.headers);
    request.resume();
    request.on('end', () => response.end('{}'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return { caught, server };
}

describe.skipIf(!secretServiceHere)('N4, N7: where the listener sends', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n4-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let harness: Harness;
  let port: number;
  const squatters: Squatter[] = [];

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-n4-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 1 });
    harness = await startHarness(temp.folder, sandbox, store);
    port = (await harness.api.listener.start({ port: 0 })).port ?? 0;
    await harness.api.listener.configure({ expectedBasicUser: 'bank', expectedBasicSecret: LISTENER_SECRET });
    squatters.push(await squat('127.0.0.2', port), await squat('::1', port));
  });

  afterAll(async () => {
    for (const squatter of squatters) await new Promise((resolve) => squatter.server.close(resolve));
    await harness.stop();
    await sandbox.close();
    temp.remove();
  });

  async function notify(objectId: string): Promise<string> {
    const answer = await fetch(`http://127.0.0.1:${String(port)}/hooks/ach`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`bank:${LISTENER_SECRET}`).toString('base64')}`,
      },
      body: JSON.stringify({
        event: 'ach.update',
        op: 'update',
        id: objectId,
        url: `${sandbox.baseUrl}/ach/${objectId}`,
      }),
    });
    expect(answer.status).toBe(200);
    const { rows } = await harness.api.listener.listRequests({ objectId, limit: 1 });
    return rows[0]?.id ?? '';
  }

  it('replays with the listener’s secret to no squatter on another loopback address; a forward goes only where the user pointed it', async () => {
    const id = await notify('ach_sec_1');
    for (const target of [`http://127.0.0.2:${String(port)}/hooks/ach`, `http://[::1]:${String(port)}/hooks/ach`]) {
      const refused = await refusal(
        harness.api.listener.replay({ requestIds: [id], targetUrl: target, applyBasicAuth: true }),
      );
      expect(refused.message).toMatch(/sent only to the listener itself/);
    }
    await harness.api.listener.configure({ forwardTo: `http://127.0.0.2:${String(port)}/fwd` });
    await notify('ach_sec_2');
    for (let round = 0; round < 100 && (squatters[0]?.caught.length ?? 0) === 0; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(squatters[0]?.caught.length).toBeGreaterThan(0);
    // A forward is the request as received, the bank's Authorization included (issue 27), sent
    // only to the address the user chose as the forward target (here, on purpose, the squatter's):
    // it arrives marked with the listener's verdict, and the listener adds no secret of its own.
    const bankAuthorization = `Basic ${Buffer.from(`bank:${LISTENER_SECRET}`).toString('base64')}`;
    expect(
      squatters[0]?.caught.every(
        (headers) => headers.authorization === bankAuthorization && headers['x-ledgerdesk-verdict'] === 'ok',
      ),
    ).toBe(true);
  });

  it.each([
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::1]/',
    'http://[fd00:ec2::254]/',
    'http://169.254.169.254/',
  ])('refuses %s on the allow-list even when the user confirms', async (url) => {
    harness.confirmAnswer.value = true;
    const refused = await refusal(harness.api.listener.allowTarget({ url }));
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toMatch(/link-local/);
    expect((await harness.api.listener.getConfig()).allowedTargets).toEqual([]);
  });
});
