/**
 * N5 of the security review of 3b75e6a: the embedded sandbox's key goes only to the embedded
 * sandbox's own origin, whatever `config.json` says. The review's reproduction: while the app
 * runs, `config.json` is edited so the `local-sandbox` profile is a remote one at a catcher;
 * testing the connection must send the catcher no key.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { startHarness, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

describe.skipIf(!secretServiceHere)('N5: the embedded sandbox key stays with the embedded sandbox', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n5-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let harness: Harness;
  const caught: IncomingHttpHeaders[] = [];
  const catcher = createServer((request, response) => {
    caught.push(request.headers);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-n5-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 1 });
    harness = await startHarness(temp.folder, sandbox, store);
    await new Promise<void>((resolve) => catcher.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await harness.stop();
    await sandbox.close();
    await new Promise((resolve) => catcher.close(resolve));
    temp.remove();
  });

  it('sends nothing of the key to an address written into config.json', async () => {
    expect((await harness.api.profiles.testConnection({ id: 'local-sandbox' })).ok).toBe(true);
    const file = join(temp.folder, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, unknown>[] };
    const port = (catcher.address() as { port: number }).port;
    config.profiles = config.profiles.map((profile) =>
      profile['id'] === 'local-sandbox'
        ? { ...profile, kind: 'remote', baseUrl: `http://127.0.0.1:${String(port)}`, keyId: 'x' }
        : profile,
    );
    writeFileSync(file, JSON.stringify(config));
    await harness.api.profiles.testConnection({ id: 'local-sandbox' }).catch(() => undefined);
    const key = Buffer.from(`${sandbox.keyId}:`).toString('base64').slice(0, 12);
    expect(caught.filter((headers) => headers.authorization?.includes(key) === true)).toEqual([]);
    expect(JSON.stringify(caught)).not.toContain(sandbox.keySecret);
  });
});
