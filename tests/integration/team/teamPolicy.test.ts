/**
 * The four-eyes policy on a real PostgreSQL: a lead changes it as a signed, chained event that
 * every laptop verifies; proposals follow the new policy at once; an officer who is not a lead
 * is refused by the server even when they sign and send the event themselves; bad rules are
 * refused on the laptop and by the server; `ledger team policy` prints and changes it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { intentBytes, type TeamIntent } from '../../../src/main/services/team/crypto/teamCanonical.ts';
import { signIntent } from '../../../src/main/services/team/crypto/officerKeys.ts';
import { payloadOf } from '../../../src/main/services/team/teamDesk.ts';
import { readPolicy, setPolicy } from '../../../src/main/services/team/teamPolicy.ts';
import type { TeamSession } from '../../../src/main/services/team/teamSession.ts';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import { ledger } from '../services/support/ledgerRun.ts';
import { createTestDatabase, initTeam, type Laptop, laptopOf, uniqueLogin } from '../../support/team/teamDatabase.ts';

const WORKSPACE = 'policy-team';
let alice: Laptop;
let bob: Laptop;

beforeAll(async () => {
  const db = await createTestDatabase();
  const names = [uniqueLogin('alice'), uniqueLogin('bob')];
  const report = await initTeam(db, WORKSPACE, names);
  alice = await laptopOf(report, names[0] ?? '');
  bob = await laptopOf(report, names[1] ?? '');
});

afterAll(async () => {
  await alice.session.close();
  await bob.session.close();
});

/** A policy event signed by `team`'s officer and sent straight to the server (no laptop checks). */
async function sendPolicyEvent(team: TeamSession, disposition: string): Promise<unknown> {
  const intent: TeamIntent = {
    id: randomUUID(),
    workspace: team.workspace,
    kind: 'workspace',
    ref: team.workspace,
    action: 'policy',
    disposition,
    assignee: null,
    baseVersion: null,
    keyVersion: null,
    clientAt: new Date().toISOString(),
    sealed: null,
  };
  const { signPrivate } = await team.keys();
  return team.connection.with((db) =>
    db.query('SELECT team.set_policy($1, $2::jsonb)', [
      team.workspace,
      payloadOf(intent, signIntent(signPrivate, intentBytes(intent))),
    ]),
  );
}

describe('the four-eyes policy', () => {
  it('starts with the default: clearing a flagged or escalated item, closing an escalation', async () => {
    expect(await readPolicy(bob.session)).toEqual({
      workspace: WORKSPACE,
      rules: ['escalated>cleared', 'escalated>closed', 'flagged>cleared'],
    });
  });

  it('is refused to an officer who is not a lead, on the laptop and by the server', async () => {
    await expect(setPolicy(bob.session, [])).rejects.toMatchObject({
      kind: 'refused',
      message: `Only a lead of ${WORKSPACE} changes its four-eyes policy.`,
    });
    await expect(sendPolicyEvent(bob.session, '')).rejects.toMatchObject({
      kind: 'refused',
      message: expect.stringContaining(`only a lead of ${WORKSPACE} changes its four-eyes policy`) as unknown,
    });
    expect((await readPolicy(alice.session)).rules).toHaveLength(3);
  });

  it('refuses rules that are not from>to over review states, on the laptop and by the server', async () => {
    for (const rules of [['cleared>cleared'], ['flagged>unreviewed'], ['proposed>cleared'], ['flagged->cleared']])
      await expect(setPolicy(alice.session, rules)).rejects.toMatchObject({ kind: 'invalid' });
    await expect(sendPolicyEvent(alice.session, 'flagged>cleared,escalated>closed')).rejects.toMatchObject({
      message: expect.stringContaining('sorted and named once') as unknown,
    });
    await expect(sendPolicyEvent(alice.session, 'drop table>cleared')).rejects.toMatchObject({
      message: expect.stringContaining('is "from>to" over review states') as unknown,
    });
    expect((await readPolicy(alice.session)).rules).toEqual([
      'escalated>cleared',
      'escalated>closed',
      'flagged>cleared',
    ]);
  });

  it('a lead changes it; proposals follow it at once; every laptop verifies the signed change', async () => {
    const changed = await setPolicy(alice.session, ['unreviewed>cleared', 'unreviewed>cleared ']);
    expect(changed).toMatchObject({ workspace: WORKSPACE, rules: ['unreviewed>cleared'] });
    expect(await readPolicy(bob.session)).toEqual({ workspace: WORKSPACE, rules: ['unreviewed>cleared'] });

    // Now clearing a fresh item waits for a second officer, and clearing a flagged one does not.
    await bob.session.desk.act({ kind: 'application', ref: 'app_fresh', action: 'propose', disposition: 'cleared' });
    await bob.session.desk.act({ kind: 'application', ref: 'app_flagged', action: 'propose', disposition: 'flagged' });
    await bob.session.desk.act({ kind: 'application', ref: 'app_flagged', action: 'propose', disposition: 'cleared' });
    await bob.session.synchronise();
    expect(bob.session.desk.review('application', 'app_fresh')).toMatchObject({ state: 'proposed' });
    expect(bob.session.desk.review('application', 'app_flagged')).toMatchObject({ state: 'cleared', approvedBy: null });

    // The change is in bob's verified copy, signed by alice; it is no item's review.
    const history = bob.session.mirror.history(WORKSPACE, 'workspace', WORKSPACE);
    expect(history.map((event) => [event.officer, event.action, event.disposition, event.seq])).toEqual([
      [alice.session.settings.login, 'policy', 'unreviewed>cleared', changed.seq],
    ]);
    expect(bob.session.desk.review('workspace', WORKSPACE)).toBeNull();
    expect(await verifyTeamHistory(bob.session)).toMatchObject({ ok: true, firstBad: null });

    // Back to none at all: every proposal takes effect at once.
    expect(await setPolicy(alice.session, [])).toMatchObject({ rules: [] });
    await alice.session.desk.act({ kind: 'application', ref: 'app_none', action: 'propose', disposition: 'cleared' });
    await alice.session.synchronise();
    expect(alice.session.desk.review('application', 'app_none')).toMatchObject({ state: 'cleared' });
  });
});

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

describe.runIf(secretServiceHere)('ledger team policy', () => {
  it('prints the policy, and a lead changes it; bad rules are one line and exit 2 or 1', async () => {
    const db = await createTestDatabase();
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-team-policy-cli-'));
    const caFile = join(folder, 'ca.crt');
    writeFileSync(caFile, db.cluster.caPem);
    const lead = uniqueLogin('lead');
    const keychain = new KeyringSecretStore(`Ledgerdesk test ${lead}`);
    const asLead = (...argv: string[]) => ledger(['--data', join(folder, 'lead'), ...argv], keychain);
    const init = await asLead(
      ...['team', 'init', db.adminUrl, '--ca', caFile, '--workspace', 'cli-policy', '--officer', lead, '--out', folder],
    );
    expect(init.code).toBe(0);
    expect(await asLead('team', 'join', join(folder, `${lead}.invite`))).toMatchObject({ code: 0 });

    const shown = await asLead('team', 'policy');
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toContain(
      'Four-eyes policy of cli-policy: A second officer approves: escalated → cleared, escalated → closed, flagged → cleared.',
    );
    const changed = await asLead('team', 'policy', '--require', 'flagged>cleared', '--require', 'unreviewed>cleared');
    expect(changed).toMatchObject({ code: 0, stderr: '' });
    expect(changed.stdout).toMatch(
      /Four-eyes policy of cli-policy changed \(event \d+\): A second officer approves: flagged → cleared, unreviewed → cleared\./,
    );
    const json = await asLead('team', 'policy', '--json');
    expect(JSON.parse(json.stdout)).toEqual({
      workspace: 'cli-policy',
      rules: ['flagged>cleared', 'unreviewed>cleared'],
    });

    const bad = await asLead('team', 'policy', '--require', 'cleared');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('"cleared" is not a four-eyes rule');
    const both = await asLead('team', 'policy', '--require', 'flagged>cleared', '--none');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--require RULE… or --none, not both');

    const audit = await asLead('audit', '--json');
    expect(audit.stdout).toContain('team.policy');
  });
});
