/**
 * Issue 23, item 2: the listener's verdict kept in clear decides (a request counts as received
 * in reconciliation only when it is `ok`; a replay to the listener carries the expected
 * credentials only then). In the app it is bound to the request's sealed headers (associated
 * data), with the user, event, object and operation: someone who can write the cache file
 * turns a forged, unverified notification into a verified one, and the app refuses the
 * request wherever it would decide on it. A real listener on loopback in a real cache file;
 * the attacker is another SQLite connection to that file.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { OfflineCache } from '../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import type { BankPort } from '../../src/main/services/listener/bankPort.ts';
import { openListener, type Listener } from '../../src/main/services/listener/listener.ts';
import { basicHeader, postNotification, temporaryFolder } from '../integration/listener/support.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A bank with no send records: reconciliation then lists only what the listener kept. */
const bank: BankPort = {
  baseUrl: 'http://bank.test',
  getObject: () => Promise.resolve({ id: 'ach_1' }),
  listWebhookSends: () => ({
    [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true as const, value: undefined }) }),
  }),
  createWebhook: () => Promise.reject(new Error('not used')),
  deleteWebhook: () => Promise.resolve(),
};

async function listenerInCache(): Promise<{ listener: Listener; file: string; url: string }> {
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
    sealer: cache.sealer,
  });
  cleanups.push(async () => {
    await listener.close();
    await cache.close();
    temporary.remove();
  });
  await listener.setCredentials('bank', 'listener-secret');
  const state = await listener.start({ port: 0 });
  return { listener, file: join(temporary.folder, 'cache.db'), url: state.url ?? '' };
}

/** What someone with the file does: another connection, one UPDATE. */
function tamper(file: string, sql: string, ...parameters: (string | number)[]): void {
  const raw = new DatabaseSync(file);
  raw.exec('PRAGMA busy_timeout = 5000');
  raw.prepare(sql).run(...parameters);
  raw.close();
}

describe('a listener verdict changed in the cache file is refused where it decides', () => {
  it('an unverified notification turned "ok" is refused when opened, exported and reconciled', async () => {
    const { listener, file, url } = await listenerInCache();
    const verified = await postNotification(
      `${url}/hooks/ach`,
      { event: 'ach.update', op: 'update', id: 'ach_1' },
      { authorization: basicHeader('bank', 'listener-secret') },
    );
    const forged = await postNotification(`${url}/hooks/ach`, { event: 'ach.update', op: 'update', id: 'ach_2' });
    await listener.idle();
    // The control: both open as kept, with the verdicts they were given.
    expect(listener.request(verified.requestId)?.verdict).toBe('ok');
    expect(listener.request(forged.requestId)?.verdict).toBe('missing_header');
    const before = await listener.reconcile({ webhookId: 'wh_1' });
    expect(before.receivedUnverified.map((request) => request.id)).toContain(forged.requestId);

    tamper(file, "UPDATE listener_requests SET verdict = 'ok', presented_user = 'bank' WHERE id = ?", forged.requestId);

    expect(() => listener.request(forged.requestId)).toThrow(
      /Request #\d+ kept by the listener .* was changed in the cache file outside Ledgerdesk/,
    );
    expect(() => [...listener.exportTraffic({ format: 'jsonl' })]).toThrow(/changed in the cache file/);
    await expect(listener.reconcile({ webhookId: 'wh_1' })).rejects.toThrow(/changed in the cache file/);
    // The untouched request still opens.
    expect(listener.request(verified.requestId)?.verdict).toBe('ok');
  });

  it.each([
    ['the event', "UPDATE listener_requests SET event = 'transfer.update' WHERE id = ?"],
    ['the object', "UPDATE listener_requests SET object_id = 'ach_999' WHERE id = ?"],
    ['a verified request made unverified', "UPDATE listener_requests SET verdict = 'wrong_secret' WHERE id = ?"],
  ])('%s changed in the file is refused when opened', async (_what, sql) => {
    const { listener, file, url } = await listenerInCache();
    const arrived = await postNotification(
      `${url}/hooks/ach`,
      { event: 'ach.update', op: 'update', id: 'ach_1' },
      { authorization: basicHeader('bank', 'listener-secret') },
    );
    await listener.idle();
    expect(listener.request(arrived.requestId)?.objectId).toBe('ach_1');
    tamper(file, sql, arrived.requestId);
    expect(() => listener.request(arrived.requestId)).toThrow(/changed in the cache file outside Ledgerdesk/);
  });
});
