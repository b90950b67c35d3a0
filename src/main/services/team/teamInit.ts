/**
 * `ledger team init`: the team lead, once, on their own laptop, with the database
 * administrator's URL. Applies the team schema; makes the lead's signing and X25519 keys in this
 * laptop's keychain (so this laptop is the lead's, joined from the start); creates the workspace
 * with its first team key (wrapped for the lead and for an offline recovery key, whose private
 * half is written to a file for the compliance lead to keep offline); creates a login per
 * founding officer; and records the **genesis**: the first event of the history, signed by the
 * lead, naming the lead's keys, the founding officers (each with the public half of a one-time
 * invite key and when the invite expires) and the first four-eyes policy (issue 35, T2). Each
 * founding officer gets an invite file: the server, the CA, the role, a one-time secret (from
 * which the invite key derives) and the genesis's hash, which their laptop pins.
 *
 * The admin URL is read by Ledgerdesk (adminUrl.ts): its host, port, database and user are given
 * to the driver explicitly, with TLS verify-full against --ca, and a query that would change
 * either is refused (T3). The team key leaves this process only sealed.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { SecretStore } from '../credentials/secretStore.ts';
import { adminTargetOf } from './adminUrl.ts';
import { intentBytes, type TeamIntent } from './crypto/teamCanonical.ts';
import { fingerprint, generateOfficerKeys, privateKeyText, rawPublicKey, signIntent } from './crypto/officerKeys.ts';
import { scramVerifier } from './crypto/scramVerifier.ts';
import { newTeamKey, sealForInvite, wrapTeamKey } from './crypto/teamKey.ts';
import { TeamMirror } from './laptop/teamMirror.ts';
import { inviteKeyOf, keyText, termsText } from './rules/memberTerms.ts';
import { migrateTeamSchema } from './server/teamMigrate.ts';
import {
  caFingerprintOf,
  LOGIN_PATTERN,
  WORKSPACE_PATTERN,
  writeInvite,
  writeTeamSettings,
  type MemberRole,
  type TeamServer,
  type TeamSettings,
} from './teamConfig.ts';
import { payloadOf } from './teamDesk.ts';
import { TeamKeychain } from './teamKeychain.ts';
import { TeamProblem, teamProblemOf } from './teamProblem.ts';
import { DEFAULT_APPROVAL_RULES } from './teamTerms.ts';

export const RECOVERY_RECIPIENT = '#recovery';

/** How long an invite stays usable unless told otherwise (issue 35): seven days. */
const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** The longest an invite may live (the server refuses more). */
const INVITE_LIFETIME_MAX_MS = 90 * 24 * 60 * 60 * 1000;

interface LeadLaptop {
  dataFolder: string;
  secretStore: SecretStore;
  database: DatabaseSync;
  /** The laptop profile this workspace maps to, if any. */
  profileId?: string | null;
}

export interface TeamInitOptions {
  /** postgres://admin@host:port/database (a password in it is taken, but argv is no place for one). */
  adminUrl: string;
  /** The admin's password when the URL carries none: from a file, PGPASSWORD or a prompt. */
  adminPassword?: string;
  caPem: string;
  workspace: string;
  /** Every founding officer, the lead among them. */
  officers: readonly string[];
  /** Who leads (invites, assigns, removes); the first officer unless named. */
  lead?: string;
  /** Where the invites and the recovery key are written. */
  outFolder: string;
  /** The laptop this runs on, the lead's: it joins the workspace as its lead. */
  laptop: LeadLaptop;
  /** How long the founding officers' invites stay usable (default 7 days, at most 90). */
  inviteLifetimeMs?: number;
  now?: () => Date;
}

export interface TeamInitReport {
  workspace: string;
  migrationsApplied: number[];
  lead: { login: string; signingKey: string };
  invites: { login: string; role: MemberRole; file: string; expires: string }[];
  recoveryKeyFile: string;
  server: TeamServer;
  /** The chain hash of the genesis: what every invite pins. */
  historyRoot: string;
}

export function inviteLifetimeOf(ms: number | undefined): number {
  const lifetime = ms ?? INVITE_LIFETIME_MS;
  if (!Number.isFinite(lifetime) || lifetime < 60_000 || lifetime > INVITE_LIFETIME_MAX_MS)
    throw new TeamProblem('invalid', 'An invite stays usable between one minute and 90 days.');
  return lifetime;
}

/**
 * `ledger team migrate`: the database administrator applies this build's team schema migrations
 * to a server that already holds workspaces (team init applies them too, for a new one). The
 * same explicit, verify-full connection as init. Workspaces made before team migration 4 keep
 * working as they were until a lead signs their roster (`ledger team upgrade`).
 */
export async function teamMigrate(options: {
  adminUrl: string;
  adminPassword?: string;
  caPem: string;
}): Promise<{ server: TeamServer; migrationsApplied: number[] }> {
  const target = adminTargetOf(options.adminUrl);
  const server: TeamServer = { host: target.host, port: target.port, database: target.database };
  const admin = adminClient(target, options.adminPassword, options.caPem, 'ledgerdesk team migrate');
  try {
    await admin.connect();
  } catch (error) {
    throw teamProblemOf(error, `${server.host}:${String(server.port)}/${server.database}`);
  }
  try {
    return { server, migrationsApplied: await migrateTeamSchema(admin) };
  } finally {
    await admin.end().catch(() => undefined);
  }
}

function adminClient(
  target: ReturnType<typeof adminTargetOf>,
  password: string | undefined,
  caPem: string,
  application: string,
): pg.Client {
  const admin = new pg.Client({
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    password: target.password === '' ? (password ?? '') : target.password,
    // verify-full against the team CA only, whatever the environment says (PGSSLMODE is not read
    // when TLS is given): the chain up to --ca, and the host name (or IP) in the certificate.
    ssl: { ca: caPem, rejectUnauthorized: true },
    connectionTimeoutMillis: 15_000,
    application_name: application,
  });
  admin.on('error', () => undefined);
  return admin;
}

function checkNames(options: TeamInitOptions): string {
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
  return lead;
}

export async function teamInit(options: TeamInitOptions): Promise<TeamInitReport> {
  const lead = checkNames(options);
  const lifetime = inviteLifetimeOf(options.inviteLifetimeMs);
  const target = adminTargetOf(options.adminUrl);
  const server: TeamServer = { host: target.host, port: target.port, database: target.database };
  const caFingerprint = caFingerprintOf(options.caPem);
  const serverName = `${server.host}:${String(server.port)}/${server.database}`;
  const now = options.now ?? (() => new Date());

  const admin = adminClient(target, options.adminPassword, options.caPem, 'ledgerdesk team init');
  try {
    await admin.connect();
  } catch (error) {
    throw teamProblemOf(error, serverName);
  }
  const keychain = new TeamKeychain(options.laptop.secretStore, {
    workspace: options.workspace,
    login: lead,
    dataFolder: options.laptop.dataFolder,
  });
  try {
    const migrationsApplied = await migrateTeamSchema(admin);
    const taken = await admin.query('SELECT 1 FROM team.workspaces WHERE workspace = $1', [options.workspace]);
    if (taken.rowCount !== 0)
      throw new TeamProblem('invalid', `A workspace named ${options.workspace} already exists on ${serverName}.`);

    const teamKey = newTeamKey();
    const recovery = generateKeyPairSync('x25519');
    const recoveryPublic = rawPublicKey(recovery.publicKey);
    const keys = generateOfficerKeys();
    const password = randomBytes(32).toString('base64url');
    const expires = new Date(now().getTime() + lifetime).toISOString();
    const founding = options.officers
      .filter((login) => login !== lead)
      .map((login): { login: string; role: MemberRole; secret: string; invitePublic: Buffer } => {
        const secret = randomBytes(32).toString('base64url');
        return {
          login,
          role: 'officer',
          secret,
          invitePublic: inviteKeyOf(secret, options.workspace, login).public,
        };
      });
    const intent: TeamIntent = {
      id: randomUUID(),
      workspace: options.workspace,
      kind: 'workspace',
      ref: options.workspace,
      action: 'genesis',
      disposition: termsText('genesis', {
        v: 1,
        lead,
        sign: keyText(keys.signPublic),
        box: keyText(keys.boxPublic),
        rules: [...DEFAULT_APPROVAL_RULES].sort(),
        members: founding.map((member) => ({
          login: member.login,
          role: member.role,
          inviteKey: keyText(member.invitePublic),
          expires,
        })),
      }),
      assignee: null,
      baseVersion: null,
      keyVersion: null,
      clientAt: now().toISOString(),
      sealed: null,
    };
    // The keychain first: if it cannot hold the lead's keys, nothing is made on the server.
    await keychain.saveKeys(keys);
    await keychain.setPassword(password);
    let genesis: { id: string; seq: number; hash: string };
    try {
      const answer = await admin.query<{ answer: { id: string; seq: number; hash: string } }>(
        'SELECT team.found($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb) AS answer',
        [
          options.workspace,
          recoveryPublic,
          lead,
          scramVerifier(password),
          keys.signPublic,
          keys.boxPublic,
          JSON.stringify([
            {
              role_name: lead,
              wrapped: wrapTeamKey(teamKey, keys.boxPublic, options.workspace, 1, lead).toString('base64'),
            },
            {
              role_name: RECOVERY_RECIPIENT,
              wrapped: wrapTeamKey(teamKey, recoveryPublic, options.workspace, 1, RECOVERY_RECIPIENT).toString(
                'base64',
              ),
            },
          ]),
          JSON.stringify(
            founding.map((member) => ({
              login: member.login,
              role: member.role,
              verifier: scramVerifier(member.secret),
              wrapped: sealForInvite(new Map([[1, teamKey]]), member.secret, options.workspace, member.login).toString(
                'base64',
              ),
              expires_at: expires,
            })),
          ),
          payloadOf(intent, signIntent(keys.signPrivate, intentBytes(intent))),
        ],
      );
      const found = answer.rows[0]?.answer;
      if (found === undefined) throw new TeamProblem('refused', 'The team server did not record the workspace.');
      genesis = found;
    } catch (error) {
      await keychain.forget().catch(() => undefined);
      throw teamProblemOf(error, serverName);
    }

    const settings: TeamSettings = {
      format: 'ledgerdesk-team-v1',
      workspace: options.workspace,
      login: lead,
      displayName: lead,
      role: 'lead',
      server,
      caPem: options.caPem,
      caFingerprint,
      profileId: options.laptop.profileId ?? null,
      historyRoot: genesis.hash,
    };
    writeTeamSettings(options.laptop.dataFolder, settings);
    const mirror = new TeamMirror(options.laptop.database);
    mirror.transaction(() => {
      mirror.ensureWorkspace(options.workspace, lead, settings.profileId);
      mirror.saveWrappedKey(options.workspace, 1, wrapTeamKey(teamKey, keys.boxPublic, options.workspace, 1, lead));
      mirror.setRootHash(options.workspace, Buffer.from(genesis.hash, 'hex'));
    });

    const invites: TeamInitReport['invites'] = founding.map((member) => {
      const file = join(options.outFolder, `${member.login}.invite`);
      writeInvite(file, {
        format: 'ledgerdesk-team-invite-v2',
        workspace: options.workspace,
        login: member.login,
        displayName: member.login,
        role: member.role,
        server,
        caPem: options.caPem,
        caFingerprint,
        secret: member.secret,
        invitedBy: lead,
        inviteEvent: genesis.id,
        expires,
        historyRoot: genesis.hash,
      });
      return { login: member.login, role: member.role, file, expires };
    });
    const recoveryKeyFile = join(options.outFolder, `${options.workspace}.recovery-key`);
    writeFileSync(
      recoveryKeyFile,
      `${JSON.stringify({ format: 'ledgerdesk-team-recovery-v1', workspace: options.workspace, privateKey: privateKeyText(recovery.privateKey) }, null, 2)}\n`,
      { mode: 0o600 },
    );
    return {
      workspace: options.workspace,
      migrationsApplied,
      lead: { login: lead, signingKey: fingerprint(keys.signPublic) },
      invites,
      recoveryKeyFile,
      server,
      historyRoot: genesis.hash,
    };
  } finally {
    await admin.end().catch(() => undefined);
  }
}
