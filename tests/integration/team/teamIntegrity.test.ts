/**
 * Tampering with the team's history on a real PostgreSQL, each case by the cluster's
 * superuser (the only one who can: officers have no write grant, and the table's triggers refuse
 * UPDATE, DELETE and TRUNCATE even to its owner), and how the officers' laptops name it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import {
  createTestDatabase,
  initTeam,
  joinLaptop,
  type Laptop,
  laptopOf,
  type TestDatabase,
  uniqueLogin,
} from '../../support/team/teamDatabase.ts';

const workspace = 'acme-integrity';
const opened: Laptop[] = [];

afterEach(async () => {
  for (const laptop of opened.splice(0)) {
    await laptop.session.close();
    laptop.database.close();
  }
});

interface Team {
  db: TestDatabase;
  alice: Laptop;
  bob: Laptop;
  names: { alice: string; bob: string };
}

/** Two officers and eight events, both laptops synced (their anchors at the head). */
async function team(): Promise<Team> {
  const db = await createTestDatabase();
  const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob') };
  const report = await initTeam(db, workspace, [names.alice, names.bob]);
  const alice = await laptopOf(report, names.alice);
  const bob = await laptopOf(report, names.bob);
  opened.push(alice, bob);
  for (let index = 0; index < 3; index += 1) {
    await alice.session.desk.act({
      kind: 'application',
      ref: `app_${String(index)}`,
      action: 'propose',
      disposition: 'flagged',
      note: `why ${String(index)}`,
    });
    await bob.session.desk.act({ kind: 'application', ref: `app_${String(index)}`, action: 'claim' });
  }
  await alice.session.synchronise();
  await bob.session.synchronise();
  await alice.session.synchronise();
  return { db, alice, bob, names };
}

/** As the superuser, with the triggers off (session_replication_role = replica). */
async function asSuperuser(db: TestDatabase, sql: string): Promise<void> {
  const admin = await db.admin();
  try {
    await admin.query('BEGIN');
    await admin.query('SET LOCAL session_replication_role = replica');
    await admin.query(sql);
    await admin.query('COMMIT');
  } finally {
    await admin.end();
  }
}

const RECHAIN = `DO $$ DECLARE r record; prev bytea := NULL; BEGIN
  FOR r IN SELECT seq FROM team.events WHERE workspace = '${workspace}' ORDER BY seq LOOP
    IF prev IS NOT NULL THEN UPDATE team.events SET prev_hash = prev WHERE workspace = '${workspace}' AND seq = r.seq; END IF;
    UPDATE team.events AS e SET hash = sha256(e.prev_hash || team.canonical(e))
      WHERE e.workspace = '${workspace}' AND e.seq = r.seq RETURNING e.hash INTO prev;
  END LOOP; END $$`;

describe('the team history cannot be rewritten unnoticed', () => {
  it('the table refuses UPDATE, DELETE and TRUNCATE to its admin; officers have no write grant at all', async () => {
    const { db, alice } = await team();
    const admin = await db.admin();
    try {
      await expect(admin.query(`UPDATE team.events SET detail = 'x' WHERE seq = 1`)).rejects.toThrow(
        /append-only: UPDATE refused/,
      );
      await expect(admin.query(`DELETE FROM team.events WHERE seq = 1`)).rejects.toThrow(/append-only: DELETE refused/);
      await expect(admin.query(`TRUNCATE team.events CASCADE`)).rejects.toThrow(/append-only: TRUNCATE refused/);
    } finally {
      await admin.end();
    }
    const client = await alice.session.connection.client();
    await expect(client.query(`UPDATE team.reviews SET state = 'cleared'`)).rejects.toThrow(/permission denied/);
    await expect(client.query(`DELETE FROM team.events`)).rejects.toThrow(/permission denied/);
    await expect(client.query(`INSERT INTO team.wrapped_keys VALUES ('x', 1, 'y', '\\x00')`)).rejects.toThrow(
      /permission denied/,
    );
  });

  it('an event edited in place (triggers disabled) is named by a new laptop and by audit verify --team', async () => {
    const { db, alice } = await team();
    await asSuperuser(
      db,
      `UPDATE team.events SET detail = 'nothing to see' WHERE workspace = '${workspace}' AND seq = 3`,
    );
    const dave = uniqueLogin('dave');
    const { file: invite } = await alice.session.invite(dave, 'officer', alice.folder);
    // The edit breaks the chain: the late laptop refuses the page and names the event.
    const late = await joinLaptop(invite);
    opened.push(late);
    await expect(late.session.sync.pull()).rejects.toThrow(
      /broken at event 3 of acme-integrity: its content does not match its hash/,
    );
    expect(late.session.status().head.seq).toBe(0);
    const report = await verifyTeamHistory(alice.session);
    expect(report).toMatchObject({ ok: false, firstBad: { seq: 3 } });
  });

  it('an edit followed by a recomputed chain is caught by the anchors, and by the mirror in verify --team', async () => {
    const { db, alice, bob } = await team();
    await asSuperuser(
      db,
      `UPDATE team.events SET result = 'refused', detail = 'rewritten' WHERE workspace = '${workspace}' AND seq = 4; ${RECHAIN}`,
    );
    await expect(bob.session.sync.pull()).rejects.toThrow(
      /rewritten: event \d+ of acme-integrity is not the one this laptop verified/,
    );
    const report = await verifyTeamHistory(alice.session);
    expect(report.ok).toBe(false);
    expect(report.firstBad?.seq).toBe(4);
    expect(report.firstBad?.reason).toMatch(/differs from the copy this laptop verified/);
    // A laptop whose mirror was cleared still has its anchor in the keychain.
    bob.session.mirror.dropMirror(workspace);
    bob.session.mirror.ensureWorkspace(workspace, bob.session.settings.login, null);
    await expect(bob.session.sync.pull()).rejects.toThrow(/anchor \(seq \d+\) changed on the server/);
  });

  it('a signed field changed and re-chained is caught by the signature, even by a laptop that joins late', async () => {
    const { db, alice } = await team();
    const dave = uniqueLogin('dave');
    const { file: invite } = await alice.session.invite(dave, 'officer', alice.folder);
    await asSuperuser(
      db,
      `UPDATE team.events SET disposition = 'cleared' WHERE workspace = '${workspace}' AND action = 'propose' AND ref = 'app_1'; ${RECHAIN}`,
    );
    const late = await joinLaptop(invite);
    opened.push(late);
    await expect(late.session.sync.pull()).rejects.toThrow(
      /forged at event \d+ of acme-integrity: it is not signed by alice_/,
    );
  });

  it('a deleted tail is named by every laptop whose anchor was past it', async () => {
    const { db, alice, bob } = await team();
    const head = alice.session.status().head.seq;
    await asSuperuser(db, `DELETE FROM team.events WHERE workspace = '${workspace}' AND seq >= ${String(head - 1)}`);
    await expect(bob.session.sync.pull()).rejects.toThrow(/lost its tail/);
    const report = await verifyTeamHistory(alice.session);
    expect(report).toMatchObject({ ok: false, firstBad: { seq: head - 1 } });
  });

  it('a forged event (a valid chain, a signature not made by the officer named) is refused', async () => {
    const { db, bob, names } = await team();
    await asSuperuser(
      db,
      `INSERT INTO team.events (workspace, seq, event_id, officer, at, client_at, kind, ref, action, disposition, base_version, result, new_version, new_state, signature, prev_hash, hash)
       SELECT workspace, seq + 1, gen_random_uuid(), '${names.alice}', clock_timestamp(), '2026-11-26T10:00:00.000Z', 'application', 'app_0',
              'propose', 'cleared', 1, 'ok', 2, 'cleared', decode(repeat('ab', 64), 'hex'), hash, decode(repeat('00', 32), 'hex')
       FROM team.events WHERE workspace = '${workspace}' ORDER BY seq DESC LIMIT 1;
       UPDATE team.events AS e SET hash = sha256(e.prev_hash || team.canonical(e))
       WHERE e.workspace = '${workspace}' AND e.seq = (SELECT max(seq) FROM team.events WHERE workspace = '${workspace}')`,
    );
    await expect(bob.session.sync.pull()).rejects.toThrow(
      new RegExp(`forged at event \\d+ of acme-integrity: it is not signed by ${names.alice}`),
    );
  });

  it('an untouched history verifies whole: server, signatures, mirror and anchor agree', async () => {
    const { alice, bob } = await team();
    await bob.session.synchronise();
    const report = await verifyTeamHistory(bob.session);
    expect(report).toMatchObject({ ok: true, firstBad: null });
    expect(report.events).toBe(alice.session.status().head.seq);
    expect(report.head).toEqual(bob.session.status().head);
    expect(report.anchor).toEqual(bob.session.status().head);
  });
});
