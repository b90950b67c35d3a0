/**
 * T2 of the security review of af86022 (team-attacks.ts, block T5), against a real PostgreSQL:
 * the cluster's superuser makes an officer by SQL (a login, keys it generated, a membership
 * row) and approves another officer's pending proposal in their name. At af86022 both laptops
 * pinned the new key on sight and `audit verify --team` passed. Now membership is part of the
 * signed history: an officer no lead introduced signs nothing a laptop accepts. The pull is
 * refused, verify names the event on both laptops, and `members` shows the login as one the
 * signed history never introduced. A DBA who also forges the lead's invite for that login is
 * named by the signature.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { intentBytes, type TeamIntent } from '../../../src/main/services/team/crypto/teamCanonical.ts';
import { rawPublicKey, signIntent } from '../../../src/main/services/team/crypto/officerKeys.ts';
import { inviteKeyOf, keyText, termsText } from '../../../src/main/services/team/rules/memberTerms.ts';
import { payloadOf } from '../../../src/main/services/team/teamDesk.ts';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import {
  createTestDatabase,
  initTeam,
  laptopOf,
  uniqueLogin,
  type Laptop,
  type TestDatabase,
} from '../../support/team/teamDatabase.ts';

const opened: Laptop[] = [];
afterAll(async () => {
  for (const laptop of opened) await laptop.session.close();
});

async function team(workspace: string): Promise<{ db: TestDatabase; alice: Laptop; bob: Laptop }> {
  const db = await createTestDatabase();
  const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob') };
  const made = await initTeam(db, workspace, [names.alice, names.bob]);
  const alice = await laptopOf(made, names.alice);
  const bob = await laptopOf(made, names.bob);
  opened.push(alice, bob);
  // Bob flags an item and proposes to clear it: it waits for a second officer.
  await bob.session.desk.act({ kind: 'application', ref: 'app_control', action: 'propose', disposition: 'flagged' });
  await bob.session.synchronise();
  await bob.session.desk.act({ kind: 'application', ref: 'app_control', action: 'propose', disposition: 'cleared' });
  await bob.session.synchronise();
  await alice.session.synchronise();
  return { db, alice, bob };
}

/** As the cluster's superuser: a login "carol" with keys the attacker made, and her membership. */
async function sqlOfficer(db: TestDatabase, workspace: string) {
  const carol = uniqueLogin('carol');
  const password = randomBytes(18).toString('base64url');
  const sign = generateKeyPairSync('ed25519');
  const box = generateKeyPairSync('x25519');
  const admin = await db.admin();
  try {
    await admin.query(`CREATE ROLE ${carol} LOGIN PASSWORD '${password}' IN ROLE ledgerdesk_officer`);
    await admin.query(
      'INSERT INTO team.officers (role_name, display_name, sign_public, box_public, joined_at) VALUES ($1, $2, $3, $4, now())',
      [carol, 'Carol', rawPublicKey(sign.publicKey), rawPublicKey(box.publicKey)],
    );
    await admin.query(`INSERT INTO team.members (workspace, role_name, role, person) VALUES ($1, $2, 'officer', $2)`, [
      workspace,
      carol,
    ]);
  } finally {
    await admin.end();
  }
  return { carol, password, sign };
}

/** Carol, logged in with the password the superuser gave her, approves bob's pending proposal. */
async function approveAsCarol(
  db: TestDatabase,
  workspace: string,
  carol: { carol: string; password: string; sign: ReturnType<typeof generateKeyPairSync> },
): Promise<{ seq: number; state: string; result: string }> {
  const admin = await db.admin();
  const row = (
    await admin.query<{ version: number; hash: string }>(
      `SELECT version, encode(proposal_hash, 'hex') AS hash FROM team.reviews WHERE workspace = $1 AND ref = 'app_control'`,
      [workspace],
    )
  ).rows[0];
  await admin.end();
  const intent: TeamIntent = {
    id: randomUUID(),
    workspace,
    kind: 'application',
    ref: 'app_control',
    action: 'approve',
    disposition: row?.hash ?? null,
    assignee: null,
    baseVersion: row?.version ?? 0,
    keyVersion: null,
    clientAt: new Date().toISOString(),
    sealed: null,
  };
  const client = new pg.Client({
    host: db.cluster.host,
    port: db.cluster.port,
    database: db.name,
    user: carol.carol,
    password: carol.password,
    ssl: { ca: db.cluster.caPem },
  });
  await client.connect();
  try {
    const pushed = await client.query<{ push: { seq: number; state: string; result: string } }>(
      'SELECT team.push($1::jsonb) AS push',
      [`[${payloadOf(intent, signIntent(carol.sign.privateKey, intentBytes(intent)))}]`],
    );
    return pushed.rows[0]?.push ?? { seq: 0, state: '', result: '' };
  } finally {
    await client.end();
  }
}

describe('T2: an officer made by SQL', () => {
  it('approves on the server, but is refused on pull and named by verify --team on every laptop', async () => {
    const workspace = 'sec-sql-officer';
    const { db, alice, bob } = await team(workspace);
    const carol = await sqlOfficer(db, workspace);
    // The server takes her approval: its tables say she is a member.
    const pushed = await approveAsCarol(db, workspace, carol);
    expect(pushed).toMatchObject({ result: 'ok', state: 'cleared' });
    for (const laptop of [alice, bob]) {
      await expect(laptop.session.sync.pull()).rejects.toMatchObject({
        kind: 'tampered',
        seq: pushed.seq,
        message: `The team history is forged at event ${String(pushed.seq)} of ${workspace} (${carol.carol} approve on application app_control): it is signed by ${carol.carol}, whom no lead of ${workspace} introduced (no invite of ${carol.carol} in the signed history).`,
      });
      expect(laptop.session.desk.review('application', 'app_control')).toMatchObject({
        state: 'proposed',
        approvedBy: null,
      });
      expect(await verifyTeamHistory(laptop.session)).toMatchObject({ ok: false, firstBad: { seq: pushed.seq } });
      // The members list says what she is: listed by the server, introduced by nobody.
      const members = await laptop.session.members();
      expect(members.find((member) => member.login === carol.carol)).toMatchObject({ notice: 'unsigned' });
    }
  });

  it("with a lead's invite forged for her too, is named by the lead's signature", async () => {
    const workspace = 'sec-sql-invite';
    const { db, alice, bob } = await team(workspace);
    const carol = await sqlOfficer(db, workspace);
    // The superuser appends an invite "by alice" (he does not hold her key: he signs with his own).
    const forger = generateKeyPairSync('ed25519');
    const intent: TeamIntent = {
      id: randomUUID(),
      workspace,
      kind: 'member',
      ref: carol.carol,
      action: 'invite',
      disposition: termsText('invite', {
        v: 1,
        role: 'officer',
        inviteKey: keyText(inviteKeyOf('x'.repeat(43), workspace, carol.carol).public),
        expires: new Date(Date.now() + 86_400_000).toISOString(),
      }),
      assignee: null,
      baseVersion: null,
      keyVersion: null,
      clientAt: new Date().toISOString(),
      sealed: null,
    };
    const admin = await db.admin();
    let seq: number;
    try {
      const payload = payloadOf(intent, signIntent(forger.privateKey, intentBytes(intent)));
      const lead = alice.session.settings.login;
      await admin.query(`DO $do$ DECLARE ev team.events; BEGIN
        PERFORM team.lock_workspace('${workspace}');
        ev := team.event_of($json$${payload}$json$::jsonb, '${lead}');
        ev.result := 'ok';
        ev.new_state := '${lead}';
        PERFORM team.append_event(ev);
      END $do$`);
      const appended = await admin.query<{ seq: string }>(
        'SELECT max(seq)::text AS seq FROM team.events WHERE workspace = $1',
        [workspace],
      );
      seq = Number(appended.rows[0]?.seq);
    } finally {
      await admin.end();
    }
    for (const laptop of [alice, bob]) {
      await expect(laptop.session.sync.pull()).rejects.toMatchObject({
        kind: 'tampered',
        seq,
        message: `The team history is forged at event ${String(seq)} of ${workspace}: it is not signed by ${alice.session.settings.login}.`,
      });
      expect(await verifyTeamHistory(laptop.session)).toMatchObject({ ok: false, firstBad: { seq } });
    }
  });
});
