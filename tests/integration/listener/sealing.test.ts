/**
 * The listener's rows sealed at rest, as in the app: the listener in the encrypted cache's
 * database with the cache's sealer. The raw file and its WAL hold no body, header, query,
 * notification, snapshot or forward excerpt in clear, yet every read returns them. Without a
 * sealer (the command line's own file) the same traffic is in clear: the positive control
 * that the search for plaintext would find it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import type { BankPort } from '../../../src/main/services/listener/bankPort.ts';
import { openListener, type Listener } from '../../../src/main/services/listener/listener.ts';
import { basicHeader, eventually, postNotification, temporaryFolder } from './support.ts';

const BODY_MARKER = 'BODYMARKER-4242-CUSTOMER';
const HEADER_MARKER = 'HEADERMARKER-7';
const QUERY_MARKER = 'QUERYMARKER-9';
const SNAPSHOT_MARKER = 'SNAPSHOTMARKER-Ada-Lovelace';
const EXCERPT_MARKER = 'EXCERPTMARKER-handler-said';
const MARKERS = [BODY_MARKER, HEADER_MARKER, QUERY_MARKER, SNAPSHOT_MARKER, EXCERPT_MARKER];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const bank: BankPort = {
  baseUrl: 'http://bank.test',
  getObject: () => Promise.resolve({ id: 'ach_1', name: SNAPSHOT_MARKER }),
  listWebhookSends: () => ({
    [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true as const, value: undefined }) }),
  }),
  createWebhook: () => Promise.reject(new Error('not used')),
  deleteWebhook: () => Promise.resolve(),
};

async function handler(): Promise<string> {
  const server: Server = createServer((request, response) => {
    request.resume();
    response.end(`${EXCERPT_MARKER}: ok`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  );
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${String(address.port)}/handler`;
}

/** A listener in a fresh encrypted cache; `sealed` decides whether it gets the cache's sealer. */
async function listenerInCache(sealed: boolean): Promise<{ listener: Listener; cache: OfflineCache; folder: string }> {
  const temporary = temporaryFolder();
  const cache = await OfflineCache.open({
    folder: temporary.folder,
    credentials: new Credentials(new InMemorySecretStore()),
    writer: 'inline',
  });
  const listener = await openListener({
    database: cache.database,
    secrets: new InMemorySecretStore(),
    bank,
    batching: { flushMs: 5 },
    sealer: sealed ? cache.sealer : null,
  });
  cleanups.push(async () => {
    await listener.close();
    await cache.close();
    temporary.remove();
  });
  return { listener, cache, folder: temporary.folder };
}

/** Receive one notification, hydrate it, forward it; return its id. */
async function traffic(listener: Listener): Promise<number> {
  // Only a verified notification is hydrated.
  await listener.setCredentials('bank', 'listener-secret');
  const state = await listener.start({ port: 0 });
  const answered = await postNotification(
    `${state.url ?? ''}/hooks/x?token=${QUERY_MARKER}`,
    { event: 'ach.update', op: 'update', id: 'ach_1', url: 'http://bank.test/ach/ach_1', note: BODY_MARKER },
    { 'x-trace': HEADER_MARKER, authorization: basicHeader('bank', 'listener-secret') },
  );
  await eventually(() => listener.request(answered.requestId)?.snapshot !== null);
  await listener.forward(answered.requestId, await handler());
  await listener.idle();
  return answered.requestId;
}

function fileText(folder: string): string {
  return ['cache.db', 'cache.db-wal']
    .map((name) => join(folder, name))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file).toString('latin1'))
    .join('\n');
}

describe('listener rows sealed at rest in the app', () => {
  it('keeps no body, header, query, notification, snapshot or excerpt in clear, and reads them back', async () => {
    const { listener, folder } = await listenerInCache(true);
    const id = await traffic(listener);
    const kept = listener.request(id);
    expect(kept?.bodyText).toContain(BODY_MARKER);
    expect(kept?.query).toContain(QUERY_MARKER);
    expect(kept?.headers).toContainEqual(['x-trace', HEADER_MARKER]);
    expect(kept?.notification).toMatchObject({ id: 'ach_1' });
    expect(kept?.snapshot).toEqual({ id: 'ach_1', name: SNAPSHOT_MARKER });
    expect(listener.deliveries(id)[0]?.excerpt).toContain(EXCERPT_MARKER);
    // Filters on the clear columns still work.
    expect(listener.count({ event: 'ach.update', objectId: 'ach_1', pathPrefix: '/hooks/' })).toBe(1);
    // Export and replay read whole requests: opened too.
    const exported = [...listener.exportTraffic({ format: 'jsonl' })].join('');
    expect(exported).toContain(BODY_MARKER);

    const onDisk = fileText(folder);
    for (const marker of MARKERS) expect(onDisk, marker).not.toContain(marker);
  });

  it('without a sealer (the command line) the same traffic is in clear: the check above would see it', async () => {
    const { listener, folder } = await listenerInCache(false);
    const id = await traffic(listener);
    expect(listener.request(id)?.bodyText).toContain(BODY_MARKER);
    const onDisk = fileText(folder);
    for (const marker of MARKERS) expect(onDisk, marker).toContain(marker);
  });

  it('a sealed value moved to another row does not open', async () => {
    const { listener, cache } = await listenerInCache(true);
    const state = await listener.start({ port: 0 });
    const first = await postNotification(`${state.url ?? ''}/a`, { event: 'ach.update', id: 'ach_1', note: 'one' });
    const second = await postNotification(`${state.url ?? ''}/b`, { event: 'ach.update', id: 'ach_2', note: 'two' });
    cache.database
      .prepare('UPDATE listener_requests SET body = (SELECT body FROM listener_requests WHERE id = ?) WHERE id = ?')
      .run(first.requestId, second.requestId);
    expect(listener.request(first.requestId)?.bodyText).toContain('one');
    expect(() => listener.request(second.requestId)).toThrow(/does not open/);
  });
});
