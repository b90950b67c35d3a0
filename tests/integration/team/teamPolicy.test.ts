/**
 * The four-eyes policy on a real PostgreSQL: a lead changes it as a signed, chained event that
 * every laptop verifies; a stricter policy is in force at once, a weaker one waits until a
 * second lead (another person) approves it (issue 35, T4); an officer who is not a lead is
 * refused by the server even when they sign and send the event themselves; bad rules are
 * refused on the laptop and by the server; `ledger team policy` prints, changes and approves it.
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
import { decidePolicy, readPolicy, setPolicy } from '../../../src/main/services/team/teamPolicy.ts';
import type { TeamSession } from '../../../src/main/services/team/teamSession.ts';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import { ledger } from '../services/support/ledgerRun.ts';
import {
  createTestDatabase,
  initTeam,
  joinLaptop,
  type Laptop,
  laptopOf,
  uniqueLogin,
} from '../../support/team/teamDatabase.ts';

const WORKSPACE = 'policy-team';
let alice: Laptop;
let bob: Laptop;
/** A second lead, invited by alice after the founding. */
let dave: Laptop;

beforeAll(async () => {
  const db = await createTestDatabase();
  const names = [uniqueLogin('alice'), uniqueLogin('bob')];
  const report = await initTeam(db, WORKSPACE, names);
  alice = await laptopOf(report, names[0] ?? '');
  bob = await laptopOf(report, names[1] ?? '');
  const { file } = await alice.session.invite(uniqueLogin('dave'), 'lead', report.outFolder);
  dave = await joinLaptop(file);
  for (const laptop of [alice, bob, dave]) await laptop.session.synchronise();
});

afterAll(async () => {
  for (const laptop of [alice, bob, dave]) await laptop.session.close();
});

/** A policy decision signed by `team`'s officer and sent straight to the server (no laptop checks). */
async function sendDecision(team: TeamSession, disposition: string): Promise<unknown> {
  const intent: TeamIntent = {
    id: randomUUID(),
    workspace: team.workspace,
    kind: 'workspace',
    ref: team.workspace,
    action: 'policy-approve',
    disposition,
    assignee: null,
    baseVersion: null,
    keyVersion: null,
    clientAt: new Date().toISOString(),
    sealed: null,
  };
  const { signPrivate } = await team.keys();
  return team.connection.with((db) =>
    db.query('SELECT team.decide_policy($1, $2::jsonb)', [
      team.workspace,
      payloadOf(intent, signIntent(signPrivate, intentBytes(intent))),
    ]),
  );
}

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
      pending: null,
      signed: true,
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

  it('a stricter policy is in force at once; proposals follow it; every laptop verifies the signed change', async () => {
    const changed = await setPolicy(alice.session, [
      'escalated>cleared',
      'escalated>closed',
      'flagged>cleared',
      'unreviewed>cleared',
      'unreviewed>cleared ',
    ]);
    expect(changed).toMatchObject({ outcome: 'in-force', pending: null });
    const stricter = ['escalated>cleared', 'escalated>closed', 'flagged>cleared', 'unreviewed>cleared'];
    expect((await readPolicy(bob.session)).rules).toEqual(stricter);

    // Now clearing a fresh item waits for a second officer too.
    await bob.session.desk.act({ kind: 'application', ref: 'app_fresh', action: 'propose', disposition: 'cleared' });
    await bob.session.synchronise();
    expect(bob.session.desk.review('application', 'app_fresh')).toMatchObject({ state: 'proposed' });

    // The change is in bob's verified copy, signed by alice; it is no item's review.
    const history = bob.session.mirror.history(WORKSPACE, 'workspace', WORKSPACE);
    expect(history.at(-1)).toMatchObject({
      officer: alice.session.settings.login,
      action: 'policy',
      disposition: stricter.join(','),
      seq: changed.seq,
      newState: 'in-force',
    });
    expect(bob.session.desk.review('workspace', WORKSPACE)).toBeNull();
    expect(await verifyTeamHistory(bob.session)).toMatchObject({ ok: true, firstBad: null });
  });

  it('a weaker policy waits for a second lead, another person; meanwhile the stricter one holds', async () => {
    const before = (await readPolicy(alice.session)).rules;
    const weaker = await setPolicy(alice.session, []);
    expect(weaker).toMatchObject({
      outcome: 'pending',
      rules: before,
      pending: { rules: [], by: alice.session.settings.login },
    });
    // Every officer sees it waiting, and four-eyes still holds for them.
    expect(await readPolicy(bob.session)).toMatchObject({ rules: before, pending: { rules: [], seq: weaker.seq } });
    await bob.session.desk.act({ kind: 'application', ref: 'app_still', action: 'propose', disposition: 'flagged' });
    await bob.session.desk.act({ kind: 'application', ref: 'app_still', action: 'propose', disposition: 'cleared' });
    await bob.session.synchronise();
    expect(bob.session.desk.review('application', 'app_still')).toMatchObject({ state: 'proposed' });
    // A second weaker change is refused while one waits.
    await expect(setPolicy(alice.session, ['flagged>cleared'])).rejects.toThrow(/awaits a second lead/);

    // The proposer cannot approve it, on the laptop and by the server.
    await expect(decidePolicy(alice.session, 'approve')).rejects.toThrow(/a second lead approves it/);
    const pendingHash = (await readPolicy(alice.session)).pending?.hash ?? '';
    await expect(sendDecision(alice.session, pendingHash)).rejects.toThrow(/needs a second lead/);
    // Nor can dave yet: alice invited him, so he counts as alice until another person confirms him.
    await expect(decidePolicy(dave.session, 'approve')).rejects.toThrow(
      new RegExp(
        `needs a second lead: ${dave.session.settings.login} counts as the same person as ${alice.session.settings.login}`,
      ),
    );
    expect((await readPolicy(bob.session)).rules).toEqual(before);

    // Bob compares dave's fingerprint with him and confirms him: dave is a person of his own.
    const daveKey = (await bob.session.members()).find((member) => member.login === dave.session.settings.login);
    expect(daveKey).toMatchObject({ notice: 'new', countsAs: alice.session.settings.login });
    expect(await bob.session.acknowledgeMember(dave.session.settings.login, daveKey?.signingKey ?? '')).toEqual({
      countsAs: dave.session.settings.login,
      confirmed: true,
    });
    const approved = await decidePolicy(dave.session, 'approve');
    expect(approved).toMatchObject({ rules: [], pending: null });
    expect(await readPolicy(bob.session)).toMatchObject({ rules: [], pending: null });
    await bob.session.desk.act({ kind: 'application', ref: 'app_none', action: 'propose', disposition: 'cleared' });
    await bob.session.synchronise();
    expect(bob.session.desk.review('application', 'app_none')).toMatchObject({ state: 'cleared' });
    for (const laptop of [alice, bob, dave])
      expect(await verifyTeamHistory(laptop.session)).toMatchObject({ ok: true, firstBad: null });
  });

  it('a lead withdraws a weaker policy waiting, and a stricter one is in force at once again', async () => {
    expect((await setPolicy(alice.session, ['flagged>cleared'])).outcome).toBe('in-force');
    expect((await setPolicy(dave.session, [])).outcome).toBe('pending');
    expect(await decidePolicy(dave.session, 'reject')).toMatchObject({ rules: ['flagged>cleared'], pending: null });
    await bob.session.sync.pull();
    const decisions = bob.session.mirror
      .history(WORKSPACE, 'workspace', WORKSPACE)
      .map((event) => [event.action, event.newState]);
    expect(decisions.slice(-3)).toEqual([
      ['policy', 'in-force'],
      ['policy', 'pending'],
      ['policy-reject', 'withdrawn'],
    ]);
    expect(await verifyTeamHistory(bob.session)).toMatchObject({ ok: true });
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
    const passwordFile = join(folder, 'admin-password');
    writeFileSync(passwordFile, db.cluster.adminPassword, { mode: 0o600 });
    const url = db.adminUrl.replace(/:[^:@/]*@/, '@');
    const init = await asLead(
      ...['team', 'init', url, '--password-file', passwordFile, '--ca', caFile],
      ...['--workspace', 'cli-policy', '--officer', lead, '--out', folder],
    );
    expect(init).toMatchObject({ code: 0 });

    const shown = await asLead('team', 'policy');
    expect(shown).toMatchObject({ code: 0, stderr: '' });
    expect(shown.stdout).toContain(
      'Four-eyes policy of cli-policy: A second officer approves: escalated → cleared, escalated → closed, flagged → cleared.',
    );
    const changed = await asLead(
      ...['team', 'policy', '--require', 'flagged>cleared', '--require', 'escalated>cleared'],
      ...['--require', 'escalated>closed', '--require', 'unreviewed>cleared'],
    );
    expect(changed).toMatchObject({ code: 0, stderr: '' });
    expect(changed.stdout).toMatch(
      /Four-eyes policy of cli-policy changed \(event \d+\): A second officer approves: escalated → cleared, escalated → closed, flagged → cleared, unreviewed → cleared\./,
    );
    const json = await asLead('team', 'policy', '--json');
    expect(JSON.parse(json.stdout)).toEqual({
      workspace: 'cli-policy',
      rules: ['escalated>cleared', 'escalated>closed', 'flagged>cleared', 'unreviewed>cleared'],
      pending: null,
      signed: true,
    });
    // Weaker: it waits, and a lead alone cannot approve it.
    const weaker = await asLead('team', 'policy', '--none');
    expect(weaker).toMatchObject({ code: 0, stderr: '' });
    expect(weaker.stdout).toContain('weaker than the one in force, so it waits for a second lead');
    const alone = await asLead('team', 'policy', '--approve');
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('a second lead approves it, or you withdraw it');
    expect((await asLead('team', 'policy')).stdout).toMatch(
      /Waiting for a second lead \(proposed by lead_\w+, event \d+\)/,
    );
    expect(await asLead('team', 'policy', '--withdraw')).toMatchObject({ code: 0 });

    const bad = await asLead('team', 'policy', '--require', 'cleared');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('"cleared" is not a four-eyes rule');
    const both = await asLead('team', 'policy', '--require', 'flagged>cleared', '--none');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('one of --require RULE…, --none, --approve or --withdraw');

    const audit = await asLead('audit', '--json');
    expect(audit.stdout).toContain('team.policy');
  });
});
