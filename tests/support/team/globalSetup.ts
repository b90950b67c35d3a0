/**
 * One throwaway PostgreSQL cluster per test run (vitest globalSetup of the `team` project):
 * started before the first test file, with a template database already carrying the team
 * schema; each test file makes its own database from the template (teamDatabase.ts). Stopped
 * by its postmaster's PID at the end, and on any exit of this process.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { adminUrl, startThrowawayCluster, type ClusterInfo } from '../../../scripts/postgres/throwawayCluster.ts';
import { migrateTeamSchema } from '../../../src/main/services/team/server/teamMigrate.ts';

export const TEMPLATE_DATABASE = 'ledgerdesk_team_template';

declare module 'vitest' {
  export interface ProvidedContext {
    teamCluster: ClusterInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startThrowawayCluster();
  const killOnExit = (): void => {
    try {
      process.kill(cluster.postmasterPid, 'SIGINT');
    } catch {
      // Already stopped.
    }
  };
  process.once('exit', killOnExit);
  const admin = new pg.Client({ connectionString: adminUrl(cluster), ssl: { ca: cluster.caPem } });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();
  const template = new pg.Client({
    connectionString: adminUrl(cluster, TEMPLATE_DATABASE),
    ssl: { ca: cluster.caPem },
  });
  await template.connect();
  await migrateTeamSchema(template);
  await template.end();
  const info: ClusterInfo = {
    host: cluster.host,
    port: cluster.port,
    adminUser: cluster.adminUser,
    adminPassword: cluster.adminPassword,
    caPem: cluster.caPem,
    otherCaPem: cluster.otherCaPem,
    folder: cluster.folder,
    postmasterPid: cluster.postmasterPid,
  };
  project.provide('teamCluster', info);
  return async () => {
    process.removeListener('exit', killOnExit);
    await cluster.stop();
  };
}
