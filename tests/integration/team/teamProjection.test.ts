/**
 * Issue 23, item 2: the laptop's team queue (team_reviews, the projection of the verified
 * history) is kept in clear in the cache file. Someone with the file turns a flagged item cleared,
 * or deletes an item from the queue: the laptop refuses to show or act on the item, and
 * `ledger audit verify --team` names it, because every row must be what the verified events
 * make. A real PostgreSQL (the team server), two laptops, real cache files.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import { createTestDatabase, initTeam, type Laptop, laptopOf, uniqueLogin } from '../../support/team/teamDatabase.ts';

const workspace = 'acme-projection';
const opened: Laptop[] = [];

afterEach(async () => {
  for (const laptop of opened.splice(0)) {
    await laptop.session.close();
    laptop.database.close();
  }
});

/** Alice proposes two items, Bob claims them; both laptops synced. */
async function team(): Promise<{ alice: Laptop; bob: Laptop }> {
  const db = await createTestDatabase();
  const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob') };
  const report = await initTeam(db, workspace, [names.alice, names.bob]);
  const alice = await laptopOf(report, names.alice);
  const bob = await laptopOf(report, names.bob);
  opened.push(alice, bob);
  for (const ref of ['app_0', 'app_1']) {
    await alice.session.desk.act({ kind: 'application', ref, action: 'propose', disposition: 'flagged', note: 'why' });
    await bob.session.desk.act({ kind: 'application', ref, action: 'claim' });
  }
  await alice.session.synchronise();
  await bob.session.synchronise();
  await alice.session.synchronise();
  return { alice, bob };
}

describe("the laptop's team queue changed in the cache file", () => {
  it('an untouched queue opens and verifies (the control)', async () => {
    const { alice } = await team();
    expect(alice.session.desk.review('application', 'app_0')).toMatchObject({ state: 'flagged' });
    expect(alice.session.desk.queues().unassigned).toBeDefined();
    expect(await verifyTeamHistory(alice.session)).toMatchObject({ ok: true, firstBad: null });
  });

  it('a flagged item turned cleared in the file is refused when shown or acted on, and verify --team names it', async () => {
    const { alice, bob } = await team();
    alice.database
      .prepare("UPDATE team_reviews SET state = 'cleared' WHERE workspace = ? AND ref = 'app_0'")
      .run(workspace);
    expect(() => alice.session.desk.review('application', 'app_0')).toThrow(
      /The team review of application app_0 was changed in the cache file outside Ledgerdesk/,
    );
    expect(() => alice.session.desk.queues()).toThrow(/changed in the cache file outside Ledgerdesk/);
    await expect(
      alice.session.desk.act({ kind: 'application', ref: 'app_0', action: 'propose', disposition: 'cleared' }),
    ).rejects.toThrow(/changed in the cache file outside Ledgerdesk/);
    const report = await verifyTeamHistory(alice.session);
    expect(report.ok).toBe(false);
    expect(report.firstBad?.reason).toMatch(/team queue was changed in the cache file.*application app_0/);
    // The other laptop's file is untouched.
    expect((await verifyTeamHistory(bob.session)).ok).toBe(true);
  });

  it('an item deleted from the queue in the file is refused and named', async () => {
    const { alice } = await team();
    alice.database.prepare("DELETE FROM team_reviews WHERE workspace = ? AND ref = 'app_1'").run(workspace);
    expect(() => alice.session.desk.review('application', 'app_1')).toThrow(/changed in the cache file/);
    const report = await verifyTeamHistory(alice.session);
    expect(report.ok).toBe(false);
    expect(report.firstBad?.reason).toMatch(/application app_1 \(deleted\)/);
  });
});
