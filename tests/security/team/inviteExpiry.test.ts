/**
 * The informational finding "invites never expire" of the security review of af86022 (I-T1),
 * against a real PostgreSQL: an invite is usable for seven days by default (the lead's signed
 * invite event says until when); an expired one is refused by the server, and a join the server
 * lets through after its signed expiry (a superuser who moved the server's date) is named by
 * every laptop. The lead invites the same login again, and that invite works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { teamJoin } from '../../../src/main/services/team/teamJoin.ts';
import { TeamSession } from '../../../src/main/services/team/teamSession.ts';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  initTeam,
  joinLaptop,
  laptopOf,
  openCacheDatabase,
  uniqueLogin,
  type InitializedTeam,
  type Laptop,
  type TestDatabase,
} from '../../support/team/teamDatabase.ts';

const workspace = 'sec-invite-expiry';
const WEEK = 7 * 86_400_000;
let db: TestDatabase;
let made: InitializedTeam;
let alice: Laptop;
let bob: Laptop;
const opened: TeamSession[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob') };
  made = await initTeam(db, workspace, [names.alice, names.bob]);
  alice = await laptopOf(made, names.alice);
  bob = await laptopOf(made, names.bob);
});

afterAll(async () => {
  for (const session of [alice.session, bob.session, ...opened]) await session.close();
});

/** The lead's laptop as it was `ago` ms before now: what it signs says "expires in 7 days" from then. */
function leadAsOf(ago: number): TeamSession {
  const session = TeamSession.open({
    dataFolder: alice.folder,
    secretStore: alice.secretStore,
    database: alice.database,
    now: () => new Date(Date.now() - ago),
  });
  if (session === null) throw new Error('no team settings');
  opened.push(session);
  return session;
}

function attempt(inviteFile: string) {
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-laptop-'));
  return teamJoin({
    inviteFile,
    dataFolder: folder,
    secretStore: new InMemorySecretStore(),
    database: openCacheDatabase(folder),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('invites expire', () => {
  it('an invite older than its lifetime is refused by the server, and spends nothing', async () => {
    const dave = uniqueLogin('dave');
    // Made "7 days minus 2 seconds ago": it expires 2 seconds from now.
    const { file, expires } = await leadAsOf(WEEK - 2_000).invite(dave, 'officer', made.outFolder);
    expect(Date.parse(expires) - Date.now()).toBeLessThan(2_500);
    await sleep(3_000);
    await expect(attempt(file)).rejects.toMatchObject({
      kind: 'refused',
      message: expect.stringContaining(`this invite expired on ${expires.slice(0, 19)}`) as unknown,
    });
    // The lead invites dave again; that invite works, and the history says so.
    const again = await alice.session.invite(dave, 'officer', made.outFolder);
    const late = await joinLaptop(again.file);
    opened.push(late.session);
    expect(await verifyTeamHistory(late.session)).toMatchObject({ ok: true });
    const members = await bob.session.members();
    expect(members.find((member) => member.login === dave)).toMatchObject({ joined: true, notice: 'new' });
  });

  it('a join the server lets through after the signed expiry is named by every laptop', async () => {
    const erin = uniqueLogin('erin');
    const { file, expires } = await leadAsOf(WEEK - 2_000).invite(erin, 'officer', made.outFolder);
    await sleep(3_000);
    // The superuser moves the server's expiry a day on: the server takes the join.
    const admin = await db.admin();
    try {
      await admin.query(
        "UPDATE team.invites SET expires_at = now() + interval '1 day' WHERE workspace = $1 AND role_name = $2",
        [workspace, erin],
      );
    } finally {
      await admin.end();
    }
    await attempt(file);
    for (const laptop of [alice, bob]) {
      await expect(laptop.session.sync.pull()).rejects.toMatchObject({
        kind: 'tampered',
        message: expect.stringContaining(`${erin}'s invite expired at ${expires}, before this join`) as unknown,
      });
      expect((await verifyTeamHistory(laptop.session)).ok).toBe(false);
    }
  });
});
