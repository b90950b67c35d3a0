/**
 * Setting up and changing a team on a real PostgreSQL: invites are one-time, the server's
 * certificate must come from the team's CA, logins that are not members read nothing, identity
 * is the login's, and removing an officer rotates the team key. A laptop that joins late
 * verifies the whole history.
 */
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { teamJoin } from '../../../src/main/services/team/teamJoin.ts';
import { verifyTeamHistory } from '../../../src/main/services/team/teamVerify.ts';
import {
  createTestDatabase,
  initTeam,
  inviteFileOf,
  joinLaptop,
  type Laptop,
  laptopOf,
  openCacheDatabase,
  type TestDatabase,
  uniqueLogin,
} from '../../support/team/teamDatabase.ts';

const workspace = 'acme-members';
let db: TestDatabase;
let report: Awaited<ReturnType<typeof initTeam>>;
const names = { alice: uniqueLogin('alice'), bob: uniqueLogin('bob'), carol: uniqueLogin('carol') };
const laptops: Laptop[] = [];
let alice: Laptop;
let bob: Laptop;
let carol: Laptop;

beforeAll(async () => {
  db = await createTestDatabase();
  report = await initTeam(db, workspace, [names.alice, names.bob, names.carol]);
  alice = await laptopOf(report, names.alice);
  bob = await laptopOf(report, names.bob);
  carol = await laptopOf(report, names.carol);
  laptops.push(alice, bob, carol);
});

afterAll(async () => {
  for (const laptop of laptops) {
    await laptop.session.close();
    laptop.database.close();
  }
});

function freshFolder(): string {
  return mkdtempSync(join(tmpdir(), 'ledgerdesk-laptop-'));
}

describe('team membership', () => {
  it('init joined the lead and wrote one invite per other officer (mode 0600) and a recovery key', async () => {
    expect(report.lead.login).toBe(names.alice);
    expect(report.invites.map((invite) => [invite.login, invite.role])).toEqual([
      [names.bob, 'officer'],
      [names.carol, 'officer'],
    ]);
    const invite = JSON.parse(readFileSync(inviteFileOf(report, names.bob), 'utf8')) as Record<string, unknown>;
    expect(invite).toMatchObject({
      format: 'ledgerdesk-team-invite-v2',
      workspace,
      login: names.bob,
      role: 'officer',
      invitedBy: names.alice,
      historyRoot: report.historyRoot,
      server: { host: '127.0.0.1', port: db.cluster.port, database: db.name },
    });
    expect(typeof invite['secret']).toBe('string');
    // Usable for seven days by default.
    const lifetime = Date.parse(String(invite['expires'])) - Date.now();
    expect(lifetime).toBeGreaterThan(7 * 86_400_000 - 600_000);
    expect(lifetime).toBeLessThanOrEqual(7 * 86_400_000);
    expect(statSync(inviteFileOf(report, names.bob)).mode & 0o777).toBe(0o600);
    expect(readFileSync(report.recoveryKeyFile, 'utf8')).toContain('ledgerdesk-team-recovery-v1');
    await alice.session.synchronise();
    const members = await alice.session.members();
    expect(members.map((member) => [member.login, member.role, member.joined, member.introducedBy])).toEqual([
      [names.alice, 'lead', true, null],
      [names.bob, 'officer', true, names.alice],
      [names.carol, 'officer', true, names.alice],
    ]);
    expect(members[0]?.signingKey).toMatch(/^[0-9a-f]{4}( [0-9a-f]{4}){7}$/);
    expect(members[0]?.signingKey).toBe(report.lead.signingKey);
    // Founding officers count as people of their own.
    expect(members.map((member) => member.countsAs)).toEqual([names.alice, names.bob, names.carol]);
  });

  it('an invite used twice is refused, and nothing of the first join is undone', async () => {
    const folder = freshFolder();
    await expect(
      teamJoin({
        inviteFile: inviteFileOf(report, names.bob),
        dataFolder: folder,
        secretStore: new InMemorySecretStore(),
        database: openCacheDatabase(folder),
      }),
    ).rejects.toThrow(/refused this invite: it has already been used/);
    await bob.session.desk.act({ kind: 'application', ref: 'still_me', action: 'claim' });
    expect((await bob.session.synchronise()).push).toMatchObject({ ok: 1 });
  });

  it('a server certificate from another CA is refused, and an altered invite is refused before connecting', async () => {
    const dave = uniqueLogin('dave');
    const { file } = await alice.session.invite(dave, 'officer', alice.folder);
    const invite = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const forged = join(freshFolder(), 'forged.invite');
    writeFileSync(forged, JSON.stringify({ ...invite, caPem: db.cluster.otherCaPem }));
    const folder = freshFolder();
    const attempt = { dataFolder: folder, secretStore: new InMemorySecretStore(), database: openCacheDatabase(folder) };
    await expect(teamJoin({ ...attempt, inviteFile: forged })).rejects.toThrow(
      /altered: its CA certificate does not match its fingerprint/,
    );
    // A consistent invite (fingerprint recomputed) that pins another CA: the TLS handshake fails.
    const { caFingerprintOf } = await import('../../../src/main/services/team/teamConfig.ts');
    writeFileSync(
      forged,
      JSON.stringify({
        ...invite,
        caPem: db.cluster.otherCaPem,
        caFingerprint: caFingerprintOf(db.cluster.otherCaPem),
      }),
    );
    await expect(teamJoin({ ...attempt, inviteFile: forged })).rejects.toThrow(/certificate is refused/);
    // The real invite still works afterwards: the refused attempts spent nothing.
    const copy = join(freshFolder(), 'dave.invite');
    copyFileSync(file, copy);
    const late = await joinLaptop(copy);
    laptops.push(late);
    expect(late.session.settings.login).toBe(dave);
  });

  it('bad invite files get a clear error', async () => {
    const folder = freshFolder();
    const attempt = { dataFolder: folder, secretStore: new InMemorySecretStore(), database: openCacheDatabase(folder) };
    const file = join(folder, 'bad.invite');
    writeFileSync(file, '{not json');
    await expect(teamJoin({ ...attempt, inviteFile: file })).rejects.toThrow(/is not JSON/);
    writeFileSync(file, JSON.stringify({ format: 'ledgerdesk-team-invite-v1', workspace: 'x' }));
    await expect(teamJoin({ ...attempt, inviteFile: file })).rejects.toThrow(/is not a Ledgerdesk team invite \(login/);
    await expect(teamJoin({ ...attempt, inviteFile: join(folder, 'missing.invite') })).rejects.toThrow(
      /cannot be read/,
    );
  });

  it('a login that is not an officer reads nothing, and an officer of another workspace sees none of this one', async () => {
    const mallory = uniqueLogin('mallory');
    const admin = await db.admin();
    try {
      await admin.query(`CREATE ROLE ${mallory} LOGIN PASSWORD 'mallory-secret'`);
    } finally {
      await admin.end();
    }
    const client = new pg.Client({
      host: '127.0.0.1',
      port: db.cluster.port,
      database: db.name,
      user: mallory,
      password: 'mallory-secret',
      ssl: { ca: db.cluster.caPem },
    });
    await client.connect();
    try {
      await expect(client.query('SELECT * FROM team.events')).rejects.toThrow(/permission denied for schema team/);
      await expect(client.query(`SELECT team.push('[]'::jsonb)`)).rejects.toThrow(/permission denied/);
    } finally {
      await client.end();
    }
    // Another workspace in the same database, with its own officer.
    const other = await initTeam(db, 'other-team', [uniqueLogin('eve')]);
    const eve = other.leadLaptop;
    laptops.push(eve);
    const eveClient = await eve.session.connection.client();
    for (const table of ['events', 'reviews', 'members', 'officers', 'workspaces', 'wrapped_keys']) {
      const rows = await eveClient.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM team.${table} WHERE ${table === 'officers' ? 'role_name' : 'workspace'} IN ($1, $2)`,
        [workspace, table === 'officers' ? names.alice : workspace],
      );
      expect(rows.rows[0]?.n, table).toBe('0');
    }
    // Nor can eve push into it.
    await expect(eveClient.query('SELECT team.push($1::jsonb)', [JSON.stringify([{ workspace }])])).rejects.toThrow(
      /is not a member of workspace acme-members/,
    );
  });

  it('identity is the login: a payload naming another officer is recorded as its sender', async () => {
    const queued = await carol.session.desk.act({ kind: 'application', ref: 'who_am_i', action: 'claim' });
    const row = carol.database.prepare('SELECT payload FROM team_outbox WHERE event_id = ?').get(queued.eventId) as {
      payload: string;
    };
    const payload = { ...(JSON.parse(row.payload) as Record<string, unknown>), officer: names.alice, by: names.alice };
    const client = await carol.session.connection.client();
    await client.query('SELECT team.push($1::jsonb)', [JSON.stringify([payload])]);
    const admin = await db.admin();
    try {
      const recorded = await admin.query<{ officer: string }>(
        'SELECT officer::text FROM team.events WHERE event_id = $1',
        [queued.eventId],
      );
      expect(recorded.rows[0]?.officer).toBe(names.carol);
    } finally {
      await admin.end();
    }
  });

  it('removing an officer ends their access and rotates the team key; later notes are sealed with the new key', async () => {
    await alice.session.synchronise();
    const { keyVersion } = await alice.session.remove(names.carol);
    expect(keyVersion).toBe(2);
    const admin = await db.admin();
    try {
      const wraps = await admin.query<{ role_name: string }>(
        'SELECT role_name::text FROM team.wrapped_keys WHERE workspace = $1 AND key_version = 2 ORDER BY role_name',
        [workspace],
      );
      expect(wraps.rows.map((row) => row.role_name)).not.toContain(names.carol);
      expect(wraps.rows.map((row) => row.role_name)).toContain('#recovery');
      expect(wraps.rows.map((row) => row.role_name)).toContain(names.bob);
    } finally {
      await admin.end();
    }
    // Carol's laptop can no longer log in; her actions stay queued.
    await carol.session.close();
    await carol.session.desk.act({ kind: 'application', ref: 'after_removal', action: 'claim' });
    await expect(carol.session.synchronise()).rejects.toThrow(/refused the login/);
    expect(carol.session.status().queued).toBeGreaterThan(0);
    // Bob pulls the new key; his next note is sealed with version 2 and alice opens it.
    await bob.session.synchronise();
    expect((await bob.session.keyring()).current).toBe(2);
    await bob.session.desk.act({
      kind: 'application',
      ref: 'app_new',
      action: 'note',
      note: 'only for those who stay',
    });
    await bob.session.synchronise();
    await alice.session.synchronise();
    const history = await alice.session.desk.history('application', 'app_new');
    expect(history[0]).toMatchObject({ keyVersion: 2, note: 'only for those who stay' });
    // The removed officer's old key cannot open it.
    const carolKeyring = await carol.session.keyring();
    expect(carolKeyring.current).toBe(1);
    expect(() => carolKeyring.open(history[0]?.sealed ?? new Uint8Array(), 'x', 2)).toThrow(/not held by this laptop/);
  });

  it('a laptop that joins late verifies the whole history, signatures included', async () => {
    for (let index = 0; index < 4; index += 1)
      await alice.session.desk.act({ kind: 'webhook-send', ref: `send_${String(index)}`, action: 'claim' });
    await alice.session.synchronise();
    const frank = uniqueLogin('frank');
    const { file } = await alice.session.invite(frank, 'officer', alice.folder);
    // Pages of 4: seqs 9, 10, 11 and 12 cross a page boundary (and a text sort would misorder them).
    const late = await joinLaptop(file, { pullPage: 4 });
    laptops.push(late);
    const pulled = await late.session.sync.pull();
    expect(pulled.head.seq).toBeGreaterThan(12);
    expect(pulled.pages).toBe(Math.ceil(pulled.head.seq / 4));
    expect(pulled.head).toEqual((await alice.session.synchronise(), alice.session.status().head));
    const verified = await verifyTeamHistory(late.session);
    expect(verified).toMatchObject({ ok: true, events: pulled.head.seq });
    // It holds both key versions, so it opens notes from before and after the rotation.
    const history = await late.session.desk.history('application', 'app_new');
    expect(history[0]?.note).toBe('only for those who stay');
  });
});
