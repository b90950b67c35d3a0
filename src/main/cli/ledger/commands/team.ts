/**
 * `ledger team …` and the team actions of `ledger review …`: team mode from the command line
 * (docs/team.md). Every action is validated, queued on this laptop, recorded in the local audit
 * log, and pushed at once when the server answers; a server that cannot be reached leaves it
 * queued (said on standard error, exit 0: nothing is lost).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SecretStore } from '../../../services/credentials/secretStore.ts';
import { adminTargetOf } from '../../../services/team/adminUrl.ts';
import type { LedgerServices } from '../../../services/ledgerServices.ts';
import { teamInit, teamMigrate } from '../../../services/team/teamInit.ts';
import { teamJoin } from '../../../services/team/teamJoin.ts';
import { TeamProblem } from '../../../services/team/teamProblem.ts';
import { TeamSession, type SyncOutcome } from '../../../services/team/teamSession.ts';
import type { TeamAction } from '../../../services/team/teamTerms.ts';
import { verifyTeamHistory } from '../../../services/team/teamVerify.ts';
import { read } from '../cliArguments.ts';
import { UsageError } from '../../common/usageError.ts';
import { table } from '../cliOutput.ts';
import { readOptionalSecret, type SecretInput } from '../readSecret.ts';
import type { CommandContext } from '../triggerCommand.ts';

export interface TeamCommandContext extends CommandContext {
  dataFolder: string;
  secretStore: SecretStore;
  env: NodeJS.ProcessEnv;
  /** Where the admin's password is asked for when no file or PGPASSWORD gives it. */
  secretInput?: SecretInput;
  warn(text: string): void;
}

const EXIT_OK = 0;
const EXIT_FAILED = 1;

function text(
  context: TeamCommandContext,
  option:
    | 'workspace'
    | 'ca'
    | 'lead'
    | 'out'
    | 'role'
    | 'assignee'
    | 'note'
    | 'kind'
    | 'disposition'
    | 'password-file'
    | 'valid-for'
    | 'fingerprint'
    | 'profile',
): string | undefined {
  return read.text(context.arguments.options, option);
}

/** `--valid-for 7d` (days, hours or minutes) in milliseconds; undefined: the default (7 days). */
function validFor(context: TeamCommandContext): number | undefined {
  const given = text(context, 'valid-for');
  if (given === undefined) return undefined;
  const match = /^(\d{1,4})([dhm])$/.exec(given.trim());
  if (match === null)
    throw new UsageError('--valid-for: a number of days, hours or minutes, e.g. 7d, 36h or 90m (at most 90d).');
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[match[2] as 'd' | 'h' | 'm'];
  return Number(match[1]) * unit;
}

/**
 * The administrator's password, never from an argument (every user of the computer can read a
 * process's arguments while it runs): a file only its owner reads, PGPASSWORD, or typed when asked.
 */
async function adminPassword(context: TeamCommandContext, url: string): Promise<string> {
  if (adminTargetOf(url).password !== '')
    throw new UsageError(
      'The admin URL carries a password, which every user of this computer can read in the process list while team init runs: remove it from the URL and give it with --password-file FILE (mode 0600), PGPASSWORD, or type it when asked.',
    );
  const file = text(context, 'password-file');
  if (file !== undefined) {
    const path = resolve(file);
    let mode: number;
    let content: string;
    try {
      mode = statSync(path).mode;
      content = readFileSync(path, 'utf8');
    } catch {
      throw new UsageError(`--password-file: ${file} cannot be read.`);
    }
    if ((mode & 0o077) !== 0)
      throw new UsageError(
        `--password-file: ${file} can be read by other users (mode ${(mode & 0o777).toString(8).padStart(4, '0')}): chmod 600 ${file}.`,
      );
    return content.replace(/\r?\n$/, '');
  }
  const fromEnvironment = context.env['PGPASSWORD'];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  if (context.secretInput === undefined) return '';
  return readOptionalSecret(context.secretInput, "The database administrator's password");
}

function session(context: TeamCommandContext, services: LedgerServices): TeamSession {
  const opened = TeamSession.open({
    dataFolder: context.dataFolder,
    secretStore: context.secretStore,
    database: services.cache.database,
    records: services.reviews.records,
  });
  if (opened === null)
    throw new TeamProblem(
      'not-joined',
      'This laptop is not in a team: join one with `ledger team join FILE` (an invite from your team lead).',
    );
  return opened;
}

export function audit(
  services: LedgerServices,
  team: TeamSession,
  action: string,
  target: string,
  result: 'ok' | 'failed' | 'refused',
  detail: string | null = null,
): void {
  const profileId = team.status().profileId ?? '';
  services.cache.audit.record({ profileId, profileName: `team ${team.workspace}`, action, target, result, detail });
}

function describeSync(context: TeamCommandContext, outcome: SyncOutcome, team?: TeamSession): void {
  if (outcome.problem !== null) context.warn(`ledger: ${outcome.problem}`);
  if (team === undefined) return;
  for (const member of team.newMembers())
    context.warn(
      `ledger: new member ${member.login} (${member.role}${member.introducedBy === null ? '' : `, invited by ${member.introducedBy}`}), signing key ${member.signingKey ?? '?'}. Compare it with ${member.login} in person, then: ledger team acknowledge ${member.login} --fingerprint "${member.signingKey ?? ''}"`,
    );
}

export async function teamInitCommand(context: TeamCommandContext): Promise<number> {
  const url = context.arguments.name ?? '';
  const caFile = text(context, 'ca');
  const workspace = text(context, 'workspace');
  const officers = context.arguments.options.officer;
  const list = Array.isArray(officers) ? officers : typeof officers === 'string' ? [officers] : [];
  if (caFile === undefined || workspace === undefined || list.length === 0)
    throw new UsageError('`team init` needs --ca FILE, --workspace NAME and at least one --officer NAME.');
  let caPem: string;
  try {
    caPem = readFileSync(resolve(caFile), 'utf8');
  } catch {
    throw new UsageError(`--ca: ${caFile} cannot be read.`);
  }
  const lifetime = validFor(context);
  const password = await adminPassword(context, url);
  const services = await context.open();
  const profileName = text(context, 'profile');
  const profileId = profileName === undefined ? null : services.profiles.find(profileName).id;
  const lead = text(context, 'lead');
  const report = await teamInit({
    adminUrl: url,
    adminPassword: password,
    caPem,
    workspace,
    officers: list,
    outFolder: resolve(text(context, 'out') ?? '.'),
    laptop: {
      dataFolder: context.dataFolder,
      secretStore: context.secretStore,
      database: services.cache.database,
      profileId,
    },
    ...(lead === undefined ? {} : { lead }),
    ...(lifetime === undefined ? {} : { inviteLifetimeMs: lifetime }),
  });
  const team = session(context, services);
  try {
    audit(services, team, 'team.init', report.workspace, 'ok', `genesis ${report.historyRoot}`);
    describeSync(context, await team.synchronise());
  } finally {
    await team.close();
  }
  if (context.arguments.json) context.printJson(report);
  else
    context.print(
      [
        `Team ${report.workspace} is ready on ${report.server.host}:${String(report.server.port)}/${report.server.database}${report.migrationsApplied.length > 0 ? ` (team schema migrations ${report.migrationsApplied.join(', ')} applied)` : ''}.`,
        `This laptop (${context.dataFolder}) joined as its lead, ${report.lead.login}. Your signing key: ${report.lead.signingKey}`,
        ...report.invites.map(
          (invite) => `  ${invite.login} (${invite.role}): ${invite.file} (usable until ${invite.expires})`,
        ),
        'Give each officer their invite file (a one-time credential) and read them your signing key: their laptop shows it for them to compare.',
        `Keep the recovery key offline: ${report.recoveryKeyFile}`,
      ].join('\n'),
    );
  return EXIT_OK;
}

export async function teamMigrateCommand(context: TeamCommandContext): Promise<number> {
  const url = context.arguments.name ?? '';
  const caFile = text(context, 'ca');
  if (caFile === undefined) throw new UsageError('`team migrate` needs --ca FILE.');
  let caPem: string;
  try {
    caPem = readFileSync(resolve(caFile), 'utf8');
  } catch {
    throw new UsageError(`--ca: ${caFile} cannot be read.`);
  }
  const report = await teamMigrate({ adminUrl: url, adminPassword: await adminPassword(context, url), caPem });
  if (context.arguments.json) context.printJson(report);
  else
    context.print(
      report.migrationsApplied.length === 0
        ? `The team schema on ${report.server.host}:${String(report.server.port)}/${report.server.database} is up to date.`
        : `Applied team schema migrations ${report.migrationsApplied.join(', ')} on ${report.server.host}:${String(report.server.port)}/${report.server.database}. A workspace made before signed membership keeps working; its lead runs \`ledger team upgrade\` to sign its roster.`,
    );
  return EXIT_OK;
}

export async function teamJoinCommand(context: TeamCommandContext): Promise<number> {
  const services = await context.open();
  const profileName = read.text(context.arguments.options, 'profile');
  const profileId = profileName === undefined ? null : services.profiles.find(profileName).id;
  const settings = await teamJoin({
    inviteFile: resolve(context.arguments.name ?? ''),
    dataFolder: context.dataFolder,
    secretStore: context.secretStore,
    database: services.cache.database,
    profileId,
  });
  const team = session(context, services);
  try {
    audit(services, team, 'team.join', settings.workspace, 'ok');
    const outcome = await team.synchronise();
    describeSync(context, outcome, team);
    const keys = await team.keys();
    const { fingerprint } = await import('../../../services/team/crypto/officerKeys.ts');
    if (context.arguments.json)
      context.printJson({
        workspace: settings.workspace,
        login: settings.login,
        role: settings.role,
        head: team.status().head,
        signingKey: fingerprint(keys.signPublic),
      });
    else
      context.print(
        `Joined ${settings.workspace} as ${settings.login} (${settings.role}). Your signing key: ${fingerprint(keys.signPublic)}; the team CA's fingerprint: ${settings.caFingerprint.match(/.{4}/g)?.slice(0, 8).join(' ') ?? ''}. Read your key to your team lead, and compare theirs (\`ledger team members\`).`,
      );
  } finally {
    await team.close();
  }
  return EXIT_OK;
}

export async function withTeam(
  context: TeamCommandContext,
  work: (services: LedgerServices, team: TeamSession) => Promise<number>,
): Promise<number> {
  const services = await context.open();
  const team = session(context, services);
  try {
    return await work(services, team);
  } finally {
    await team.close();
  }
}

export function teamStatus(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (_services, team) => {
    const status = team.status();
    let serverHead: number | null = null;
    let problem: string | null = null;
    try {
      serverHead = await team.sync.serverHead();
    } catch (error) {
      if (!(error instanceof TeamProblem)) throw error;
      problem = error.message;
    }
    if (context.arguments.json) context.printJson({ ...status, serverHead, problem });
    else
      context.print(
        [
          `Team ${status.workspace} on ${status.server}, as ${status.login} (${status.role}).`,
          `Verified up to event ${String(status.head.seq)} (head ${status.head.hash.slice(0, 16)}…)${serverHead === null ? '' : `; the server is at ${String(serverHead)}`}.`,
          `${String(status.queued)} action(s) queued, ${String(status.conflicts)} conflict(s) to look at. Last pull: ${status.pulledAt ?? 'never'}.`,
          ...(status.newMembers === 0
            ? []
            : [
                `${String(status.newMembers)} new member(s) to acknowledge after comparing fingerprints: \`ledger team members\`.`,
              ]),
          ...(status.membershipSigned
            ? []
            : [
                "The team's membership is not in its signed history yet (made by an earlier Ledgerdesk): a lead runs `ledger team upgrade`.",
              ]),
          ...(problem === null ? [] : [problem]),
        ].join('\n'),
      );
    return EXIT_OK;
  });
}

export function teamPush(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (_services, team) => {
    const report = await team.sync.push();
    if (context.arguments.json) context.printJson(report);
    else
      context.print(
        `Pushed ${String(report.sent)} action(s): ${String(report.ok)} ok, ${String(report.conflicts)} conflict(s), ${String(report.refused)} refused.`,
      );
    return EXIT_OK;
  });
}

export function teamPull(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (_services, team) => {
    const report = await team.sync.pull();
    if (context.arguments.json) context.printJson(report);
    else
      context.print(
        `Pulled and verified ${String(report.pulled)} event(s); head ${String(report.head.seq)} ${report.head.hash}.`,
      );
    return EXIT_OK;
  });
}

export function teamMembers(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (_services, team) => {
    describeSync(context, await team.synchronise());
    const members = await team.members();
    if (context.arguments.json) context.printJson({ rows: members });
    else
      context.print(
        [
          table(
            ['LOGIN', 'ROLE', 'STATE', 'INTRODUCED BY', 'COUNTS AS', 'SIGNING KEY', 'YOU'],
            members.map((member) => [
              member.login,
              member.role,
              member.notice === 'unsigned'
                ? 'NOT IN THE SIGNED HISTORY'
                : !member.active
                  ? 'removed'
                  : member.joined
                    ? 'member'
                    : `invited (until ${member.inviteExpires ?? '?'})`,
              member.introducedBy ?? '-',
              member.countsAs,
              member.signingKey ?? '-',
              member.notice === 'new'
                ? 'NEW: compare, then acknowledge'
                : member.notice === 'acknowledged'
                  ? 'acknowledged'
                  : member.notice === 'self'
                    ? 'you'
                    : 'refused',
            ]),
          ),
          ...(members.some((member) => member.notice === 'new')
            ? [
                'Compare each new member\'s signing key with them in person, then: ledger team acknowledge NAME --fingerprint "…"',
              ]
            : []),
          ...(members.some((member) => member.notice === 'unsigned')
            ? [
                'The server lists a login no lead introduced in the signed history: nothing it signs is accepted. Tell your team lead.',
              ]
            : []),
        ].join('\n'),
      );
    return EXIT_OK;
  });
}

export function teamAcknowledge(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (services, team) => {
    const login = context.arguments.name ?? '';
    const compared = text(context, 'fingerprint') ?? '';
    try {
      const result = await team.acknowledgeMember(login, compared);
      audit(services, team, 'team.acknowledge', login, 'ok', result.confirmed ? `counts as ${result.countsAs}` : null);
      if (context.arguments.json) context.printJson({ login, ...result });
      else
        context.print(
          `Acknowledged ${login}'s signing key${result.confirmed ? ` (a signed confirmation: ${login} counts as ${result.countsAs} for four-eyes)` : ''}.`,
        );
    } catch (error) {
      audit(
        services,
        team,
        'team.acknowledge',
        login,
        'refused',
        error instanceof Error ? error.message : String(error),
      );
      throw error;
    }
    return EXIT_OK;
  });
}

export function teamUpgrade(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (services, team) => {
    const roster = await team.rosterPreview();
    if (context.arguments.options.sign !== true) {
      if (context.arguments.json) context.printJson({ signed: false, roster });
      else
        context.print(
          [
            `The membership of ${team.workspace} is not in its signed history yet. Signing its roster puts these members and keys there, as this laptop verified them:`,
            table(
              ['LOGIN', 'ROLE', 'SIGNING KEY'],
              roster.map((entry) => [entry.login, entry.role, entry.signingKey]),
            ),
            'Compare each fingerprint with its officer first: signing vouches for them from now on (it cannot prove how they were invited before). Then: ledger team upgrade --sign',
          ].join('\n'),
        );
      return EXIT_OK;
    }
    const signed = await team.signRoster();
    audit(
      services,
      team,
      'team.upgrade',
      team.workspace,
      'ok',
      `roster of ${String(signed.members)} at event ${String(signed.seq)}`,
    );
    if (context.arguments.json) context.printJson({ signed: true, ...signed, roster });
    else
      context.print(
        `Signed the roster of ${team.workspace} (event ${String(signed.seq)}, ${String(signed.members)} member(s)): its membership and policy are in its signed history from now on.`,
      );
    return EXIT_OK;
  });
}

export function teamInvite(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (services, team) => {
    const role = text(context, 'role') ?? 'officer';
    if (role !== 'officer' && role !== 'lead') throw new UsageError('--role: must be officer or lead');
    const login = context.arguments.name ?? '';
    const lifetime = validFor(context);
    try {
      const { file, expires } = await team.invite(login, role, resolve(text(context, 'out') ?? '.'), lifetime);
      audit(services, team, 'team.invite', login, 'ok', `usable until ${expires}`);
      if (context.arguments.json) context.printJson({ login, role, file, expires });
      else
        context.print(
          `Invited ${login} (${role}): give them ${file} (a one-time credential, usable until ${expires}). ${login} counts as you for four-eyes until another member confirms them.`,
        );
    } catch (error) {
      audit(services, team, 'team.invite', login, 'refused', error instanceof Error ? error.message : String(error));
      throw error;
    }
    return EXIT_OK;
  });
}

export function teamRemove(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (services, team) => {
    const login = context.arguments.name ?? '';
    try {
      const { keyVersion } = await team.remove(login);
      audit(services, team, 'team.remove', login, 'ok', `team key rotated to version ${String(keyVersion)}`);
      if (context.arguments.json) context.printJson({ login, keyVersion });
      else context.print(`Removed ${login} from ${team.workspace}; the team key is now version ${String(keyVersion)}.`);
    } catch (error) {
      audit(services, team, 'team.remove', login, 'refused', error instanceof Error ? error.message : String(error));
      throw error;
    }
    return EXIT_OK;
  });
}

export function teamQueues(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (_services, team) => {
    describeSync(context, await team.synchronise(), team);
    const queues = team.desk.queues(read.limit(context.arguments.options) ?? 200);
    if (context.arguments.json) {
      context.printJson(queues);
      return EXIT_OK;
    }
    const rows = (list: typeof queues.assignedToMe) =>
      list.map((review) => [
        review.kind,
        review.ref,
        review.state,
        byWhomAndWhen(review.proposedDisposition, review.proposedBy, review.proposedAt),
        byWhomAndWhen(null, review.approvedBy, review.approvedAt),
        review.assignee ?? '-',
      ]);
    const header = ['KIND', 'REF', 'STATE', 'PROPOSED', 'APPROVED', 'ASSIGNEE'];
    context.print(
      [
        `Assigned to me (${String(queues.assignedToMe.length)}):`,
        table(header, rows(queues.assignedToMe)),
        `Awaiting my approval (${String(queues.awaitingMyApproval.length)}):`,
        table(header, rows(queues.awaitingMyApproval)),
        `Unassigned (${String(queues.unassigned.length)}):`,
        table(header, rows(queues.unassigned)),
        `Conflicts (${String(queues.conflicts.length)}):`,
        table(
          ['KIND', 'REF', 'ACTION', 'WHAT HAPPENED'],
          queues.conflicts.map((row) => [row.kind, row.ref, row.action, `${row.state}: ${row.detail ?? ''}`]),
        ),
        `Recently decided (${String(queues.decided.length)}):`,
        table(header, rows(queues.decided)),
      ].join('\n'),
    );
    return EXIT_OK;
  });
}

/** "cleared by alice at 2026-11-27T01:02:03.000Z", or "-" when nobody has. */
function byWhomAndWhen(what: string | null, who: string | null, at: string | null): string {
  if (who === null) return '-';
  return `${what === null ? '' : `${what} `}by ${who}${at === null ? '' : ` at ${at}`}`;
}

/** `review propose|approve|reject|claim|release|assign`: one action per --ref, queued then pushed. */
export function reviewTeamAction(context: TeamCommandContext, action: TeamAction): Promise<number> {
  return withTeam(context, async (services, team) => {
    const options = context.arguments.options;
    const refs = read.refs(options);
    if (refs.length === 0) throw new UsageError(`\`review ${action}\` needs at least one --ref.`);
    const queued = [];
    for (const ref of refs) {
      const input = {
        kind: text(context, 'kind'),
        ref,
        action,
        ...(text(context, 'disposition') === undefined ? {} : { disposition: text(context, 'disposition') }),
        ...(text(context, 'assignee') === undefined ? {} : { assignee: text(context, 'assignee') }),
        ...(text(context, 'note') === undefined ? {} : { note: text(context, 'note') }),
      };
      try {
        queued.push(await team.desk.act(input));
        audit(services, team, `team.${action}`, `${input.kind ?? ''}/${ref}`, 'ok', 'queued');
      } catch (error) {
        audit(
          services,
          team,
          `team.${action}`,
          `${input.kind ?? ''}/${ref}`,
          'refused',
          error instanceof Error ? error.message : String(error),
        );
        throw error;
      }
    }
    const outcome = await team.synchronise();
    describeSync(context, outcome);
    const answered = queued.map((entry) => {
      const row = team.mirror.outboxRow(entry.eventId);
      return { ...entry, state: row?.state ?? 'queued', detail: row?.detail ?? null };
    });
    if (context.arguments.json) context.printJson({ rows: answered });
    else
      for (const entry of answered)
        context.print(
          `${entry.action} ${entry.kind} ${entry.ref}: ${entry.state}${entry.detail === null ? '' : ` (${entry.detail})`}`,
        );
    return answered.some((entry) => entry.state === 'conflict' || entry.state === 'refused') ? EXIT_FAILED : EXIT_OK;
  });
}

export function auditVerifyTeam(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (_services, team) => {
    const report = await verifyTeamHistory(team);
    if (context.arguments.json) context.printJson(report);
    else if (report.ok)
      context.print(
        `The team history of ${report.workspace} verifies: ${String(report.events)} event(s), every signature, this laptop's copy and its anchor; head ${report.head.hash}.`,
      );
    else context.print(report.firstBad?.reason ?? 'The team history does not verify.');
    return report.ok ? EXIT_OK : EXIT_FAILED;
  });
}
