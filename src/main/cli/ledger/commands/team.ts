/**
 * `ledger team …` and the team actions of `ledger review …`: team mode from the command line
 * (docs/team.md). Every action is validated, queued on this laptop, recorded in the local audit
 * log, and pushed at once when the server answers; a server that cannot be reached leaves it
 * queued (said on standard error, exit 0: nothing is lost).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SecretStore } from '../../../services/credentials/secretStore.ts';
import type { LedgerServices } from '../../../services/ledgerServices.ts';
import { teamInit } from '../../../services/team/teamInit.ts';
import { teamJoin } from '../../../services/team/teamJoin.ts';
import { TeamProblem } from '../../../services/team/teamProblem.ts';
import { TeamSession, type SyncOutcome } from '../../../services/team/teamSession.ts';
import type { TeamAction } from '../../../services/team/teamTerms.ts';
import { verifyTeamHistory } from '../../../services/team/teamVerify.ts';
import { read } from '../cliArguments.ts';
import { UsageError } from '../../common/usageError.ts';
import { table } from '../cliOutput.ts';
import type { CommandContext } from '../triggerCommand.ts';

export interface TeamCommandContext extends CommandContext {
  dataFolder: string;
  secretStore: SecretStore;
  env: NodeJS.ProcessEnv;
  warn(text: string): void;
}

const EXIT_OK = 0;
const EXIT_FAILED = 1;

function text(
  context: TeamCommandContext,
  option: 'workspace' | 'ca' | 'lead' | 'out' | 'role' | 'assignee' | 'note' | 'kind' | 'disposition',
): string | undefined {
  return read.text(context.arguments.options, option);
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

function describeSync(context: TeamCommandContext, outcome: SyncOutcome): void {
  if (outcome.problem !== null) context.warn(`ledger: ${outcome.problem}`);
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
  // The admin's password may come from PGPASSWORD rather than the URL (and the shell history).
  let adminUrl = url;
  const password = context.env['PGPASSWORD'];
  if (password !== undefined && password !== '') {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (parsed !== null && parsed.password === '') {
      parsed.password = password;
      adminUrl = parsed.toString();
    }
  }
  const lead = text(context, 'lead');
  const report = await teamInit({
    adminUrl,
    caPem,
    workspace,
    officers: list,
    outFolder: resolve(text(context, 'out') ?? '.'),
    ...(lead === undefined ? {} : { lead }),
  });
  if (context.arguments.json) context.printJson(report);
  else
    context.print(
      [
        `Team ${report.workspace} is ready on ${report.server.host}:${String(report.server.port)}/${report.server.database}${report.migrationsApplied.length > 0 ? ` (team schema migrations ${report.migrationsApplied.join(', ')} applied)` : ''}.`,
        ...report.invites.map((invite) => `  ${invite.login} (${invite.role}): ${invite.file}`),
        `Give each officer their invite file (it is a one-time credential). Keep the recovery key offline: ${report.recoveryKeyFile}`,
      ].join('\n'),
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
    describeSync(context, outcome);
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
        `Joined ${settings.workspace} as ${settings.login} (${settings.role}). Your signing key: ${fingerprint(keys.signPublic)} (compare it with your team lead's list: \`ledger team members\`).`,
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
    const members = await team.members();
    if (context.arguments.json) context.printJson({ rows: members });
    else
      context.print(
        table(
          ['LOGIN', 'ROLE', 'STATE', 'SIGNING KEY'],
          members.map((member) => [
            member.login,
            member.role,
            member.active ? (member.joined ? 'member' : 'invited') : 'removed',
            member.signingKey ?? '-',
          ]),
        ),
      );
    return EXIT_OK;
  });
}

export function teamInvite(context: TeamCommandContext): Promise<number> {
  return withTeam(context, async (services, team) => {
    const role = text(context, 'role') ?? 'officer';
    if (role !== 'officer' && role !== 'lead') throw new UsageError('--role: must be officer or lead');
    const login = context.arguments.name ?? '';
    try {
      const file = await team.invite(login, role, resolve(text(context, 'out') ?? '.'));
      audit(services, team, 'team.invite', login, 'ok');
      if (context.arguments.json) context.printJson({ login, role, file });
      else context.print(`Invited ${login} (${role}): give them ${file} (a one-time credential).`);
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
    describeSync(context, await team.synchronise());
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
