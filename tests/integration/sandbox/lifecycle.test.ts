/** startSandbox()/close(): loopback by default, in-flight requests finish, then the port is closed. */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.ts';
import { basicOf } from './sandboxClient.ts';

describe('sandbox lifecycle', () => {
  it('binds 127.0.0.1 on a free port by default', async () => {
    const sandbox = await startSandbox();
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:[1-9][0-9]*$/);
    await sandbox.close();
    await expect(fetch(`${sandbox.baseUrl}/ping`)).rejects.toThrow();
  });

  it('lets a request that is still uploading finish when close() is called', async () => {
    const sandbox = await startSandbox();
    const chunk = Buffer.alloc(64 * 1024, 7);
    let closing: Promise<void> | undefined;
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const upload = http.request(
        `${sandbox.baseUrl}/file`,
        {
          method: 'POST',
          headers: {
            authorization: basicOf(sandbox.keyId, sandbox.keySecret),
            'content-type': 'application/octet-stream',
            'content-length': String(chunk.length * 2),
            // The server's 100 Continue proves it is handling the request before close() begins.
            expect: '100-continue',
          },
        },
        (response) => {
          let body = '';
          response.on('data', (piece: Buffer) => (body += piece.toString()));
          response.on('end', () => {
            resolve({ status: response.statusCode ?? 0, body });
          });
        },
      );
      upload.on('error', reject);
      upload.on('continue', () => {
        closing = sandbox.close();
        upload.write(chunk);
        upload.end(chunk);
      });
      upload.flushHeaders();
    });
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ content_length: chunk.length * 2 });
    await closing;
    await expect(fetch(`${sandbox.baseUrl}/ping`)).rejects.toThrow();
  });

  it('redoes a seed that was cut short instead of failing on its leftovers', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sandbox-seed-'));
    try {
      const dataFile = join(folder, 'bank.db');
      const first = await startSandbox({ dataFile, pendingTransactionsPerAccount: 40 });
      const demo = first.demo;
      await first.close();
      // What a kill during seeding leaves: rows, but no record that the seed finished.
      const database = new DatabaseSync(dataFile);
      database.exec("DELETE FROM meta WHERE name = 'demo'");
      database.close();
      const again = await startSandbox({ dataFile, pendingTransactionsPerAccount: 40 });
      expect(again.demo).toEqual(demo);
      const page = await fetch(
        `${again.baseUrl}/account/${demo.accounts[0] ?? ''}/pending_transaction?page_size=1000`,
        {
          headers: { authorization: basicOf(again.keyId, again.keySecret) },
        },
      );
      expect(((await page.json()) as { data: unknown[] }).data).toHaveLength(40);
      await again.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
