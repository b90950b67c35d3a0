/**
 * Makes tests/fixtures/team-af86022/: a team database and two officers' laptops exactly as the
 * build af86022 made them (before membership and policy entered the signed history, issue 35),
 * so the upgrade test (tests/integration/team/teamUpgrade.test.ts) runs the new build on data
 * the old one wrote, not on data the new one imitates.
 *
 * It imports af86022's own modules from a checkout of that commit, never this build's:
 *
 *   git worktree add --detach /tmp/ledgerdesk-af86022 af86022
 *   ln -s "$PWD/node_modules" /tmp/ledgerdesk-af86022/node_modules
 *   LEDGERDESK_ROOT=/tmp/ledgerdesk-af86022 node tests/support/team/legacy/makeAf86022Fixture.ts
 *
 * What it records (all throwaway: the cluster, its CA and the logins' passwords die with it):
 * - server.json: the officer logins with their SCRAM verifiers, the team schema's applied
 *   migrations (checksums), and every row of the team tables, bytes as hex;
 * - <login>/cache.db, <login>/team.json, <login>/keychain.json: each laptop's cache file (its
 *   SQLite migrations as af86022 left them), its team settings and its keychain entries;
 * - carol.invite: an invite af86022 wrote and nobody used.
 */
/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-explicit-any, @typescript-eslint/no-non-null-assertion -- it drives another build's modules, loaded at run time from a checkout of af86022, whose types this build does not have */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const root = resolve(process.env['LEDGERDESK_ROOT'] ?? '');
const commit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
if (!commit.startsWith('af86022')) throw new Error(`LEDGERDESK_ROOT is at ${commit}, not af86022`);
const out = resolve(import.meta.dirname, '../../../fixtures/team-af86022');
const req = createRequire(join(root, 'package.json'));
const pg = req('pg') as typeof import('pg');
const load = (path: string) => import(join(root, path));

const { startThrowawayCluster, adminUrl } = await load('scripts/postgres/throwawayCluster.ts');
const { migrateTeamSchema } = await load('src/main/services/team/server/teamMigrate.ts');
const { teamInit } = await load('src/main/services/team/teamInit.ts');
const { teamJoin } = await load('src/main/services/team/teamJoin.ts');
const { TeamSession } = await load('src/main/services/team/teamSession.ts');
const { setPolicy } = await load('src/main/services/team/teamPolicy.ts');
const { verifyTeamHistory } = await load('src/main/services/team/teamVerify.ts');
const { CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE } = await load('src/main/services/cache/cacheMigrations.ts');
const { applyMigrations } = await load('src/main/services/cache/migrations.ts');

/** A keychain that remembers what was written to it, to record it. */
class RecordingStore {
  readonly entries = new Map<string, string>();
  get(account: string) {
    return Promise.resolve(this.entries.get(account) ?? null);
  }
  set(account: string, secret: string) {
    this.entries.set(account, secret);
    return Promise.resolve();
  }
  delete(account: string) {
    return Promise.resolve(this.entries.delete(account));
  }
  has(account: string) {
    return Promise.resolve(this.entries.has(account));
  }
}

const WORKSPACE = 'legacy-acme';
const LOGINS = { alice: 'legacy_alice', bob: 'legacy_bob', carol: 'legacy_carol' };
const cluster = await startThrowawayCluster();
const work = mkdtempSync(join(tmpdir(), 'ledgerdesk-af86022-fixture-'));
try {
  const admin = new pg.Client({ connectionString: adminUrl(cluster), ssl: { ca: cluster.caPem } });
  await admin.connect();
  await admin.query('CREATE DATABASE legacy_team');
  await admin.end();
  const url = adminUrl(cluster, 'legacy_team');
  const migrator = new pg.Client({ connectionString: url, ssl: { ca: cluster.caPem } });
  await migrator.connect();
  await migrateTeamSchema(migrator);
  await migrator.end();
  const invites = join(work, 'invites');
  mkdirSync(invites);
  const report = await teamInit({
    adminUrl: url,
    caPem: cluster.caPem,
    workspace: WORKSPACE,
    officers: [LOGINS.alice, LOGINS.bob, LOGINS.carol],
    outFolder: invites,
  });
  const inviteOf = (login: string): string => report.invites.find((i: { login: string }) => i.login === login).file;

  const laptops: Record<string, { folder: string; database: DatabaseSync; store: RecordingStore; session: any }> = {};
  for (const login of [LOGINS.alice, LOGINS.bob]) {
    const folder = join(work, login);
    mkdirSync(folder);
    const database = new DatabaseSync(join(folder, 'cache.db'));
    applyMigrations(database, CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE);
    const store = new RecordingStore();
    await teamJoin({ inviteFile: inviteOf(login), dataFolder: folder, secretStore: store, database });
    laptops[login] = {
      folder,
      database,
      store,
      session: TeamSession.open({ dataFolder: folder, secretStore: store, database }),
    };
  }
  const alice = laptops[LOGINS.alice]!.session;
  const bob = laptops[LOGINS.bob]!.session;
  const act = async (who: any, input: object) => {
    await who.synchronise();
    await who.desk.act(input);
    await who.synchronise();
  };
  await alice.synchronise();
  await bob.synchronise();
  // A decided item (four-eyes), a refusal, a note, a policy change, and one proposal left
  // waiting for approval (to be approved by the new build after the upgrade).
  await act(bob, { kind: 'application', ref: 'app_decided', action: 'propose', disposition: 'flagged' });
  await act(bob, {
    kind: 'application',
    ref: 'app_decided',
    action: 'propose',
    disposition: 'cleared',
    note: 'documents arrived',
  });
  await act(alice, { kind: 'application', ref: 'app_decided', action: 'approve' });
  await act(bob, { kind: 'application', ref: 'app_claimed', action: 'claim' });
  await act(alice, { kind: 'application', ref: 'app_claimed', action: 'propose', disposition: 'escalated' });
  await act(alice, { kind: 'application', ref: 'app_claimed', action: 'note', note: 'asked bob to look' });
  await setPolicy(alice, ['escalated>cleared', 'escalated>closed', 'flagged>cleared', 'unreviewed>cleared']);
  await act(bob, { kind: 'application', ref: 'app_waiting', action: 'propose', disposition: 'cleared' });
  await alice.synchronise();
  await bob.synchronise();
  for (const session of [alice, bob]) {
    const verified = await verifyTeamHistory(session);
    if (!verified.ok) throw new Error(`af86022 does not verify its own history: ${JSON.stringify(verified)}`);
  }

  const dump = new pg.Client({ connectionString: url, ssl: { ca: cluster.caPem } });
  await dump.connect();
  const rows = async (sql: string) => (await dump.query(sql)).rows;
  const hexed = (list: Record<string, unknown>[]) =>
    list.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          Buffer.isBuffer(value) ? { hex: value.toString('hex') } : value,
        ]),
      ),
    );
  const server = {
    made_by: commit,
    workspace: WORKSPACE,
    logins: await rows(
      `SELECT rolname AS login, rolpassword AS verifier, rolcanlogin AS can_login FROM pg_authid WHERE rolname IN ('${Object.values(LOGINS).join("','")}') ORDER BY 1`,
    ),
    schema_migrations: await rows('SELECT version, name, checksum FROM team.schema_migrations ORDER BY version'),
    tables: {
      workspaces: hexed(
        await rows('SELECT workspace, created_at, key_version, recovery_public, approval_rules FROM team.workspaces'),
      ),
      officers: hexed(await rows('SELECT * FROM team.officers ORDER BY role_name')),
      members: hexed(await rows('SELECT * FROM team.members ORDER BY role_name')),
      invites: hexed(await rows('SELECT * FROM team.invites ORDER BY role_name')),
      wrapped_keys: hexed(await rows('SELECT * FROM team.wrapped_keys ORDER BY key_version, role_name')),
      reviews: hexed(await rows('SELECT * FROM team.reviews ORDER BY kind, ref')),
      // The server's time with its microseconds (a JavaScript Date keeps milliseconds): it is chained.
      events: hexed(
        await rows(
          `SELECT workspace, seq::text AS seq, event_id, officer, team.at_text(at) AS at, client_at, kind, ref, action,
             disposition, assignee, base_version, key_version, result, detail, new_version, new_state, sealed, signature,
             prev_hash, hash FROM team.events ORDER BY seq`,
        ),
      ),
    },
  };
  await dump.end();
  for (const { session } of Object.values(laptops)) await session.close();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'server.json'),
    `${JSON.stringify(server, (_k, v) => (v instanceof Date ? v.toISOString() : v), 2)}\n`,
  );
  for (const [login, laptop] of Object.entries(laptops)) {
    laptop.database.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    laptop.database.close();
    mkdirSync(join(out, login));
    copyFileSync(join(laptop.folder, 'cache.db'), join(out, login, 'cache.db'));
    copyFileSync(join(laptop.folder, 'team.json'), join(out, login, 'team.json'));
    writeFileSync(
      join(out, login, 'keychain.json'),
      `${JSON.stringify(Object.fromEntries(laptop.store.entries), null, 2)}\n`,
    );
  }
  copyFileSync(inviteOf(LOGINS.carol), join(out, 'carol.invite'));
  writeFileSync(join(out, 'ca.crt'), cluster.caPem);
  process.stdout.write(`${out}: ${String(server.tables.events.length)} events by af86022 (${commit})\n`);
} finally {
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
}
