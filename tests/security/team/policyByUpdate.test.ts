/**
 * T1 of the security review of af86022 (team-attacks.ts, block T4), against a real PostgreSQL:
 * the cluster's superuser switches four-eyes off with a plain `UPDATE team.workspaces SET
 * approval_rules = '{}'` (no signed policy event), an officer clears a flagged item alone, and the
 * superuser puts the rules back. At af86022 both laptops copied the server's "cleared" and
 * `audit verify --team` passed on both. Now every laptop re-decides the event from the signed
 * intent and the signed policy: the pull is refused and verify names the event, on both laptops.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamProblem } from '../../../src/main/services/team/teamProblem.ts';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import {
  createTestDatabase,
  initTeam,
  laptopOf,
  uniqueLogin,
  type Laptop,
  type TestDatabase,
} from '../../support/team/teamDatabase.ts';

const workspace = 'sec-policy-update';
let db: TestDatabase;
let alice: Laptop;
let bob: Laptop;

beforeAll(async () => {
  db = await createTestDatabase();
  const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob') };
  const team = await initTeam(db, workspace, [names.alice, names.bob]);
  alice = await laptopOf(team, names.alice);
  bob = await laptopOf(team, names.bob);
});

afterAll(async () => {
  for (const laptop of [alice, bob]) await laptop.session.close();
});

async function asSuperuser(sql: string, values: unknown[] = []): Promise<void> {
  const admin = await db.admin();
  try {
    await admin.query(sql, values);
  } finally {
    await admin.end();
  }
}

describe('T1: the superuser switches four-eyes off by SQL', () => {
  it('the control: bob proposing to clear a flagged item waits for a second officer', async () => {
    await bob.session.desk.act({ kind: 'application', ref: 'app_control', action: 'propose', disposition: 'flagged' });
    await bob.session.synchronise();
    await bob.session.desk.act({ kind: 'application', ref: 'app_control', action: 'propose', disposition: 'cleared' });
    await bob.session.synchronise();
    expect(bob.session.desk.review('application', 'app_control')).toMatchObject({ state: 'proposed' });
  });

  it('is refused on pull and named by verify --team on every laptop', async () => {
    await bob.session.desk.act({ kind: 'application', ref: 'app_T4', action: 'propose', disposition: 'flagged' });
    await bob.session.synchronise();
    await alice.session.synchronise();
    const verifiedUpTo = bob.session.status().head.seq;
    expect(alice.session.status().head.seq).toBe(verifiedUpTo);
    await asSuperuser(`UPDATE team.workspaces SET approval_rules = '{}' WHERE workspace = $1`, [workspace]);
    await bob.session.desk.act({ kind: 'application', ref: 'app_T4', action: 'propose', disposition: 'cleared' });
    // The server decides with the rules the superuser left it: "cleared", alone.
    const pushed = await bob.session.sync.push();
    expect(pushed).toMatchObject({ ok: 1, refused: 0 });
    await asSuperuser(
      `UPDATE team.workspaces SET approval_rules = ARRAY['flagged>cleared', 'escalated>cleared', 'escalated>closed'] WHERE workspace = $1`,
      [workspace],
    );
    const cleared = verifiedUpTo + 1;

    for (const laptop of [alice, bob]) {
      const pull = laptop.session.sync.pull();
      await expect(pull).rejects.toBeInstanceOf(TeamProblem);
      await expect(pull).rejects.toMatchObject({
        kind: 'tampered',
        seq: cleared,
        message: expect.stringContaining(
          `event ${String(cleared)} of ${workspace} (${bob.session.settings.login} propose cleared on application app_T4) is not what its signed history makes: the server recorded ok → cleared, version 2, the team's rules make ok → proposed, version 2`,
        ) as unknown,
      });
      // Nothing of it is applied: the item is still flagged on this laptop, the head where it was.
      expect(laptop.session.desk.review('application', 'app_T4')).toMatchObject({ state: 'flagged', version: 1 });
      expect(laptop.session.status().head.seq).toBe(cleared - 1);
      const report = await verifyTeamHistory(laptop.session);
      expect(report).toMatchObject({ ok: false, firstBad: { seq: cleared } });
      expect(report.firstBad?.reason).toContain("The server's rules or data were changed outside the signed history");
    }
  });
});
