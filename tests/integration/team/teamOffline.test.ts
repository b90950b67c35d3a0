/**
 * Offline first: with the team server down (nothing listening) or slow (a relay that accepts
 * and never answers), every action is still accepted and queued, the laptop's queues still
 * read, and nothing is lost; once the server answers again, one sync pushes it all.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SETTINGS_FILE } from '../../../src/main/services/team/teamConfig.ts';
import { TeamSession } from '../../../src/main/services/team/teamSession.ts';
import { createTestDatabase, initTeam, type Laptop, laptopOf, uniqueLogin } from '../../support/team/teamDatabase.ts';
import { startTcpProxy, type TcpProxy } from '../../support/team/tcpProxy.ts';

let alice: Laptop;
let bob: Laptop;
let proxy: TcpProxy;
let session: TeamSession;

beforeAll(async () => {
  const db = await createTestDatabase();
  const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob') };
  const report = await initTeam(db, 'acme-offline', [names.alice, names.bob]);
  alice = await laptopOf(report, names.alice);
  bob = await laptopOf(report, names.bob);
  // From now on alice's laptop reaches the server through a relay the test controls.
  proxy = await startTcpProxy(db.cluster.port);
  const file = join(alice.folder, TEAM_SETTINGS_FILE);
  const settings = JSON.parse(readFileSync(file, 'utf8')) as { server: { port: number } };
  settings.server.port = proxy.port;
  writeFileSync(file, JSON.stringify(settings));
  await alice.session.close();
  const reopened = TeamSession.open({
    dataFolder: alice.folder,
    secretStore: alice.secretStore,
    database: alice.database,
    connectTimeoutMs: 1_000,
    queryTimeoutMs: 2_000,
  });
  if (reopened === null) throw new Error('no team settings');
  session = reopened;
});

afterAll(async () => {
  await session.close();
  await bob.session.close();
  await proxy.close();
});

describe('a server that is down or slow', () => {
  it('down: actions queue, the sync says why, nothing is lost; back up, one sync pushes everything', async () => {
    await session.synchronise();
    await proxy.close();
    for (let index = 0; index < 5; index += 1)
      await session.desk.act({
        kind: 'application',
        ref: `down_${String(index)}`,
        action: 'propose',
        disposition: 'flagged',
        note: `offline ${String(index)}`,
      });
    const outcome = await session.synchronise();
    expect(outcome.problem).toMatch(/cannot be reached .*your actions stay queued/);
    expect(session.status().queued).toBe(5);
    expect(session.desk.queues().conflicts).toEqual([]);
    await proxy.reopen();
    const back = await session.synchronise();
    expect(back.problem).toBeNull();
    expect(back.push).toMatchObject({ sent: 5, ok: 5 });
    expect(session.status().queued).toBe(0);
    await bob.session.synchronise();
    expect((await bob.session.desk.history('application', 'down_3'))[0]?.note).toBe('offline 3');
  });

  it('slow: a server that accepts and never answers leaves the actions queued', async () => {
    proxy.mode = 'black-hole';
    await session.connection.close();
    await session.desk.act({ kind: 'application', ref: 'slow_1', action: 'claim' });
    const outcome = await session.synchronise();
    expect(outcome.problem).toMatch(/cannot be reached/);
    expect(session.status().queued).toBe(1);
    proxy.mode = 'forward';
    const back = await session.synchronise();
    expect(back.push).toMatchObject({ sent: 1, ok: 1 });
  });
});
