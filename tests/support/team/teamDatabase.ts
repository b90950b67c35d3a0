/**
 * A database of its own for each test file, made from the migrated template of the run's
 * throwaway cluster (globalSetup.ts), and the officers' laptops the tests drive: each with its
 * own data folder, its own cache file (the real SQLite migrations) and its own keychain.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { inject } from 'vitest';
import { adminUrl, type ClusterInfo } from '../../../scripts/postgres/throwawayCluster.ts';
import {
  CACHE_MIGRATIONS_TABLE,
  CACHE_MIGRATIONS_WITH_THE_RECORD,
} from '../../../src/main/services/cache/cacheMigrations.ts';
import { applyMigrations } from '../../../src/main/services/migrations/migrationRunner.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { teamInit, type TeamInitOptions, type TeamInitReport } from '../../../src/main/services/team/teamInit.ts';
import { teamJoin } from '../../../src/main/services/team/teamJoin.ts';
import { TeamSession, type TeamSessionOptions } from '../../../src/main/services/team/teamSession.ts';

export const TEMPLATE_DATABASE = 'ledgerdesk_team_template';

export interface TestDatabase {
  cluster: ClusterInfo;
  name: string;
  adminUrl: string;
  /** An admin connection to this database (the cluster's superuser). */
  admin: () => Promise<pg.Client>;
}

export async function createTestDatabase(fromTemplate = TEMPLATE_DATABASE): Promise<TestDatabase> {
  const cluster = inject('teamCluster');
  const name = `team_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl(cluster), ssl: { ca: cluster.caPem } });
  await client.connect();
  await client.query(`CREATE DATABASE ${name} TEMPLATE ${fromTemplate}`);
  await client.end();
  const url = adminUrl(cluster, name);
  return {
    cluster,
    name,
    adminUrl: url,
    admin: async () => {
      const admin = new pg.Client({ connectionString: url, ssl: { ca: cluster.caPem } });
      admin.on('error', () => undefined);
      await admin.connect();
      return admin;
    },
  };
}

/** Officer logins are cluster-wide: a suffix per test keeps test files apart. */
export function uniqueLogin(name: string): string {
  return `${name}_${randomBytes(3).toString('hex')}`;
}

export interface Laptop {
  folder: string;
  database: DatabaseSync;
  secretStore: InMemorySecretStore;
  session: TeamSession;
}

export function openCacheDatabase(folder: string): DatabaseSync {
  mkdirSync(folder, { recursive: true });
  const database = new DatabaseSync(join(folder, 'cache.db'));
  database.exec('PRAGMA journal_mode = WAL');
  applyMigrations(database, CACHE_MIGRATIONS_WITH_THE_RECORD, CACHE_MIGRATIONS_TABLE);
  return database;
}

export async function joinLaptop(inviteFile: string, options: Partial<TeamSessionOptions> = {}): Promise<Laptop> {
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-laptop-'));
  const database = openCacheDatabase(folder);
  const secretStore = new InMemorySecretStore();
  await teamJoin({ inviteFile, dataFolder: folder, secretStore, database });
  const session = TeamSession.open({ dataFolder: folder, secretStore, database, ...options });
  if (session === null) throw new Error('join left no team settings');
  return { folder, database, secretStore, session };
}

export interface InitializedTeam extends TeamInitReport {
  outFolder: string;
  /** The lead's laptop: `team init` made the lead's keys there and joined it. */
  leadLaptop: Laptop;
}

/** `team init` from a fresh laptop of the lead (the first officer named, unless `lead`), pulled once. */
export async function initTeam(
  db: TestDatabase,
  workspace: string,
  officers: string[],
  options: Partial<Omit<TeamInitOptions, 'laptop'>> & { session?: Partial<TeamSessionOptions> } = {},
): Promise<InitializedTeam> {
  const outFolder = mkdtempSync(join(tmpdir(), 'ledgerdesk-invites-'));
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-laptop-'));
  const database = openCacheDatabase(folder);
  const secretStore = new InMemorySecretStore();
  const { session: sessionOptions, ...initOptions } = options;
  const report = await teamInit({
    adminUrl: db.adminUrl,
    caPem: db.cluster.caPem,
    workspace,
    officers,
    outFolder,
    ...initOptions,
    laptop: { dataFolder: folder, secretStore, database },
  });
  const session = TeamSession.open({ dataFolder: folder, secretStore, database, ...sessionOptions });
  if (session === null) throw new Error('init left no team settings');
  await session.synchronise();
  return { ...report, outFolder, leadLaptop: { folder, database, secretStore, session } };
}

export function inviteFileOf(report: TeamInitReport, login: string): string {
  const invite = report.invites.find((entry) => entry.login === login);
  if (invite === undefined) throw new Error(`no invite for ${login}`);
  return invite.file;
}

/** The laptop of an officer of `team`: the lead's (made by init), or a fresh one joined from the invite. */
export async function laptopOf(
  team: InitializedTeam,
  login: string,
  options: Partial<TeamSessionOptions> = {},
): Promise<Laptop> {
  if (login === team.lead.login) return team.leadLaptop;
  return joinLaptop(inviteFileOf(team, login), options);
}

export function writeText(path: string, text: string): void {
  writeFileSync(path, text);
}
