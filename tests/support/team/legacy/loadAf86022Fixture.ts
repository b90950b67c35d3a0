/**
 * Puts tests/fixtures/team-af86022 (a team database and two laptops made by af86022's own code,
 * makeAf86022Fixture.ts) into the run's throwaway cluster, as it would be found on a server and
 * two laptops before upgrading: a database with the team schema's migrations 1 to 3 (the same
 * SQL, checked by checksum) holding af86022's rows, the officer logins with their SCRAM
 * verifiers, and each laptop's cache file, team settings and keychain entries.
 *
 * What moves is only what a restore moves: the server's port, database name and CA (the fixture's
 * cluster is gone), rewritten in each laptop's team.json. The history, the signatures, the
 * anchors and the keys are af86022's bytes.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { adminUrl } from '../../../../scripts/postgres/throwawayCluster.ts';
import { InMemorySecretStore } from '../../../../src/main/services/credentials/secretStore.ts';
import { migrateTeamSchema } from '../../../../src/main/services/team/server/teamMigrate.ts';
import { TEAM_MIGRATIONS } from '../../../../src/main/services/team/server/teamSchemaSql.ts';
import { caFingerprintOf } from '../../../../src/main/services/team/teamConfig.ts';
import type { TestDatabase } from '../teamDatabase.ts';

const FIXTURE = resolve(import.meta.dirname, '../../../fixtures/team-af86022');
export const LEGACY = { workspace: 'legacy-acme', alice: 'legacy_alice', bob: 'legacy_bob', carol: 'legacy_carol' };

interface Dump {
  made_by: string;
  logins: { login: string; verifier: string }[];
  schema_migrations: { version: number; name: string; checksum: string }[];
  tables: Record<string, Record<string, unknown>[]>;
}

const TABLE_ORDER = ['workspaces', 'officers', 'members', 'invites', 'wrapped_keys', 'reviews', 'events'] as const;

function valueOf(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && 'hex' in value) return Buffer.from(String(value.hex), 'hex');
  return value;
}

/** A database as af86022 left it, in the run's cluster. */
export async function loadLegacyDatabase(): Promise<TestDatabase & { madeBy: string }> {
  const dump = JSON.parse(readFileSync(join(FIXTURE, 'server.json'), 'utf8')) as Dump;
  const cluster = inject('teamCluster');
  const name = `legacy_${randomBytes(5).toString('hex')}`;
  const root = new pg.Client({ connectionString: adminUrl(cluster), ssl: { ca: cluster.caPem } });
  await root.connect();
  try {
    await root.query(`CREATE DATABASE ${name}`);
  } finally {
    await root.end();
  }
  const url = adminUrl(cluster, name);
  const admin = new pg.Client({ connectionString: url, ssl: { ca: cluster.caPem } });
  await admin.connect();
  try {
    await migrateTeamSchema(admin, { through: 3 });
    const applied = (await admin.query('SELECT version, name, checksum FROM team.schema_migrations ORDER BY version'))
      .rows;
    if (JSON.stringify(applied) !== JSON.stringify(dump.schema_migrations))
      throw new Error('team migrations 1-3 of this build are not the ones af86022 applied');
    if (TEAM_MIGRATIONS.length < 4) throw new Error('this build has no team migration 4 to upgrade with');
    // Logins are cluster-wide: made once per run, with af86022's verifiers (their passwords are
    // in the laptops' keychains).
    for (const { login, verifier } of dump.logins)
      await admin.query(`DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${login}') THEN
          CREATE ROLE ${login} LOGIN PASSWORD '${verifier}' IN ROLE ledgerdesk_officer;
        END IF; END $$`);
    for (const table of TABLE_ORDER)
      for (const row of dump.tables[table] ?? []) {
        const columns = Object.keys(row);
        await admin.query(
          `INSERT INTO team.${table} (${columns.join(', ')}) VALUES (${columns.map((_, index) => `$${String(index + 1)}`).join(', ')})`,
          columns.map((column) => valueOf(row[column])),
        );
      }
  } finally {
    await admin.end();
  }
  return {
    cluster,
    name,
    adminUrl: url,
    madeBy: dump.made_by,
    admin: async () => {
      const client = new pg.Client({ connectionString: url, ssl: { ca: cluster.caPem } });
      client.on('error', () => undefined);
      await client.connect();
      return client;
    },
  };
}

export interface LegacyLaptopFiles {
  folder: string;
  /** af86022's keychain entries of that laptop. */
  keychain: Record<string, string>;
}

/** A laptop's data folder as af86022 left it, pointed at `db` (its port, name and CA). */
export function legacyLaptopFiles(login: string, db: TestDatabase): LegacyLaptopFiles {
  const folder = mkdtempSync(join(tmpdir(), `ledgerdesk-${login}-`));
  mkdirSync(folder, { recursive: true });
  copyFileSync(join(FIXTURE, login, 'cache.db'), join(folder, 'cache.db'));
  const settings = JSON.parse(readFileSync(join(FIXTURE, login, 'team.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(
    join(folder, 'team.json'),
    JSON.stringify({
      ...settings,
      server: { host: db.cluster.host, port: db.cluster.port, database: db.name },
      caPem: db.cluster.caPem,
      caFingerprint: caFingerprintOf(db.cluster.caPem),
    }),
    { mode: 0o600 },
  );
  const keychain = JSON.parse(readFileSync(join(FIXTURE, login, 'keychain.json'), 'utf8')) as Record<string, string>;
  return { folder, keychain };
}

/** A keychain holding the given entries (several laptops' entries share one, as on one machine). */
export async function keychainWith(...entries: Record<string, string>[]): Promise<InMemorySecretStore> {
  const store = new InMemorySecretStore();
  for (const set of entries) for (const [account, secret] of Object.entries(set)) await store.set(account, secret);
  return store;
}

/** af86022's unused invite of carol, pointed at `db`. */
export function legacyInvite(db: TestDatabase): string {
  const invite = JSON.parse(readFileSync(join(FIXTURE, 'carol.invite'), 'utf8')) as Record<string, unknown>;
  const file = join(mkdtempSync(join(tmpdir(), 'ledgerdesk-invite-')), 'legacy_carol.invite');
  writeFileSync(
    file,
    JSON.stringify({
      ...invite,
      server: { host: db.cluster.host, port: db.cluster.port, database: db.name },
      caPem: db.cluster.caPem,
      caFingerprint: caFingerprintOf(db.cluster.caPem),
    }),
    { mode: 0o600 },
  );
  return file;
}
