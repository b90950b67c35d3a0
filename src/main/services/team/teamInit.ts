/**
 * `ledger team init`: the team lead, once, with the database administrator's URL. Applies the
 * team schema, creates the workspace with its first team key (wrapped for an offline recovery
 * key, whose private half is written to a file for the compliance lead to keep offline), and
 * for each officer creates a login and writes an invite file: the server, the CA's
 * fingerprint, the role and a one-time secret. The team key leaves this process only sealed.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { privateKeyText, rawPublicKey } from './crypto/officerKeys.ts';
import { scramVerifier } from './crypto/scramVerifier.ts';
import { newTeamKey, sealForInvite, wrapTeamKey } from './crypto/teamKey.ts';
import { migrateTeamSchema } from './server/teamMigrate.ts';
import {
  caFingerprintOf,
  LOGIN_PATTERN,
  WORKSPACE_PATTERN,
  writeInvite,
  type MemberRole,
  type TeamServer,
} from './teamConfig.ts';
import { TeamProblem, teamProblemOf } from './teamProblem.ts';

export const RECOVERY_RECIPIENT = '#recovery';

export interface TeamInitOptions {
  /** postgres://admin:password@host:port/database */
  adminUrl: string;
  caPem: string;
  workspace: string;
  officers: readonly string[];
  /** Who leads (invites, assigns, removes); the first officer unless named. */
  lead?: string;
  /** Where the invites and the recovery key are written. */
  outFolder: string;
}

export interface TeamInitReport {
  workspace: string;
  migrationsApplied: number[];
  invites: { login: string; role: MemberRole; file: string }[];
  recoveryKeyFile: string;
  server: TeamServer;
}

function serverOfUrl(url: string): TeamServer {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TeamProblem('invalid', 'The PostgreSQL URL is not a URL (postgres://user:password@host:port/database).');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new TeamProblem('invalid', 'The PostgreSQL URL must start with postgres://.');
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (parsed.hostname === '' || database === '')
    throw new TeamProblem('invalid', 'The PostgreSQL URL must name a host and a database.');
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port === '' ? 5432 : Number(parsed.port),
    database,
  };
}

export async function teamInit(options: TeamInitOptions): Promise<TeamInitReport> {
  if (!WORKSPACE_PATTERN.test(options.workspace))
    throw new TeamProblem(
      'invalid',
      'A workspace name is lower-case letters, digits and dashes (at most 63), e.g. acme-compliance.',
    );
  if (options.officers.length === 0) throw new TeamProblem('invalid', 'Name at least one officer (--officer NAME).');
  for (const login of options.officers)
    if (!LOGIN_PATTERN.test(login))
      throw new TeamProblem(
        'invalid',
        `"${login}" cannot be a login: lower-case letters, digits and _, starting with a letter.`,
      );
  if (new Set(options.officers).size !== options.officers.length)
    throw new TeamProblem('invalid', 'An officer is named twice.');
  const lead = options.lead ?? options.officers[0] ?? '';
  if (!options.officers.includes(lead))
    throw new TeamProblem('invalid', `The lead ${lead} is not one of the officers.`);
  const server = serverOfUrl(options.adminUrl);
  const caFingerprint = caFingerprintOf(options.caPem);
  const serverName = `${server.host}:${String(server.port)}/${server.database}`;

  const admin = new pg.Client({
    connectionString: options.adminUrl,
    ssl: { ca: options.caPem, rejectUnauthorized: true },
    connectionTimeoutMillis: 15_000,
    application_name: 'ledgerdesk team init',
  });
  admin.on('error', () => undefined);
  try {
    await admin.connect();
  } catch (error) {
    throw teamProblemOf(error, serverName);
  }
  try {
    const migrationsApplied = await migrateTeamSchema(admin);
    const teamKey = newTeamKey();
    const recovery = generateKeyPairSync('x25519');
    const recoveryPublic = rawPublicKey(recovery.publicKey);
    const invites: TeamInitReport['invites'] = [];
    const files: { path: string; write: () => void }[] = [];
    await admin.query('BEGIN');
    try {
      await admin.query('INSERT INTO team.workspaces (workspace, recovery_public) VALUES ($1, $2)', [
        options.workspace,
        recoveryPublic,
      ]);
      await admin.query(
        'INSERT INTO team.wrapped_keys (workspace, key_version, role_name, wrapped) VALUES ($1, 1, $2, $3)',
        [
          options.workspace,
          RECOVERY_RECIPIENT,
          wrapTeamKey(teamKey, recoveryPublic, options.workspace, 1, RECOVERY_RECIPIENT),
        ],
      );
      for (const login of options.officers) {
        const secret = randomBytes(32).toString('base64url');
        const role: MemberRole = login === lead ? 'lead' : 'officer';
        await admin.query('SELECT team.invite($1, $2, $3, $4, $5, $6)', [
          options.workspace,
          login,
          login,
          role,
          scramVerifier(secret),
          sealForInvite(new Map([[1, teamKey]]), secret, options.workspace, login),
        ]);
        const file = join(options.outFolder, `${login}.invite`);
        invites.push({ login, role, file });
        files.push({
          path: file,
          write: () => {
            writeInvite(file, {
              format: 'ledgerdesk-team-invite-v1',
              workspace: options.workspace,
              login,
              displayName: login,
              role,
              server,
              caPem: options.caPem,
              caFingerprint,
              secret,
            });
          },
        });
      }
      await admin.query('COMMIT');
    } catch (error) {
      await admin.query('ROLLBACK').catch(() => undefined);
      throw teamProblemOf(error, serverName);
    }
    for (const file of files) file.write();
    const recoveryKeyFile = join(options.outFolder, `${options.workspace}.recovery-key`);
    writeFileSync(
      recoveryKeyFile,
      `${JSON.stringify({ format: 'ledgerdesk-team-recovery-v1', workspace: options.workspace, privateKey: privateKeyText(recovery.privateKey) }, null, 2)}\n`,
      { mode: 0o600 },
    );
    return { workspace: options.workspace, migrationsApplied, invites, recoveryKeyFile, server };
  } finally {
    await admin.end().catch(() => undefined);
  }
}
