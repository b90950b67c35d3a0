/**
 * N3 and I5 of the security review of 3b75e6a, with raw bytes over a plain TCP socket as a web
 * page (or a local program) would send them: a request Node cannot parse gets the same Host/Origin
 * guard as every other (refused, counted, never kept), one that passes keeps at most 2 KiB and
 * counts against a rate limit, so a page cannot push genuine notifications out; a request with
 * two Host headers is answered 400 by the listener and by the sandbox bank.
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { startHarness, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

/** Sends raw bytes and resolves with the status line of the answer (bounded by the server closing). */
function send(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      resolve(Buffer.concat(chunks).toString('latin1').split('\r\n')[0] ?? '');
    });
    socket.end(bytes);
  });
}

describe.skipIf(!secretServiceHere)('N3, I5: the local servers guard every request', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n3-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let harness: Harness;
  let port: number;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-n3-');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 1 });
    harness = await startHarness(temp.folder, sandbox, store);
    port = (await harness.api.listener.start({ port: 0 })).port ?? 0;
  });

  afterAll(async () => {
    await harness.stop();
    await sandbox.close();
    temp.remove();
  });

  async function kept(): Promise<number> {
    return (await harness.api.listener.status()).requestsKept;
  }

  function storedBytes(): number[] {
    const raw = new DatabaseSync(join(temp.folder, 'cache.db'), { readOnly: true });
    const rows = raw.prepare("SELECT stored_bytes FROM listener_requests WHERE outcome = 'bad_request'").all() as {
      stored_bytes: number;
    }[];
    raw.close();
    return rows.map((row) => row.stored_bytes);
  }

  it('refuses, and never keeps, unparseable requests addressed to another host or sent by a page', async () => {
    const before = await kept();
    const longUrl = await send(
      port,
      `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: evil.example:${String(port)}\r\nOrigin: http://evil.example\r\n\r\n`,
    );
    const badLength = await send(
      port,
      'POST /hook HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\nContent-Length: abc\r\n\r\nFORGED-BODY',
    );
    const fromPage = await send(
      port,
      `POST /hook HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\nOrigin: http://evil.example\r\nContent-Length: abc\r\n\r\nFORGED`,
    );
    expect(longUrl).toMatch(/^HTTP\/1\.1 421/);
    expect(badLength).toMatch(/^HTTP\/1\.1 421/);
    expect(fromPage).toMatch(/^HTTP\/1\.1 403/);
    expect(await kept()).toBe(before);
  });

  it('keeps at most 2 KiB of an unparseable request to itself, and at most 20 a minute', async () => {
    const before = await kept();
    const answers: string[] = [];
    for (let n = 0; n < 25; n += 1) {
      answers.push(
        await send(
          port,
          `POST /hook HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\nContent-Length: abc\r\nX-Pad: ${'p'.repeat(8000)}\r\n\r\nBODY-${String(n)}`,
        ),
      );
    }
    expect(answers.filter((line) => line.startsWith('HTTP/1.1 400'))).toHaveLength(20);
    expect(answers.filter((line) => line.startsWith('HTTP/1.1 429'))).toHaveLength(5);
    expect((await kept()) - before).toBe(20);
    const sizes = storedBytes();
    expect(sizes.length).toBe(20);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2048 + 1024);
  });

  it('answers 400 to two Host headers, at the listener and at the sandbox bank', async () => {
    const sandboxPort = Number(new URL(sandbox.baseUrl).port);
    const twice = (own: number): string =>
      `GET /account HTTP/1.1\r\nHost: 127.0.0.1:${String(own)}\r\nHost: evil.example:${String(own)}\r\nConnection: close\r\n\r\n`;
    expect(await send(port, twice(port))).toMatch(/^HTTP\/1\.1 400/);
    expect(await send(sandboxPort, twice(sandboxPort))).toMatch(/^HTTP\/1\.1 400/);
  });
});
