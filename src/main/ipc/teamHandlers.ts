/**
 * Handlers of the `team` domain: team review for the window (Settings → Team and the team
 * queues), the same services as `ledger team …`. The session is opened once, on first use,
 * and keeps its one connection to the team server while the app runs. Every action is also
 * recorded in the local audit log.
 */
import type { SecretStore } from '../services/credentials/secretStore.ts';
import type { LedgerServices } from '../services/ledgerServices.ts';
import { teamJoin } from '../services/team/teamJoin.ts';
import { TeamSession } from '../services/team/teamSession.ts';
import { decidePolicy, readPolicy, setPolicy } from '../services/team/teamPolicy.ts';
import { verifyTeamHistory } from '../services/team/teamVerify.ts';
import type { TeamStatus } from '../../shared/ipc/domains/team.ts';
import type { Handlers } from './handlerTypes.ts';
import { IpcFailure } from './serviceErrors.ts';

export interface TeamHandlerServices {
  ledger: LedgerServices | null;
  ledgerProblem: string | null;
  team?: {
    dataFolder: string;
    secretStore: SecretStore;
    /** Told of the session opened, so the shell closes its connection when the app quits. */
    onOpen?: (session: { close(): Promise<void> }) => void;
  };
}

const SOLO: TeamStatus = {
  joined: false,
  workspace: null,
  login: null,
  role: null,
  server: null,
  head: null,
  queued: 0,
  conflicts: 0,
  pulledAt: null,
  membershipSigned: false,
  newMembers: 0,
};

export function createTeamHandlers(services: TeamHandlerServices): Pick<Handlers, 'team'> {
  let session: TeamSession | null = null;

  function ledger(): LedgerServices {
    if (services.ledger === null)
      throw new IpcFailure('not_available', services.ledgerProblem ?? 'The offline cache is not running.');
    return services.ledger;
  }

  function open(): TeamSession | null {
    if (session !== null) return session;
    if (services.team === undefined) return null;
    const { dataFolder, secretStore, onOpen } = services.team;
    session = TeamSession.open({
      dataFolder,
      secretStore,
      database: ledger().cache.database,
      records: ledger().reviews.records,
    });
    if (session !== null) onOpen?.(session);
    return session;
  }

  function joined(): TeamSession {
    const opened = open();
    if (opened === null)
      throw new IpcFailure(
        'not_available',
        'This laptop is not in a team: join one with an invite from your team lead.',
      );
    return opened;
  }

  function statusOf(team: TeamSession | null): TeamStatus {
    if (team === null) return SOLO;
    return { joined: true, ...team.status() };
  }

  function audit(
    team: TeamSession,
    action: string,
    target: string,
    result: 'ok' | 'refused',
    detail: string | null,
  ): void {
    ledger().cache.audit.record({
      profileId: team.status().profileId ?? '',
      profileName: `team ${team.workspace}`,
      action,
      target,
      result,
      detail,
    });
  }

  return {
    team: {
      status: () => statusOf(open()),
      join: async ({ inviteFile, profileId }) => {
        if (services.team === undefined)
          throw new IpcFailure('not_available', 'Team mode is not available in this window.');
        const { dataFolder, secretStore } = services.team;
        // An unknown profile is refused by name before anything is joined.
        const profile = profileId === undefined ? null : ledger().profiles.find(profileId).id;
        await teamJoin({ inviteFile, dataFolder, secretStore, database: ledger().cache.database, profileId: profile });
        await session?.close();
        session = null;
        const team = joined();
        audit(team, 'team.join', team.workspace, 'ok', null);
        await team.synchronise();
        return statusOf(team);
      },
      sync: async () => {
        const team = joined();
        const outcome = await team.synchronise();
        return {
          pushed: outcome.push?.sent ?? 0,
          pulled: outcome.pull?.pulled ?? 0,
          problem: outcome.problem,
          status: statusOf(team),
        };
      },
      members: async () => ({ rows: await joined().members() }),
      queues: ({ limit }) => {
        const queues = joined().desk.queues(limit);
        return {
          ...queues,
          conflicts: queues.conflicts.map((row) => ({
            eventId: row.eventId,
            kind: row.kind,
            ref: row.ref,
            action: row.action,
            state: row.state === 'refused' ? ('refused' as const) : ('conflict' as const),
            detail: row.detail,
            queuedAt: row.queuedAt,
          })),
        };
      },
      act: async (input) => {
        const team = joined();
        let queued;
        try {
          queued = await team.desk.act(input);
        } catch (error) {
          audit(
            team,
            `team.${input.action}`,
            `${input.kind}/${input.ref}`,
            'refused',
            error instanceof Error ? error.message : String(error),
          );
          throw new IpcFailure('invalid_input', error instanceof Error ? error.message : String(error));
        }
        audit(team, `team.${input.action}`, `${input.kind}/${input.ref}`, 'ok', 'queued');
        await team.synchronise();
        const row = team.mirror.outboxRow(queued.eventId);
        return { eventId: queued.eventId, state: row?.state ?? 'queued', detail: row?.detail ?? null };
      },
      history: async ({ kind, ref }) => ({
        events: (await joined().desk.history(kind, ref)).map((event) => ({
          seq: event.seq,
          officer: event.officer,
          at: event.at,
          clientAt: event.clientAt,
          action: event.action,
          // What a proposal asks for; an approval's or rejection's disposition is the signed hash
          // of the proposal it answers, for the laptops' checks, not for people.
          disposition: event.action === 'propose' ? event.disposition : null,
          assignee: event.assignee,
          result: event.result,
          detail: event.detail,
          note: event.note,
        })),
      }),
      acknowledge: ({ eventId }) => ({ acknowledged: joined().desk.acknowledge(eventId) }),
      policy: () => readPolicy(joined()),
      setPolicy: async ({ rules }) => {
        const team = joined();
        try {
          const policy = await setPolicy(team, rules);
          audit(team, 'team.policy', team.workspace, 'ok', policy.rules.join(',') || '(none)');
          return policy;
        } catch (error) {
          // Refused or unreachable: recorded, then mapped like every team problem (serviceErrors.ts).
          audit(team, 'team.policy', team.workspace, 'refused', error instanceof Error ? error.message : String(error));
          throw error;
        }
      },
      decidePolicy: async ({ decision }) => {
        const team = joined();
        try {
          const policy = await decidePolicy(team, decision);
          audit(team, `team.policy-${decision}`, team.workspace, 'ok', policy.rules.join(',') || '(none)');
          return policy;
        } catch (error) {
          audit(
            team,
            `team.policy-${decision}`,
            team.workspace,
            'refused',
            error instanceof Error ? error.message : String(error),
          );
          throw error;
        }
      },
      acknowledgeMember: async ({ login, fingerprint }) => {
        const team = joined();
        try {
          const result = await team.acknowledgeMember(login, fingerprint);
          audit(team, 'team.acknowledge', login, 'ok', result.confirmed ? `counts as ${result.countsAs}` : null);
          return result;
        } catch (error) {
          audit(team, 'team.acknowledge', login, 'refused', error instanceof Error ? error.message : String(error));
          throw error;
        }
      },
      verify: async () => {
        const report = await verifyTeamHistory(joined());
        return {
          workspace: report.workspace,
          ok: report.ok,
          events: report.events,
          head: report.head,
          firstBad: report.firstBad,
        };
      },
    },
  };
}
