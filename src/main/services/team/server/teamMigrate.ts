/**
 * Applies the team schema's migrations (teamSchemaSql.ts) on a PostgreSQL database, as its
 * administrator, in one transaction: the two group roles (cluster-wide, made once), the schema
 * owned by ledgerdesk_team_owner, then each migration not yet applied. An applied migration
 * whose checksum differs from this build's is refused, never re-applied over.
 */
import { createHash } from 'node:crypto';
import type { ClientBase } from 'pg';
import type { TeamMigration } from './teamMigration.ts';
import { TEAM_MIGRATIONS } from './teamSchemaSql.ts';

const TEAM_OWNER_ROLE = 'ledgerdesk_team_owner';
const OFFICER_GROUP_ROLE = 'ledgerdesk_officer';

class TeamSchemaProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TeamSchemaProblem';
  }
}

function checksumOf(migration: TeamMigration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

/**
 * Applies what is missing; answers the versions applied now. `through` stops at a version (the
 * upgrade test builds a database as an earlier build left it).
 */
export async function migrateTeamSchema(admin: ClientBase, options: { through?: number } = {}): Promise<number[]> {
  await admin.query('BEGIN');
  try {
    // Two inits at once on one cluster take turns.
    await admin.query('SELECT pg_advisory_xact_lock(7265600)');
    await admin.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${TEAM_OWNER_ROLE}') THEN
        CREATE ROLE ${TEAM_OWNER_ROLE} NOLOGIN CREATEROLE;
      END IF;
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${OFFICER_GROUP_ROLE}') THEN
        CREATE ROLE ${OFFICER_GROUP_ROLE} NOLOGIN;
      END IF;
    END $$`);
    const database = (await admin.query<{ db: string }>('SELECT current_database() AS db')).rows[0]?.db ?? '';
    await admin.query(`GRANT CREATE, CONNECT ON DATABASE "${database.replaceAll('"', '""')}" TO ${TEAM_OWNER_ROLE}`);
    const superuser = (
      await admin.query<{ s: boolean }>('SELECT rolsuper AS s FROM pg_roles WHERE rolname = current_user')
    ).rows[0]?.s;
    // A managed server's admin is not a superuser: it acts as the owner through membership.
    if (superuser !== true) await admin.query(`GRANT ${TEAM_OWNER_ROLE} TO current_user`);
    await admin.query(`SET LOCAL ROLE ${TEAM_OWNER_ROLE}`);
    await admin.query('CREATE SCHEMA IF NOT EXISTS team');
    await admin.query(`CREATE TABLE IF NOT EXISTS team.schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT clock_timestamp(), applied_by name NOT NULL DEFAULT session_user)`);
    await admin.query('REVOKE ALL ON team.schema_migrations FROM PUBLIC');
    const applied = (
      await admin.query<{ version: number; name: string; checksum: string }>(
        'SELECT version, name, checksum FROM team.schema_migrations ORDER BY version',
      )
    ).rows;
    for (const row of applied) {
      const known = TEAM_MIGRATIONS[row.version - 1];
      if (known === undefined)
        throw new TeamSchemaProblem(
          `This team database was made by a newer Ledgerdesk (team migration ${String(row.version)}); update Ledgerdesk.`,
        );
      if (known.name !== row.name || checksumOf(known) !== row.checksum)
        throw new TeamSchemaProblem(
          `Team migration ${String(row.version)} differs from the one applied (${row.name}); the database was made by another build.`,
        );
    }
    const now: number[] = [];
    for (const migration of TEAM_MIGRATIONS.slice(applied.length, options.through ?? TEAM_MIGRATIONS.length)) {
      await admin.query(migration.sql);
      await admin.query('INSERT INTO team.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        checksumOf(migration),
      ]);
      now.push(migration.version);
    }
    await admin.query('COMMIT');
    return now;
  } catch (error) {
    await admin.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
