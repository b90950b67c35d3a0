/**
 * The two files of team mode, both validated with zod when read:
 * - an invite (written by `ledger team init` or `ledger team invite`, one per officer): the
 *   server, the team CA (pinned by its fingerprint), the login, the role, a one-time secret and
 *   (since issue 35, format v2) who invited, until when, the signed invite event it answers and
 *   the hash of the history's first event, which the joining laptop pins. It is a credential
 *   until used: written with mode 0600. A v1 invite (af86022) joins a workspace whose membership
 *   is not signed yet.
 * - the laptop's team settings (`team.json` in the data folder, written by `team join` or, for
 *   the lead, `team init`): the same minus the secret, which is in the keychain, plus the
 *   profile the workspace maps to.
 *
 * The CA fingerprint in an invite is checked against the CA in the same file: it catches a
 * damaged file, not a replaced one (whoever can replace the file can replace both, and the
 * server address and secret too). What catches a replaced invite is independent of it: the
 * joining officer compares the lead's key fingerprint, which every laptop shows as a new member
 * to acknowledge, with the lead in person (docs/team.md, "Who can attack what").
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { TeamProblem } from './teamProblem.ts';

export const WORKSPACE_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const LOGIN_PATTERN = /^[a-z][a-z0-9_]{0,47}$/;

const serverSchema = z.strictObject({
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  database: z.string().min(1).max(63),
});
export type TeamServer = z.infer<typeof serverSchema>;

const memberRole = z.enum(['lead', 'officer']);
export type MemberRole = z.infer<typeof memberRole>;

const inviteV1Fields = {
  workspace: z.string().regex(WORKSPACE_PATTERN),
  login: z.string().regex(LOGIN_PATTERN),
  displayName: z.string().min(1).max(100),
  role: memberRole,
  server: serverSchema,
  caPem: z.string().min(1).max(20_000),
  caFingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  secret: z.string().min(32).max(200),
};
const hashHex = z.string().regex(/^[0-9a-f]{64}$/);
const inviteSchema = z.discriminatedUnion('format', [
  z.strictObject({ format: z.literal('ledgerdesk-team-invite-v1'), ...inviteV1Fields }),
  z.strictObject({
    format: z.literal('ledgerdesk-team-invite-v2'),
    ...inviteV1Fields,
    invitedBy: z.string().regex(LOGIN_PATTERN),
    /** The signed event that made this invite (the genesis, for a founding officer). */
    inviteEvent: z.uuid(),
    expires: z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    /** The chain hash of the history's first event: the joining laptop refuses another history. */
    historyRoot: hashHex,
  }),
]);
export type TeamInvite = z.infer<typeof inviteSchema>;

const settingsSchema = z.strictObject({
  format: z.literal('ledgerdesk-team-v1'),
  workspace: z.string().regex(WORKSPACE_PATTERN),
  login: z.string().regex(LOGIN_PATTERN),
  displayName: z.string().min(1).max(100),
  role: memberRole,
  server: serverSchema,
  caPem: z.string().min(1).max(20_000),
  caFingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  profileId: z.string().min(1).max(200).nullable(),
  /** The hash of the history's first event as the invite named it (absent: a v1 invite). */
  historyRoot: hashHex.optional(),
});
export type TeamSettings = z.infer<typeof settingsSchema>;

export const TEAM_SETTINGS_FILE = 'team.json';

/** SHA-256 of the CA certificate's DER bytes, as hex: what an invite pins. */
export function caFingerprintOf(caPem: string): string {
  try {
    return createHash('sha256').update(new X509Certificate(caPem).raw).digest('hex');
  } catch {
    throw new TeamProblem('invalid', 'The team CA certificate is not a PEM certificate.');
  }
}

function parseJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new TeamProblem(
      'invalid',
      `The ${what} ${path} cannot be read (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  if (text.length > 100_000) throw new TeamProblem('invalid', `The ${what} ${path} is too large to be one.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new TeamProblem('invalid', `The ${what} ${path} is not JSON.`);
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`).join('; ');
}

export function readInvite(path: string): TeamInvite {
  const parsed = inviteSchema.safeParse(parseJsonFile(path, 'invite'));
  if (!parsed.success)
    throw new TeamProblem(
      'invalid',
      `The invite ${path} is not a Ledgerdesk team invite (${describeIssues(parsed.error)}).`,
    );
  if (caFingerprintOf(parsed.data.caPem) !== parsed.data.caFingerprint)
    throw new TeamProblem(
      'invalid',
      `The invite ${path} was altered: its CA certificate does not match its fingerprint.`,
    );
  return parsed.data;
}

export function writeInvite(path: string, invite: TeamInvite): void {
  writeFileSync(path, `${JSON.stringify(inviteSchema.parse(invite), null, 2)}\n`, { mode: 0o600 });
}

export function readTeamSettings(dataFolder: string): TeamSettings | null {
  const path = join(dataFolder, TEAM_SETTINGS_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TeamProblem('invalid', `The team settings ${path} are not JSON.`);
  }
  const parsed = settingsSchema.safeParse(value);
  if (!parsed.success)
    throw new TeamProblem('invalid', `The team settings ${path} are not valid (${describeIssues(parsed.error)}).`);
  return parsed.data;
}

export function writeTeamSettings(dataFolder: string, settings: TeamSettings): void {
  writeFileSync(join(dataFolder, TEAM_SETTINGS_FILE), `${JSON.stringify(settingsSchema.parse(settings), null, 2)}\n`, {
    mode: 0o600,
  });
}

export function describeServer(server: TeamServer): string {
  return `${server.host}:${String(server.port)}/${server.database}`;
}
