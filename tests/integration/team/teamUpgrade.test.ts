/**
 * A team database and two laptops made by af86022 (tests/fixtures/team-af86022, written by that
 * build's own code) keep working with this one (issue 35, item 6), losing nothing:
 * - the administrator applies team migration 4 (`ledger team migrate`); the laptops open their
 *   cache files (cache migration 29), move their keychain entries to per-officer names, re-decide
 *   the history they verified before, pull, verify, and show their queues as before;
 * - until a lead signs the roster (`ledger team upgrade`), the workspace works as it did, and
 *   even then an officer made by SQL (no join event) or four-eyes switched off by SQL is named;
 * - the lead signs the roster: from then on membership is signed (invites are signed events, an
 *   old invite is refused, a new one works), and af86022's pending proposal is approved;
 * - two officers whose keychain entries af86022 kept under one name (the second overwrote the
 *   first) are told so (issue 38), the one whose keys they are keeps working.
 */
import { randomBytes, randomUUID, generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { rawPublicKey, signIntent } from '../../../src/main/services/team/crypto/officerKeys.ts';
import { intentBytes, type TeamIntent } from '../../../src/main/services/team/crypto/teamCanonical.ts';
import { payloadOf } from '../../../src/main/services/team/teamDesk.ts';
import { teamMigrate } from '../../../src/main/services/team/teamInit.ts';
import { teamJoin } from '../../../src/main/services/team/teamJoin.ts';
import { TeamSession } from '../../../src/main/services/team/teamSession.ts';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import {
  keychainWith,
  legacyInvite,
  legacyLaptopFiles,
  loadLegacyDatabase,
  LEGACY,
} from '../../support/team/legacy/loadAf86022Fixture.ts';
import { joinLaptop, openCacheDatabase, type TestDatabase } from '../../support/team/teamDatabase.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const opened: TeamSession[] = [];
afterAll(async () => {
  for (const session of opened) await session.close();
});

interface Opened {
  session: TeamSession;
  database: DatabaseSync;
  store: InMemorySecretStore;
  folder: string;
}

/** Counts of what a laptop holds of its own, read straight from its cache file. */
function ownRecords(file: string): Record<string, number> {
  const raw = new DatabaseSync(file);
  try {
    const count = (table: string) => (raw.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      events: count('team_events'),
      outbox: count('team_outbox'),
      keys: count('team_keys'),
      pins: count('team_officer_keys'),
      audit: count('audit_log'),
    };
  } finally {
    raw.close();
  }
}

function open(folder: string, store: InMemorySecretStore): Opened {
  const database = openCacheDatabase(folder);
  const session = TeamSession.open({ dataFolder: folder, secretStore: store, database });
  if (session === null) throw new Error('no team settings');
  opened.push(session);
  return { session, database, store, folder };
}

async function upgraded(): Promise<{ db: TestDatabase; alice: Opened; bob: Opened }> {
  const db = await loadLegacyDatabase();
  expect(await teamMigrate({ adminUrl: db.adminUrl, caPem: db.cluster.caPem })).toMatchObject({
    migrationsApplied: [4],
  });
  const aliceFiles = legacyLaptopFiles(LEGACY.alice, db);
  const bobFiles = legacyLaptopFiles(LEGACY.bob, db);
  return {
    db,
    alice: open(aliceFiles.folder, await keychainWith(aliceFiles.keychain)),
    bob: open(bobFiles.folder, await keychainWith(bobFiles.keychain)),
  };
}

describe('a team made by af86022, after the upgrade', () => {
  it('keeps its laptops: nothing lost, keychain entries moved, the history re-decided and verified', async () => {
    const db = await loadLegacyDatabase();
    expect(db.madeBy).toMatch(/^af86022/);
    await teamMigrate({ adminUrl: db.adminUrl, caPem: db.cluster.caPem });
    const files = legacyLaptopFiles(LEGACY.bob, db);
    const before = ownRecords(join(files.folder, 'cache.db'));
    expect(before).toMatchObject({ events: 10, outbox: 4 });
    const store = await keychainWith(files.keychain);
    const bob = open(files.folder, store);
    await bob.session.synchronise();
    expect(ownRecords(join(files.folder, 'cache.db'))).toEqual(before);
    // Its entries now carry its login and data folder; the old names are gone, the values kept.
    const moved = `team:${LEGACY.workspace}:${LEGACY.bob}@${files.folder}:`;
    for (const what of ['login', 'sign', 'box'])
      expect(await store.get(`${moved}${what}`)).toBe(files.keychain[`team:${LEGACY.workspace}:${what}`]);
    expect(await store.has(`team:${LEGACY.workspace}:sign`)).toBe(false);
    expect(await verifyTeamHistory(bob.session)).toMatchObject({ ok: true, events: 10 });
    expect(bob.session.desk.review('application', 'app_decided')).toMatchObject({
      state: 'cleared',
      proposedBy: LEGACY.bob,
      approvedBy: LEGACY.alice,
    });
    expect(bob.session.desk.review('application', 'app_waiting')).toMatchObject({ state: 'proposed', version: 1 });
    expect(bob.session.status()).toMatchObject({ membershipSigned: false, head: { seq: 10 } });
    expect(bob.session.membership().rules).toEqual([
      'escalated>cleared',
      'escalated>closed',
      'flagged>cleared',
      'unreviewed>cleared',
    ]);
  });

  it('before the roster: an invite needs the upgrade first, and SQL-made officers and policies are still named', async () => {
    const { db, alice, bob } = await upgraded();
    await alice.session.synchronise();
    await expect(alice.session.invite('legacy_dave', 'officer', alice.folder)).rejects.toThrow(
      /not in its signed history yet .* run `ledger team upgrade` first/,
    );
    // The superuser switches four-eyes off by SQL; bob clears a flagged item alone.
    const admin = await db.admin();
    await admin.query(`UPDATE team.workspaces SET approval_rules = '{}' WHERE workspace = $1`, [LEGACY.workspace]);
    await admin.end();
    await bob.session.desk.act({ kind: 'application', ref: 'app_claimed', action: 'propose', disposition: 'flagged' });
    await bob.session.synchronise();
    await bob.session.desk.act({ kind: 'application', ref: 'app_claimed', action: 'propose', disposition: 'cleared' });
    await bob.session.sync.push();
    await expect(alice.session.sync.pull()).rejects.toMatchObject({
      kind: 'tampered',
      seq: 12,
      message: expect.stringContaining(
        "the server recorded ok → cleared, version 2, the team's rules make ok → proposed",
      ) as unknown,
    });
    expect(await verifyTeamHistory(bob.session)).toMatchObject({ ok: false, firstBad: { seq: 12 } });
  });

  it("before the roster: an officer made by SQL, with no join event, is named (the review's T5 exactly)", async () => {
    const { db, alice, bob } = await upgraded();
    const carol = `legacy_sql_${randomBytes(3).toString('hex')}`;
    const password = randomBytes(18).toString('base64url');
    const sign = generateKeyPairSync('ed25519');
    const admin = await db.admin();
    await admin.query(`CREATE ROLE ${carol} LOGIN PASSWORD '${password}' IN ROLE ledgerdesk_officer`);
    await admin.query(
      'INSERT INTO team.officers (role_name, display_name, sign_public, box_public, joined_at) VALUES ($1, $2, $3, $4, now())',
      [carol, carol, rawPublicKey(sign.publicKey), rawPublicKey(generateKeyPairSync('x25519').publicKey)],
    );
    await admin.query(`INSERT INTO team.members (workspace, role_name, role, person) VALUES ($1, $2, 'officer', $2)`, [
      LEGACY.workspace,
      carol,
    ]);
    await admin.end();
    const intent: TeamIntent = {
      id: randomUUID(),
      workspace: LEGACY.workspace,
      kind: 'application',
      ref: 'app_waiting',
      action: 'approve',
      disposition: null,
      assignee: null,
      baseVersion: 1,
      keyVersion: null,
      clientAt: new Date().toISOString(),
      sealed: null,
    };
    const client = new pg.Client({
      host: db.cluster.host,
      port: db.cluster.port,
      database: db.name,
      user: carol,
      password,
      ssl: { ca: db.cluster.caPem },
    });
    await client.connect();
    const pushed = (
      await client.query<{ push: { seq: number; result: string; state: string } }>(
        'SELECT team.push($1::jsonb) AS push',
        [`[${payloadOf(intent, signIntent(sign.privateKey, intentBytes(intent)))}]`],
      )
    ).rows[0]?.push;
    await client.end();
    expect(pushed).toMatchObject({ seq: 11, result: 'ok', state: 'cleared' });
    for (const laptop of [alice, bob]) {
      await expect(laptop.session.sync.pull()).rejects.toMatchObject({
        kind: 'tampered',
        seq: 11,
        message: expect.stringContaining(
          `it is signed by ${carol}, who never joined ${LEGACY.workspace} (no join event of ${carol} in the history)`,
        ) as unknown,
      });
      expect(await verifyTeamHistory(laptop.session)).toMatchObject({ ok: false, firstBad: { seq: 11 } });
    }
  });

  it('a lead signs the roster: membership is signed from then on, old invites refused, new ones work', async () => {
    const { db, alice, bob } = await upgraded();
    const roster = await alice.session.rosterPreview();
    expect(roster.map((entry) => [entry.login, entry.role])).toEqual([
      [LEGACY.alice, 'lead'],
      [LEGACY.bob, 'officer'],
    ]);
    await expect(bob.session.signRoster()).rejects.toThrow(/Only a lead of legacy-acme signs its roster/);
    expect(await alice.session.signRoster()).toEqual({ seq: 11, members: 2 });
    await bob.session.synchronise();
    for (const laptop of [alice, bob]) {
      expect(laptop.session.status()).toMatchObject({ membershipSigned: true, newMembers: 1 });
      expect(await verifyTeamHistory(laptop.session)).toMatchObject({ ok: true, events: 11 });
    }
    // af86022's proposal, approved after the upgrade: the approval names it.
    await alice.session.desk.act({ kind: 'application', ref: 'app_waiting', action: 'approve' });
    await alice.session.synchronise();
    expect(alice.session.desk.review('application', 'app_waiting')).toMatchObject({
      state: 'cleared',
      approvedBy: LEGACY.alice,
    });
    await bob.session.synchronise();
    expect(await verifyTeamHistory(bob.session)).toMatchObject({ ok: true, events: 12 });

    // af86022's unused invite of carol was never signed: refused, with what to do.
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-laptop-'));
    await expect(
      teamJoin({
        inviteFile: legacyInvite(db),
        dataFolder: folder,
        secretStore: new InMemorySecretStore(),
        database: openCacheDatabase(folder),
      }),
    ).rejects.toThrow(/made before the membership of legacy-acme was signed: ask a lead for a new one/);
    // The lead invites her again, signed: she joins, and counts as the lead until confirmed.
    const { file } = await alice.session.invite(LEGACY.carol, 'officer', alice.folder);
    const carol = await joinLaptop(file);
    opened.push(carol.session);
    expect(await verifyTeamHistory(carol.session)).toMatchObject({ ok: true });
    expect((await bob.session.members()).find((member) => member.login === LEGACY.carol)).toMatchObject({
      introducedBy: LEGACY.alice,
      countsAs: LEGACY.alice,
      notice: 'new',
    });
  });

  it('two officers whose entries af86022 kept under one keychain name: the one overwritten is told so', async () => {
    const db = await loadLegacyDatabase();
    await teamMigrate({ adminUrl: db.adminUrl, caPem: db.cluster.caPem });
    const aliceFiles = legacyLaptopFiles(LEGACY.alice, db);
    const bobFiles = legacyLaptopFiles(LEGACY.bob, db);
    const aliceOutbox = ownRecords(join(aliceFiles.folder, 'cache.db')).outbox;
    // One machine, one keychain: bob joined second, and his entries replaced alice's.
    const store = await keychainWith(aliceFiles.keychain, bobFiles.keychain);
    const alice = open(aliceFiles.folder, store);
    await expect(alice.session.keys()).rejects.toMatchObject({
      kind: 'not-joined',
      message: expect.stringContaining(
        `The keychain's team keys for ${LEGACY.workspace} are not ${LEGACY.alice}'s: another officer who joined on this computer with an earlier Ledgerdesk overwrote them`,
      ) as unknown,
    });
    await expect(alice.session.synchronise()).rejects.toMatchObject({ kind: 'not-joined' });
    // Bob's laptop takes what is his and works; alice's laptop stays refused, its outbox kept.
    const bob = open(bobFiles.folder, store);
    await bob.session.synchronise();
    expect(await verifyTeamHistory(bob.session)).toMatchObject({ ok: true });
    expect(ownRecords(join(aliceFiles.folder, 'cache.db')).outbox).toBe(aliceOutbox);
  });
});
