/**
 * T2's insider half (security review of af86022, code reading): a lead, who writes every invite
 * file, invites a second login for themselves, joins it from another data folder, and uses it as
 * the second pair of eyes. Four-eyes now counts people: a login invited by a lead counts as that
 * lead's person until another person confirms it after comparing fingerprints, so the second
 * login can neither approve the lead's proposal nor have its own approved by the lead, on the
 * server and on every laptop (a superuser who rewrites the server's person column to let it
 * through is named by the laptops). What the software cannot tell apart is said in docs/team.md:
 * a member who confirms a login without meeting its person.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import {
  createTestDatabase,
  initTeam,
  joinLaptop,
  laptopOf,
  uniqueLogin,
  type Laptop,
  type TestDatabase,
} from '../../support/team/teamDatabase.ts';

const workspace = 'sec-second-login';
let db: TestDatabase;
let alice: Laptop;
let bob: Laptop;
let alice2: Laptop;

beforeAll(async () => {
  db = await createTestDatabase();
  const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob') };
  const made = await initTeam(db, workspace, [names.alice, names.bob]);
  alice = await laptopOf(made, names.alice);
  bob = await laptopOf(made, names.bob);
  // The lead's second login: invited by her, joined from another data folder of hers.
  const { file } = await alice.session.invite(uniqueLogin('alice_two'), 'officer', made.outFolder);
  alice2 = await joinLaptop(file);
  for (const laptop of [alice, bob, alice2]) await laptop.session.synchronise();
});

afterAll(async () => {
  for (const laptop of [alice, bob, alice2]) await laptop.session.close();
});

async function flaggedThenProposedClear(by: Laptop, ref: string): Promise<void> {
  await by.session.desk.act({ kind: 'application', ref, action: 'propose', disposition: 'flagged' });
  await by.session.synchronise();
  await by.session.desk.act({ kind: 'application', ref, action: 'propose', disposition: 'cleared' });
  await by.session.synchronise();
}

describe("T2: a lead's second login is not a second pair of eyes", () => {
  it('counts as the lead who invited it, in the signed history and on every laptop', async () => {
    const login2 = alice2.session.settings.login;
    for (const laptop of [alice, bob, alice2])
      expect((await laptop.session.members()).find((member) => member.login === login2)).toMatchObject({
        introducedBy: alice.session.settings.login,
        countsAs: alice.session.settings.login,
      });
  });

  it("cannot approve the lead's proposal, nor the lead its own", async () => {
    const lead = alice.session.settings.login;
    const login2 = alice2.session.settings.login;
    await flaggedThenProposedClear(alice, 'app_lead');
    await alice2.session.synchronise();
    await alice2.session.desk.act({ kind: 'application', ref: 'app_lead', action: 'approve' });
    await alice2.session.synchronise();
    const refusal = `four-eyes counts people: ${login2} and ${lead} count as one person (${lead}) until another member confirms them`;
    expect(alice2.session.desk.queues().conflicts).toMatchObject([
      { ref: 'app_lead', action: 'approve', state: 'refused', detail: refusal },
    ]);
    await flaggedThenProposedClear(alice2, 'app_second');
    await alice.session.synchronise();
    await alice.session.desk.act({ kind: 'application', ref: 'app_second', action: 'approve' });
    await alice.session.synchronise();
    expect(alice.session.desk.queues().conflicts.at(-1)).toMatchObject({
      ref: 'app_second',
      state: 'refused',
      detail: `four-eyes counts people: ${lead} and ${login2} count as one person (${lead}) until another member confirms them`,
    });
    // Bob, another person, still approves either.
    await bob.session.synchronise();
    await bob.session.desk.act({ kind: 'application', ref: 'app_lead', action: 'approve' });
    await bob.session.synchronise();
    expect(bob.session.desk.review('application', 'app_lead')).toMatchObject({
      state: 'cleared',
      approvedBy: bob.session.settings.login,
    });
    for (const laptop of [alice, bob, alice2])
      expect(await verifyTeamHistory(laptop.session)).toMatchObject({ ok: true });
  });

  it("a lead confirming her own second login changes nothing: only another person's confirmation does", async () => {
    const login2 = alice2.session.settings.login;
    const key = (await alice.session.members()).find((member) => member.login === login2)?.signingKey ?? '';
    expect(await alice.session.acknowledgeMember(login2, key)).toEqual({
      countsAs: alice.session.settings.login,
      confirmed: true,
    });
    await alice2.session.synchronise();
    await alice2.session.desk.act({ kind: 'application', ref: 'app_second', action: 'approve' });
    await alice2.session.synchronise();
    expect(alice2.session.desk.review('application', 'app_second')).toMatchObject({ state: 'proposed' });
  });

  it('a superuser who rewrites the person on the server to let it through is named by every laptop', async () => {
    const lead = alice.session.settings.login;
    const login2 = alice2.session.settings.login;
    await flaggedThenProposedClear(alice, 'app_forced');
    const admin = await db.admin();
    try {
      await admin.query('UPDATE team.members SET person = role_name WHERE workspace = $1 AND role_name = $2', [
        workspace,
        login2,
      ]);
    } finally {
      await admin.end();
    }
    await alice2.session.sync.pull();
    await alice2.session.desk.act({ kind: 'application', ref: 'app_forced', action: 'approve' });
    const pushed = await alice2.session.sync.push();
    expect(pushed).toMatchObject({ ok: 1 });
    for (const laptop of [alice, bob, alice2]) {
      await expect(laptop.session.sync.pull()).rejects.toMatchObject({
        kind: 'tampered',
        message: expect.stringContaining(
          `the team's rules make refused ("four-eyes counts people: ${login2} and ${lead} count as one person (${lead}) until another member confirms them")`,
        ) as unknown,
      });
      expect((await verifyTeamHistory(laptop.session)).ok).toBe(false);
    }
  });
});
