/**
 * Found by the faults-under-load run: `listener.listRequests` with the contract's largest
 * limit (1000) asked the request log for 1001 rows to see whether more followed; the log caps
 * a page at 1000, so the answer never had a next cursor and everything past the newest 1000
 * kept requests could not be listed. Pages of every size now reach every request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices } from '../../../src/main/app/services.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../../src/main/services/profiles/profileStorage.ts';
import { buildLedgerdeskApi, type LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';

const KEPT = 1_050;
let folder: string;
let services: RunningServices;
let api: LedgerdeskApi;

function post(url: string, agent: Agent, index: number): Promise<number> {
  const body = JSON.stringify({
    event: 'ach.update',
    op: 'update',
    id: `ach_paging${String(index)}`,
    url: 'http://127.0.0.1:1/ach',
  });
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${url}/hooks`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          resolve(response.statusCode ?? 0);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-listener-paging-'));
  services = await startServices({
    dataFolder: folder,
    sandbox: null,
    secretStore: new InMemorySecretStore(),
    settings: new InMemoryProfileStorage(),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    send: () => undefined,
    chooseSavePath: () => Promise.resolve(null),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: { isOwnWindow: () => true, allowedOrigins: ['app://ledgerdesk'] },
  });
  api = buildLedgerdeskApi({
    invoke: (channel, input) =>
      router.dispatch({ webContentsId: 1, isMainFrame: true, frameUrl: 'app://ledgerdesk/' }, channel, input),
    on: () => () => undefined,
  });
  const started = await api.listener.start({ port: 0 });
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < KEPT) {
        const index = next;
        next += 1;
        expect(await post(started.url ?? '', agent, index)).toBe(200);
      }
    }),
  );
  agent.destroy();
  for (let round = 0; round < 400 && (await api.listener.countRequests({})).count < KEPT; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
});

afterAll(async () => {
  await services.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('listener.listRequests pages through every kept request', () => {
  it.each([1000, 999, 500, 7])('with pages of %i', async (limit) => {
    expect((await api.listener.countRequests({})).count).toBe(KEPT);
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < 1_000; page += 1) {
      const listed = await api.listener.listRequests({ limit, ...(cursor === null ? {} : { cursor }) });
      for (const row of listed.rows) seen.add(row.id);
      cursor = listed.nextCursor;
      if (cursor === null) break;
    }
    expect(seen.size).toBe(KEPT);
  });

  it('says there is no next page when the last page is exactly full', async () => {
    const first = await api.listener.listRequests({ limit: 1000 });
    const second = await api.listener.listRequests({ limit: KEPT - 1000, cursor: first.nextCursor ?? '' });
    expect(second.rows).toHaveLength(KEPT - 1000);
    expect(second.nextCursor).toBeNull();
  });
});
