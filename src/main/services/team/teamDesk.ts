/**
 * An officer's team review on this laptop: every action (propose, approve, reject, claim,
 * assign, release, note) is validated, signed with the officer's Ed25519 key, its note sealed
 * with the team key, and queued in the outbox at once, online or not; TeamSync pushes it. The
 * queues (assigned to me, awaiting my approval, unassigned, conflicts) read the verified mirror.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { NOTE_MAX } from '../../../shared/review/reviewTerms.ts';
import { intentBytes, type TeamEventRow, type TeamIntent } from './crypto/teamCanonical.ts';
import { signIntent } from './crypto/officerKeys.ts';
import { sealIdentity, type TeamKeyring } from './crypto/teamKey.ts';
import type { OutboxRow, TeamMirror, TeamReview } from './laptop/teamMirror.ts';
import { LOGIN_PATTERN } from './teamConfig.ts';
import type { TeamItemNames } from './teamItemNames.ts';
import type { StoredOfficerKeys } from './teamKeychain.ts';
import { TeamProblem } from './teamProblem.ts';
import { TEAM_ACTIONS, TEAM_DISPOSITIONS, TEAM_KINDS, VERSIONED_ACTIONS, type TeamAction } from './teamTerms.ts';

const teamActionSchema = z
  .strictObject({
    kind: z.enum(TEAM_KINDS),
    ref: z.string().min(1).max(512),
    action: z.enum(TEAM_ACTIONS),
    disposition: z.enum(TEAM_DISPOSITIONS).optional(),
    assignee: z.string().regex(LOGIN_PATTERN).optional(),
    note: z.string().min(1).max(NOTE_MAX).optional(),
  })
  .superRefine((value, context) => {
    if (value.action === 'propose' && value.disposition === undefined)
      context.addIssue({ code: 'custom', message: 'a proposal needs a disposition', path: ['disposition'] });
    if (value.action !== 'propose' && value.disposition !== undefined)
      context.addIssue({ code: 'custom', message: 'only a proposal carries a disposition', path: ['disposition'] });
    if (value.action === 'assign' && value.assignee === undefined)
      context.addIssue({ code: 'custom', message: 'assign needs the officer to assign to', path: ['assignee'] });
    if (value.action !== 'assign' && value.assignee !== undefined)
      context.addIssue({ code: 'custom', message: 'only assign names an assignee', path: ['assignee'] });
    if ((value.action === 'reject' || value.action === 'note') && value.note === undefined)
      context.addIssue({ code: 'custom', message: `${value.action} needs a note`, path: ['note'] });
  });

export interface QueuedAction {
  eventId: string;
  kind: string;
  ref: string;
  action: TeamAction;
  baseVersion: number | null;
  queuedAt: string;
}

export interface TeamQueues {
  assignedToMe: TeamReview[];
  awaitingMyApproval: TeamReview[];
  unassigned: TeamReview[];
  conflicts: OutboxRow[];
  /** Cleared or closed, the latest first. */
  decided: TeamReview[];
}

export interface TeamDeskOptions {
  workspace: string;
  login: string;
  mirror: TeamMirror;
  keys: () => Promise<StoredOfficerKeys>;
  keyring: () => Promise<TeamKeyring>;
  /** Renames a pending transaction named by this laptop's ref to its team name. */
  names?: TeamItemNames;
  /** Whether the history signs its membership: approvals then name the proposal they answer. */
  signedMembership?: () => boolean;
  now?: () => Date;
}

export class TeamDesk {
  readonly #options: TeamDeskOptions;
  readonly #now: () => Date;

  constructor(options: TeamDeskOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  /** Validates, signs, seals and queues one action; never waits for the server. */
  async act(input: unknown): Promise<QueuedAction> {
    const parsed = teamActionSchema.safeParse(input);
    if (!parsed.success)
      throw new TeamProblem(
        'invalid',
        `The team action is not valid: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'action'}: ${issue.message}`).join('; ')}.`,
      );
    const action = {
      ...parsed.data,
      ref: (await this.#options.names?.teamRef(parsed.data.kind, parsed.data.ref)) ?? parsed.data.ref,
    };
    const { workspace, mirror } = this.#options;
    const id = randomUUID();
    let baseVersion: number | null = null;
    let disposition: string | null = action.disposition ?? null;
    if (VERSIONED_ACTIONS.includes(action.action)) {
      const current = mirror.review(workspace, action.kind, action.ref);
      baseVersion = (current?.version ?? 0) + mirror.queuedVersionMoves(workspace, action.kind, action.ref);
      // The approver signs over the proposal they approve (issue 35): its chain hash.
      if ((action.action === 'approve' || action.action === 'reject') && this.#options.signedMembership?.() === true)
        disposition = current?.proposalHash ?? null;
    }
    let sealed: Buffer | null = null;
    let keyVersion: number | null = null;
    if (action.note !== undefined) {
      const keyring = await this.#options.keyring();
      sealed = keyring.seal(
        JSON.stringify({ note: action.note }),
        sealIdentity(id, workspace, action.kind, action.ref),
      );
      keyVersion = keyring.current;
    }
    const clientAt = this.#now().toISOString();
    const intent: TeamIntent = {
      id,
      workspace,
      kind: action.kind,
      ref: action.ref,
      action: action.action,
      disposition,
      assignee: action.assignee ?? null,
      baseVersion,
      keyVersion,
      clientAt,
      sealed,
    };
    const { signPrivate } = await this.#options.keys();
    const signature = signIntent(signPrivate, intentBytes(intent));
    mirror.enqueue({
      eventId: id,
      workspace,
      kind: action.kind,
      ref: action.ref,
      action: action.action,
      payload: payloadOf(intent, signature),
      queuedAt: clientAt,
    });
    return { eventId: id, kind: action.kind, ref: action.ref, action: action.action, baseVersion, queuedAt: clientAt };
  }

  queues(limit = 200): TeamQueues {
    const { workspace, login, mirror } = this.#options;
    return {
      assignedToMe: mirror.assignedTo(workspace, login, limit),
      awaitingMyApproval: mirror.awaitingApprovalBy(workspace, login, limit),
      unassigned: mirror.unassigned(workspace, limit),
      conflicts: mirror.conflicts(workspace, limit),
      decided: mirror.decided(workspace, limit),
    };
  }

  review(kind: string, ref: string): TeamReview | null {
    return this.#options.mirror.review(this.#options.workspace, kind, ref);
  }

  /** An item's history with its notes opened (who, what, when: the server's clock). */
  async history(kind: string, ref: string): Promise<(TeamEventRow & { note: string | null })[]> {
    const events = this.#options.mirror.history(this.#options.workspace, kind, ref);
    const keyring = events.some((event) => event.sealed !== null) ? await this.#options.keyring() : null;
    return events.map((event) => ({ ...event, note: keyring === null ? null : openNote(keyring, event) }));
  }

  acknowledge(eventId: string): boolean {
    return this.#options.mirror.acknowledge(this.#options.workspace, eventId);
  }
}

function openNote(keyring: TeamKeyring, event: TeamEventRow): string | null {
  if (event.sealed === null || event.keyVersion === null) return null;
  const opened = JSON.parse(
    keyring.open(event.sealed, sealIdentity(event.id, event.workspace, event.kind, event.ref), event.keyVersion),
  ) as { note?: unknown };
  return typeof opened.note === 'string' ? opened.note : null;
}

/** The JSON team.push reads (snake_case, bytes as base64). */
export function payloadOf(intent: TeamIntent, signature: Uint8Array): string {
  return JSON.stringify({
    id: intent.id,
    workspace: intent.workspace,
    kind: intent.kind,
    ref: intent.ref,
    action: intent.action,
    disposition: intent.disposition,
    assignee: intent.assignee,
    base_version: intent.baseVersion,
    key_version: intent.keyVersion,
    client_at: intent.clientAt,
    sealed: intent.sealed === null ? null : Buffer.from(intent.sealed).toString('base64'),
    signature: Buffer.from(signature).toString('base64'),
  });
}
